/**
 * Quota and rate-limit arithmetic (README, openapi.json): limits, the UTC minute and month windows, the quota report
 * and one admission's outcome. Pure: every function takes the instant it is about.
 */
import { formatTimestamp } from './dates';
import type { PlanLimits } from './plans';

export type Instant = Date | number;

const MINUTE_MS = 60_000;

function toMs(at: Instant): number {
  return typeof at === 'number' ? at : at.getTime();
}

function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0');
}

/** Seconds from `at` until `end`, rounded up so that waiting that long always reaches the reset. */
function secondsUntil(end: number, at: number): number {
  return Math.ceil((end - at) / 1000);
}

// --- limits -------------------------------------------------------------------------------------------------------

export type OverflowLimits = Pick<PlanLimits, 'monthlyLimit' | 'overflowAllowed' | 'overflowPercent'>;

/** The overflow percentage in force: 0 when overflow is not allowed, else the plan's value kept within 0..100. */
export function overflowPercentOf(limits: OverflowLimits): number {
  if (!limits.overflowAllowed) return 0;
  return Math.min(100, Math.max(0, Math.trunc(limits.overflowPercent)));
}

export function effectiveLimit(limits: OverflowLimits): number {
  const base = limits.monthlyLimit;
  return base + Math.floor((base * overflowPercentOf(limits)) / 100);
}

// --- windows ------------------------------------------------------------------------------------------------------

/** Start of the UTC calendar month containing `at`, shifted by `offsetMonths` whole months. */
export function monthStartMs(at: Instant, offsetMonths = 0): number {
  const d = new Date(toMs(at));
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + offsetMonths, 1);
}

/** `YYYY-MM` of the UTC month: the month part of the usage item's key. */
export function monthKey(at: Instant): string {
  const d = new Date(toMs(at));
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}`;
}

/** Length of the calendar month containing `at`, in seconds (the month policy's `w`). */
export function monthLengthSeconds(at: Instant): number {
  return (monthStartMs(at, 1) - monthStartMs(at)) / 1000;
}

export function secondsUntilMonthReset(at: Instant): number {
  const ms = toMs(at);
  return secondsUntil(monthStartMs(ms, 1), ms);
}

/** `resets_at` of the quota report: the first day of the next month, 00:00:00Z. */
export function resetsAt(at: Instant): string {
  return formatTimestamp(monthStartMs(at, 1));
}

export function minuteStartMs(at: Instant): number {
  const ms = toMs(at);
  return ms - (((ms % MINUTE_MS) + MINUTE_MS) % MINUTE_MS);
}

export function minuteKey(at: Instant): string {
  return new Date(minuteStartMs(at)).toISOString().slice(0, 16);
}

/** Index of the minute within its month (0 at the 1st, 00:00): a short, unique name inside one usage item. */
export function minuteOfMonth(at: Instant): number {
  const ms = toMs(at);
  return Math.floor((ms - monthStartMs(ms)) / MINUTE_MS);
}

/** Day of the UTC month, 1 to 31: names the day's counters inside one usage item. */
export function dayOfMonth(at: Instant): number {
  return new Date(toMs(at)).getUTCDate();
}

/** Requests of one day of the month, as the dashboard's chart shows them. */
export interface DayUsage {
  date: string;
  /** Admitted requests, those that count toward the month and those that do not (GET /v1/quota). */
  requests: number;
  /** Requests refused by the minute or month limit. */
  refused: number;
}

/** One entry per day from the 1st of `at`'s month to its day, from counts by day of month (missing is 0). */
export function dailyUsage(
  at: Instant,
  admittedByDay: ReadonlyMap<number, number>,
  refusedByDay: ReadonlyMap<number, number>,
): DayUsage[] {
  const month = monthKey(at);
  const days: DayUsage[] = [];
  for (let day = 1; day <= dayOfMonth(at); day++) {
    days.push({
      date: `${month}-${pad(day)}`,
      requests: admittedByDay.get(day) ?? 0,
      refused: refusedByDay.get(day) ?? 0,
    });
  }
  return days;
}

export function secondsUntilMinuteReset(at: Instant): number {
  const ms = toMs(at);
  return secondsUntil(minuteStartMs(ms) + MINUTE_MS, ms);
}

// --- quota report -------------------------------------------------------------------------------------------------

export interface QuotaReport {
  plan: string;
  quota: {
    base_limit: number;
    effective_limit: number;
    used: number;
    remaining: number;
    overflow_allowed: boolean;
    overflow_percent: number;
  };
  resets_at: string;
}

/** The `data` of GET /v1/quota; the endpoint adds `meta.timestamp`. */
export function quotaReport(limits: PlanLimits, monthUsed: number, now: Instant): QuotaReport {
  const effective = effectiveLimit(limits);
  return {
    plan: limits.name,
    quota: {
      base_limit: limits.monthlyLimit,
      effective_limit: effective,
      used: monthUsed,
      remaining: Math.max(0, effective - monthUsed),
      overflow_allowed: limits.overflowAllowed,
      overflow_percent: overflowPercentOf(limits),
    },
    resets_at: resetsAt(now),
  };
}

// --- admission ----------------------------------------------------------------------------------------------------

export const METER_VERDICTS = ['admitted', 'rate-limit-exceeded', 'quota-exceeded'] as const;
export type MeterVerdict = (typeof METER_VERDICTS)[number];

/** For an admitted request the counts include it; a refusal counts nothing. */
export interface MeterState {
  verdict: MeterVerdict;
  /** The `plan` field of the quota report, e.g. `Pro`. */
  plan: string;
  minuteLimit: number;
  minuteUsed: number;
  /** The month's effective limit (base plus overflow). */
  monthLimit: number;
  monthUsed: number;
  /** The instant of the admission, epoch milliseconds; the windows in the headers are the ones around it. */
  at: number;
}

export interface UsageCounts {
  minuteUsed: number;
  monthUsed: number;
}

/** A used-up month is `quota-exceeded` even if the minute is too: waiting for the minute would not help. */
export function decideAdmission(
  before: UsageCounts,
  limits: { minuteLimit: number; monthLimit: number },
  countsTowardMonth: boolean,
): MeterVerdict {
  if (countsTowardMonth && before.monthUsed >= limits.monthLimit) return 'quota-exceeded';
  if (before.minuteUsed >= limits.minuteLimit) return 'rate-limit-exceeded';
  return 'admitted';
}

/** `Retry-After` of a 429: seconds until the violated window resets, at least 1; undefined when admitted. */
export function retryAfterSeconds(state: MeterState): number | undefined {
  switch (state.verdict) {
    case 'admitted':
      return undefined;
    case 'rate-limit-exceeded':
      return Math.max(1, secondsUntilMinuteReset(state.at));
    case 'quota-exceeded':
      return Math.max(1, secondsUntilMonthReset(state.at));
  }
}
