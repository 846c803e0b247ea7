import { ApiError } from '../domain/errors';
import {
  type MeterState,
  monthLengthSeconds,
  retryAfterSeconds,
  secondsUntilMinuteReset,
  secondsUntilMonthReset,
} from '../domain/quota';
import type { Access } from './authorizer-context';
import { API_KEY_HEADER } from './headers';

/**
 * `Retry-After` of a 503 for a store that could not be reached: long enough that retries do not pile onto the same
 * brownout (DynamoDB's throttling and partition recovery take seconds), short enough not to hold clients back.
 */
export const STORE_UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/** The refusal a verdict stands for, or undefined when the request was admitted. */
export function verdictError(access: Access): ApiError | undefined {
  switch (access.verdict) {
    case 'admitted':
      return undefined;
    case 'unavailable':
      return new ApiError('service-unavailable');
    case 'api-key-in-url':
      return new ApiError('api-key-in-url', undefined, API_KEY_HEADER);
    case 'account-inactive':
      return new ApiError('account-inactive');
    case 'rate-limit-exceeded':
      return new ApiError('rate-limit-exceeded');
    case 'quota-exceeded':
      return new ApiError('quota-exceeded');
  }
}

interface Policy {
  name: 'minute' | 'month';
  remaining: number;
  resetSeconds: number;
}

function policies(state: MeterState): [Policy, Policy] {
  return [
    {
      name: 'minute',
      remaining: Math.max(0, state.minuteLimit - state.minuteUsed),
      resetSeconds: secondsUntilMinuteReset(state.at),
    },
    {
      name: 'month',
      remaining: Math.max(0, state.monthLimit - state.monthUsed),
      resetSeconds: secondsUntilMonthReset(state.at),
    },
  ];
}

/**
 * The six rate-limit headers of the API reference. `RateLimit` names the policy with the fewest remaining requests;
 * on a tie it names the month, because when both run out together only the month's reset restores service.
 */
export function rateLimitHeaders(state: MeterState): Record<string, string> {
  const [minute, month] = policies(state);
  const binding = minute.remaining < month.remaining ? minute : month;
  return {
    'X-RateLimit-Limit-Minute': String(state.minuteLimit),
    'X-RateLimit-Remaining-Minute': String(minute.remaining),
    'X-RateLimit-Limit-Month': String(state.monthLimit),
    'X-RateLimit-Remaining-Month': String(month.remaining),
    'RateLimit-Policy': `"minute";q=${state.minuteLimit};w=60, "month";q=${state.monthLimit};w=${monthLengthSeconds(state.at)}`,
    RateLimit: `"${binding.name}";r=${binding.remaining};t=${binding.resetSeconds}`,
  };
}

/** The documented rate-limit headers, on every response to a valid key that went through metering. */
export function meteringHeaders(access: Access): Record<string, string> {
  return access.meter ? rateLimitHeaders(access.meter) : {};
}

/** `Retry-After` on a 429, until the violated window resets; on the 503 of a store that could not be reached. */
export function refusalHeaders(access: Access): Record<string, string> {
  if (access.verdict === 'unavailable') return { 'Retry-After': String(STORE_UNAVAILABLE_RETRY_AFTER_SECONDS) };
  const seconds = access.meter ? retryAfterSeconds(access.meter) : undefined;
  return seconds === undefined ? {} : { 'Retry-After': String(seconds) };
}
