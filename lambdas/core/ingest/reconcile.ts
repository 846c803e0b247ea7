/**
 * The pure heart of ingestion: from fetched source days and what is stored, decide which day snapshots and which
 * LATEST to write. Nothing here reads a clock or a database, so every rule is a unit test away.
 */
import { addDays, dayStartMs } from '../domain/dates';
import { PIVOT, type RateSnapshot, type SourceId, sameSnapshot } from '../domain/rates';
import type { SourceDay } from '../sources/source-day';
import {
  buildLatest,
  dayPublishedAt,
  LATEST_MAX_LAG_DAYS,
  type LatestBuild,
  mergeDay,
  newestDate,
  rebaseToEur,
} from './merge';
import { checkSnapshot, describeJump, isJump, JUMP_LOOKBACK_DAYS, type Rejection, sourcesAgree } from './validate';

/** Sources publish day D at D 00:00 UTC at the earliest; a day after tomorrow is a broken or hostile feed. */
export const MAX_DAYS_AHEAD = 1;
const DAY_MS = 86_400_000;

export interface ReconcileInput {
  /** Every day the sources delivered in this run, in any order, any base. */
  fetched: readonly SourceDay[];
  /** Stored days around the fetched ones (see datesToRead): lookback, the fetched dates and LATEST's window. */
  stored: ReadonlyMap<string, RateSnapshot>;
  storedLatest?: RateSnapshot;
  /** Today (UTC), `YYYY-MM-DD`. */
  today: string;
  /** The configured sources, highest precedence first (merge.ts's rule); the default order when absent. */
  order?: readonly SourceId[];
}

export interface ReconcileResult {
  /** Days to write: new, or changed by a late source. Oldest first. */
  writes: RateSnapshot[];
  /** Fetched days identical to what is stored. */
  unchanged: number;
  /** LATEST to write, when it differs from the stored one. */
  latest?: RateSnapshot;
  /** LATEST after the run: the new one, or the stored one. */
  finalLatest?: RateSnapshot;
  /** Which day each source contributed to the rebuilt LATEST. */
  contributing?: LatestBuild['contributing'];
  rejections: Rejection[];
}

/** The stored days reconcile needs to see, for a run that fetched `dates`. */
export function datesToRead(dates: readonly string[], storedLatestDate: string | undefined, today: string): string[] {
  const horizon = addDays(today, MAX_DAYS_AHEAD);
  const valid = dates.filter((d) => d <= horizon).sort();
  const first = valid[0];
  const last = valid[valid.length - 1];
  const wanted = new Set<string>();
  const span = (from: string, to: string) => {
    for (let d = from; d <= to; d = addDays(d, 1)) wanted.add(d);
  };
  if (first && last) {
    const after = addDays(last, JUMP_LOOKBACK_DAYS);
    span(addDays(first, -JUMP_LOOKBACK_DAYS), [after, horizon].sort()[0] as string);
  }
  const newest = [last, storedLatestDate]
    .filter((d): d is string => d !== undefined)
    .sort()
    .pop();
  if (newest) span(addDays(newest, -LATEST_MAX_LAG_DAYS), newest);
  return [...wanted].sort();
}

function clone(snapshot: RateSnapshot): RateSnapshot {
  return { ...snapshot, rates: { ...snapshot.rates }, sources: { ...snapshot.sources } };
}

type Merge = ReturnType<typeof mergeDay>;

