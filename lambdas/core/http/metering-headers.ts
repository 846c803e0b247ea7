import { ApiError } from '../domain/errors';
import { rateLimitHeaders, retryAfterSeconds } from '../domain/quota';
import type { Access } from './access';

/** The refusal a verdict stands for, or undefined when the request was admitted. */
export function verdictError(access: Access): ApiError | undefined {
  switch (access.verdict) {
    case 'admitted':
      return undefined;
    case 'api-key-in-url':
      return new ApiError('api-key-in-url', undefined, 'X-API-Key');
    case 'account-inactive':
      return new ApiError('account-inactive');
    case 'rate-limit-exceeded':
      return new ApiError('rate-limit-exceeded');
    case 'quota-exceeded':
      return new ApiError('quota-exceeded');
  }
}

/** The contract's rate-limit headers, on every response to a valid key that went through metering. */
export function meteringHeaders(access: Access): Record<string, string> {
  return access.meter ? rateLimitHeaders(access.meter) : {};
}

/** `Retry-After` on a 429, until the violated window resets. */
export function refusalHeaders(access: Access): Record<string, string> {
  const seconds = access.meter ? retryAfterSeconds(access.meter) : undefined;
  return seconds === undefined ? {} : { 'Retry-After': String(seconds) };
}
