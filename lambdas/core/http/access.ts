import type { APIGatewayProxyEvent } from 'aws-lambda';
import { isPlanId, type PlanId } from '../domain/plans';
import { fromAuthorizerContext, type MeterState, toAuthorizerContext } from '../domain/quota';

/** What the authorizer decided about a request whose key header was present (401s never reach a function). */
export type Verdict = 'admitted' | 'api-key-in-url' | 'account-inactive' | 'rate-limit-exceeded' | 'quota-exceeded';
const VERDICTS: readonly Verdict[] = [
  'admitted',
  'api-key-in-url',
  'account-inactive',
  'rate-limit-exceeded',
  'quota-exceeded',
];

/** The account's own limits as far as the quota report needs them (plan defaults with overrides applied). */
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

const KEYS = {
  verdict: 'verdict',
  accountId: 'accountId',
  plan: 'plan',
  monthlyLimit: 'a_month_base',
  overflowPercent: 'a_overflow_pct',
  overflowAllowed: 'a_overflow',
  perMinute: 'a_per_minute',
} as const;

/** The authorizer's verdict as context: API Gateway hands every value to the function as a string. */
export function accessContext(access: Access): Record<string, string> {
  const context: Record<string, string> = { [KEYS.verdict]: access.verdict };
  if (access.accountId) context[KEYS.accountId] = access.accountId;
  if (access.plan) context[KEYS.plan] = access.plan;
  if (access.limits) {
    context[KEYS.monthlyLimit] = String(access.limits.monthlyLimit);
    context[KEYS.overflowPercent] = String(access.limits.overflowPercent);
    context[KEYS.overflowAllowed] = String(access.limits.overflowAllowed);
    context[KEYS.perMinute] = String(access.limits.perMinute);
  }
  return access.meter ? { ...context, ...toAuthorizerContext(access.meter) } : context;
}

const count = (value: string | undefined): number | undefined =>
  value !== undefined && /^\d{1,16}$/.test(value) && Number.isSafeInteger(Number(value)) ? Number(value) : undefined;

function readLimits(context: Record<string, string>): AccessLimits | undefined {
  const monthlyLimit = count(context[KEYS.monthlyLimit]);
  const overflowPercent = count(context[KEYS.overflowPercent]);
  const perMinute = count(context[KEYS.perMinute]);
  const overflow = context[KEYS.overflowAllowed];
  if (monthlyLimit === undefined || overflowPercent === undefined || perMinute === undefined) return undefined;
  if (overflow !== 'true' && overflow !== 'false') return undefined;
  return { monthlyLimit, overflowPercent, perMinute, overflowAllowed: overflow === 'true' };
}

const cache = new WeakMap<object, Access | undefined>();

/** Reads the verdict from the proxy event; undefined when the function was invoked without the authorizer. */
export function readAccess(event: Pick<APIGatewayProxyEvent, 'requestContext'>): Access | undefined {
  const raw = event.requestContext?.authorizer as Record<string, unknown> | null | undefined;
  if (!raw) return undefined;
  if (cache.has(raw)) return cache.get(raw);
  const context: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (value !== undefined && value !== null) context[key] = String(value);
  }
  const verdict = context[KEYS.verdict] as Verdict | undefined;
  let access: Access | undefined;
  if (verdict && VERDICTS.includes(verdict)) {
    const plan = context[KEYS.plan];
    const limits = readLimits(context);
    const meter = fromAuthorizerContext(context);
    access = {
      verdict,
      ...(context[KEYS.accountId] ? { accountId: context[KEYS.accountId] } : {}),
      ...(plan && isPlanId(plan) ? { plan } : {}),
      ...(limits ? { limits } : {}),
      ...(meter ? { meter } : {}),
    };
  }
  cache.set(raw, access);
  return access;
}