/** The fetched days by date, rebased to EUR; a day after the horizon or without EUR is rejected. */
function contributionsByDate(fetched: readonly SourceDay[], horizon: string, rejections: Rejection[]) {
  const contributions = new Map<string, SourceDay[]>();
  const seen = new Set<string>();
  for (const day of fetched) {
    const { date, source } = day;
    if (date > horizon) {
      rejections.push({ date, source, reason: 'future-date', detail: `${source} delivered ${date}, after ${horizon}` });
      continue;
    }
    // Overlapping files (daily and 90-day) deliver a day twice; the first delivery stands.
    const key = `${source}|${date}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const eurDay = rebaseToEur(day);
    if (!eurDay) {
      rejections.push({ date, source, reason: 'unusable-base', detail: `${source} quotes ${day.base} without EUR` });
      continue;
    }
    const list = contributions.get(date) ?? [];
    list.push(eurDay);
    contributions.set(date, list);
  }
  return contributions;
}

/** What the jump rule knows while it walks the days in order: each currency's last good rate, and the next one. */
function timeline(dates: readonly string[], rateOn: (date: string, code: string) => number | undefined) {
  // Day numbers once per date: the per-currency lookback checks would otherwise parse dates millions of times.
  const dayNumber = new Map(dates.map((date) => [date, dayStartMs(date) / DAY_MS]));
  const numberOf = (date: string): number => dayNumber.get(date) ?? dayStartMs(date) / DAY_MS;
  const lastGood = new Map<string, { day: number; rate: number }>();
  return {
    numberOf,
    lastGood,
    /** The next rate of `code` quoted within the lookback after the day at `index`. */
    nextRate(index: number, code: string): number | undefined {
      const from = numberOf(dates[index] as string);
      for (let i = index + 1; i < dates.length; i++) {
        const date = dates[i] as string;
        if (numberOf(date) - from > JUMP_LOOKBACK_DAYS) return undefined;
        const rate = rateOn(date, code);
        if (rate !== undefined) return rate;
      }
      return undefined;
    },
    remember(snapshot: RateSnapshot): void {
      const day = numberOf(snapshot.date);
      for (const [code, rate] of Object.entries(snapshot.rates)) {
        if (code !== PIVOT) lastGood.set(code, { day, rate });
      }
    },
  };
}

/** Walks every stored and merged day in order, keeping each merged day that passes the jump rule and the checks. */
function settleDays(
  input: ReconcileInput,
  contributions: ReadonlyMap<string, SourceDay[]>,
  merged: ReadonlyMap<string, Merge>,
  rejections: Rejection[],
) {
  const dates = [...new Set([...merged.keys(), ...input.stored.keys()])].sort();
  const line = timeline(dates, (date, code) => (merged.get(date)?.snapshot ?? input.stored.get(date))?.rates[code]);
  const final = new Map<string, RateSnapshot>();
  const writes: RateSnapshot[] = [];
  const heldBack = new Set<string>();
  let unchanged = 0;
  const keep = (date: string, snapshot: RateSnapshot) => {
    line.remember(snapshot);
    final.set(date, snapshot);
  };

  /**
   * The day's changed currencies that may stand: an unconfirmed jump keeps the stored rate (or none) and is
   * rejected, and its currency is held back for LATEST.
   */
  function holdBackJumps(index: number, merge: Merge, days: SourceDay[], snapshot: RateSnapshot): string[] {
    const { date } = snapshot;
    const stored = input.stored.get(date);
    const changed: string[] = [];
    for (const code of merge.changed) {
      const value = snapshot.rates[code] as number;
      const previous = line.lastGood.get(code);
      const jumped =
        previous !== undefined &&
        line.numberOf(date) - previous.day <= JUMP_LOOKBACK_DAYS &&
        value > 0 &&
        isJump(previous.rate, value);
      if (jumped) {
        const quotes = days.map((d) => d.rates[code]).filter((r): r is number => r !== undefined);
        const next = line.nextRate(index, code);
        // The next day may confirm a move only one source quotes; a second source that disagrees vetoes it.
        const confirmed = sourcesAgree(quotes) || (quotes.length < 2 && next !== undefined && !isJump(value, next));
        if (!confirmed) {
          const kept = stored?.rates[code];
          const keptSource = stored?.sources[code];
          if (kept === undefined) delete snapshot.rates[code];
          else snapshot.rates[code] = kept;
          if (keptSource === undefined) delete snapshot.sources[code];
          else snapshot.sources[code] = keptSource;
          heldBack.add(code);
          const source = merge.snapshot.sources[code];
          rejections.push({ date, code, source, reason: 'jump', detail: describeJump(code, previous.rate, value) });
          continue;
        }
      }
      changed.push(code);
    }
    return changed;
  }

  dates.forEach((date, index) => {
    const stored = input.stored.get(date);
    const merge = merged.get(date);
    if (!merge) {
      if (stored) keep(date, stored);
      return;
    }
    const days = contributions.get(date) ?? [];
    const snapshot = clone(merge.snapshot);
    const changed = holdBackJumps(index, merge, days, snapshot);
    snapshot.publishedAt = dayPublishedAt(stored, days, snapshot, changed);
    const problem = checkSnapshot(snapshot);
    if (problem) {
      rejections.push(problem);
      if (stored) keep(date, stored);
      return;
    }
    keep(date, snapshot);
    if (stored && sameSnapshot(stored, snapshot)) unchanged++;
    else writes.push(snapshot);
  });
  // `final`: every day after the run, stored or new, in date order.
  return { final: [...final.values()], writes, unchanged, heldBack };
}

/** The result with LATEST rebuilt from the settled days, when this run delivered data for its window. */
function withLatest(
  result: ReconcileResult,
  input: ReconcileInput,
  settled: ReturnType<typeof settleDays>,
  mergedDates: readonly string[],
): ReconcileResult {
  const days = settled.final;
  const newest = newestDate(days.map((d) => d.date));
  if (!newest) return result;
  const windowStart = addDays(newest, -LATEST_MAX_LAG_DAYS);
  // A backfill of old years leaves LATEST alone.
  const touchesWindow = mergedDates.some((d) => d >= windowStart);
  if (input.storedLatest && !touchesWindow) return result;
  const build = buildLatest(
    days.filter((d) => d.date >= windowStart),
    input.order,
  );
  if (!build) return result;
  const latest = build.latest;
  const previous = input.storedLatest;
  if (previous) {
    // LATEST never moves back in time (a rejected newest day leaves an older window behind).
    if (latest.date < previous.date) return result;
    // A currency held back by the jump rule keeps its last served value until a run confirms the move.
    for (const code of settled.heldBack) {
      const rate = previous.rates[code];
      const source = previous.sources[code];
      if (latest.rates[code] !== undefined || rate === undefined) continue;
      latest.rates[code] = rate;
      if (source) latest.sources[code] = source;
    }
  }
  result.contributing = build.contributing;
  if (!sameSnapshot(previous, latest)) {
    result.latest = latest;
    result.finalLatest = latest;
  }
  return result;
}

export function reconcile(input: ReconcileInput): ReconcileResult {
  const rejections: Rejection[] = [];
  const contributions = contributionsByDate(input.fetched, addDays(input.today, MAX_DAYS_AHEAD), rejections);
  const merged = new Map<string, Merge>();
  for (const [date, days] of contributions) merged.set(date, mergeDay(date, input.stored.get(date), days, input.order));
  const settled = settleDays(input, contributions, merged, rejections);
  const result: ReconcileResult = {
    writes: settled.writes,
    unchanged: settled.unchanged,
    rejections,
    finalLatest: input.storedLatest,
  };
  return withLatest(result, input, settled, [...merged.keys()]);
}
