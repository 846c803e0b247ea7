/**
 * The one codec of the authorizer's context (API Gateway hands it on as strings). Each field is written once; what
 * follows from others (the plan's name, the meter's limits) is derived on decoding.
 */
import { isPlanId, PLANS, type PlanId } from '../domain/plans';
import { effectiveLimit, METER_VERDICTS, type MeterState, type MeterVerdict } from '../domain/quota';

/** `unavailable`: the store did not answer in time, nothing was counted, and the endpoint answers 503. */
export const VERDICTS = [...METER_VERDICTS, 'api-key-in-url', 'account-inactive', 'unavailable'] as const;
export type Verdict = (typeof VERDICTS)[number];

/** The account's own limits (plan defaults with overrides applied), as far as the responses need them. */
export interface AccessLimits {
  monthlyLimit: number;
  overflowAllowed: boolean;
  overflowPercent: number;
  perMinute: number;
}

export interface Access {
  verdict: Verdict;
  accountId?: string;
  plan?: PlanId;
  limits?: AccessLimits;
  /** Present once the request went through metering (every verdict after a valid key). */
  meter?: MeterState;
}

/**
 * Context keys the authorizer sets on a Deny, which the ACCESS_DENIED gateway response reads. Here rather than beside
 * that response, so the authorizer's bundle holds no gateway response (they are built at load).
 */
export const DENY_CONTEXT_CODE = 'errorCode';
export const DENY_CONTEXT_MESSAGE = 'errorMessage';

/** Context keys. The counts of the meter are carried; its verdict, plan name and limits follow from the rest. */
const KEYS = {
  verdict: 'verdict',
  accountId: 'accountId',
  plan: 'plan',
  monthlyLimit: 'monthlyLimit',
  overflowAllowed: 'overflowAllowed',
  overflowPercent: 'overflowPercent',
  perMinute: 'perMinute',
  minuteUsed: 'minuteUsed',
  monthUsed: 'monthUsed',
  at: 'meteredAt',
} as const;

export function encodeAccess(access: Access): Record<string, string> {
  const context: Record<string, string> = { [KEYS.verdict]: access.verdict };
  if (access.accountId) context[KEYS.accountId] = access.accountId;
  if (access.plan) context[KEYS.plan] = access.plan;
  if (access.limits) {
    context[KEYS.monthlyLimit] = String(access.limits.monthlyLimit);
    context[KEYS.overflowAllowed] = String(access.limits.overflowAllowed);
    context[KEYS.overflowPercent] = String(access.limits.overflowPercent);
    context[KEYS.perMinute] = String(access.limits.perMinute);
  }
  if (access.meter) {
    context[KEYS.minuteUsed] = String(access.meter.minuteUsed);
    context[KEYS.monthUsed] = String(access.meter.monthUsed);
    context[KEYS.at] = String(access.meter.at);
  }
  return context;
}

/** Digits or a number, so a host that passes values through unconverted still works. */
function count(value: unknown): number | undefined {
  const n = typeof value === 'string' && /^\d{1,16}$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

function flag(value: unknown): boolean | undefined {
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  return undefined;
}

function decodeLimits(context: Readonly<Record<string, unknown>>): AccessLimits | undefined {
  const monthlyLimit = count(context[KEYS.monthlyLimit]);
  const overflowAllowed = flag(context[KEYS.overflowAllowed]);
  const overflowPercent = count(context[KEYS.overflowPercent]);
  const perMinute = count(context[KEYS.perMinute]);
  if (monthlyLimit === undefined || overflowAllowed === undefined) return undefined;
  if (overflowPercent === undefined || perMinute === undefined) return undefined;
  return { monthlyLimit, overflowAllowed, overflowPercent, perMinute };
}

/** The meter as the usage store returned it: an inactive account's was read, not admitted, so it says `admitted`. */
function decodeMeter(
  context: Readonly<Record<string, unknown>>,
  verdict: Verdict,
  plan: PlanId,
  limits: AccessLimits,
): MeterState | undefined {
  const minuteUsed = count(context[KEYS.minuteUsed]);
  const monthUsed = count(context[KEYS.monthUsed]);
  const at = count(context[KEYS.at]);
  if (minuteUsed === undefined || monthUsed === undefined || at === undefined) return undefined;
  const meterVerdict = (METER_VERDICTS as readonly string[]).includes(verdict) ? (verdict as MeterVerdict) : 'admitted';
  return {
    verdict: meterVerdict,
    plan: PLANS[plan].name,
    minuteLimit: limits.perMinute,
    minuteUsed,
    monthLimit: effectiveLimit(limits),
    monthUsed,
    at,
  };
}

/** Whether a context carries the `unavailable` verdict (a 503 relayed from the authorizer): that one field is read. */
export function isUnavailable(context: Readonly<Record<string, unknown>> | null | undefined): boolean {
  return context ? String(context[KEYS.verdict]) === 'unavailable' : false;
}

/** The access an authorizer context describes; undefined when it names no known verdict. */
export function decodeAccess(context: Readonly<Record<string, unknown>> | null | undefined): Access | undefined {
  if (!context) return undefined;
  const verdict = String(context[KEYS.verdict]);
  if (!(VERDICTS as readonly string[]).includes(verdict)) return undefined;
  const access: Access = { verdict: verdict as Verdict };
  const accountId = context[KEYS.accountId];
  if (typeof accountId === 'string' && accountId !== '') access.accountId = accountId;
  const plan = String(context[KEYS.plan]);
  if (isPlanId(plan)) access.plan = plan;
  const limits = decodeLimits(context);
  if (limits) access.limits = limits;
  const meter = access.plan && limits ? decodeMeter(context, access.verdict, access.plan, limits) : undefined;
  if (meter) access.meter = meter;
  return access;
}
