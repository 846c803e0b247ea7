import { createHash } from 'node:crypto';
import type middy from '@middy/core';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { ApiError } from '../domain/errors';
import {
  type MeterState,
  monthLengthSeconds,
  retryAfterSeconds,
  secondsUntilMinuteReset,
  secondsUntilMonthReset,
} from '../domain/quota';
import { logger } from '../observability';
import { type Access, decodeAccess } from './authorizer-context';
import { API_KEY_HEADER, headerValue } from './headers';
import { errorResponse, type HttpResponse, internalErrorResponse } from './responses';
import { ERROR_CACHE_CONTROL, type RouteDefinition } from './routes';

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

export type ApiRequest = middy.Request<APIGatewayProxyEvent, HttpResponse, Error, Context>;
type Middleware = middy.MiddlewareObj<APIGatewayProxyEvent, HttpResponse, Error, Context>;

function requestIdOf(event: APIGatewayProxyEvent): string {
  return event.requestContext?.requestId ?? 'unknown';
}

/** Reads the authorizer's verdict once per request and keeps it where the other middlewares look. */
const accessByRequest = new WeakMap<object, Access>();

/** The verdict in the proxy event; undefined when the function was invoked without the authorizer. */
function readAccess(event: APIGatewayProxyEvent): Access | undefined {
  return decodeAccess(event.requestContext?.authorizer as Record<string, unknown> | null | undefined);
}

/**
 * First `before`: renders the authorizer's refusals (400 key in URL, 403 inactive, 429 limits, 503 store
 * unavailable) before any input is looked at, in the documented order of checks. A request that reached a function
 * without a verdict it knows is a wiring fault, so it fails closed (500, still before any work).
 *
 * `unavailable` is an Allow for a key the authorizer could not check (its store failed), because API Gateway
 * answers a Deny with 401 and a thrown error with 500; the Allow lets this function answer 503 with Retry-After.
 * It grants nothing: this check runs first on every route and refuses it, the Allow names only the method called,
 * and the authorizer's results are never cached (resultsCacheTtl 0, lib/api.ts).
 */
export function admission(): Middleware {
  return {
    before: (request) => {
      const access = readAccess(request.event);
      if (!access) throw new Error('request reached the function without an authorizer verdict');
      accessByRequest.set(request.event, access);
      const refusal = verdictError(access);
      if (refusal) throw refusal;
    },
  };
}

/** Converts any error into the error envelope of the API reference; unexpected ones become 500 internal-error and are logged. */
export function errorEnvelope(): Middleware {
  return {
    onError: (request) => {
      const error = request.error;
      if (error instanceof ApiError) {
        request.response = errorResponse(error);
        return;
      }
      logger.error('unhandled error', { requestId: requestIdOf(request.event), error: error as Error });
      request.response = internalErrorResponse();
    },
  };
}

function etagOf(body: string): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}

function matchesIfNoneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const bare = etag.replace(/^W\//, '');
  return header.split(',').some((candidate) => candidate.trim().replace(/^W\//, '') === bare);
}

/** ETag on successful rate responses, and 304 with no body for a matching If-None-Match. */
export function conditionalGet(route: RouteDefinition): Middleware {
  // A warm function answers the same body again and again (the day's rates change once a day): comparing it with
  // the last one costs far less than hashing it.
  let last: { body: string; etag: string } | undefined;
  return {
    after: (request) => {
      const response = request.response;
      if (!route.etag || !response || response.statusCode !== 200) return;
      let given = response.headers.ETag;
      if (given === undefined) {
        if (last?.body !== response.body) last = { body: response.body, etag: etagOf(response.body) };
        given = last.etag;
      }
      const etag = String(given);
      response.headers.ETag = etag;
      if (matchesIfNoneMatch(headerValue(request.event.headers, 'If-None-Match'), etag)) {
        request.response = { statusCode: 304, headers: { ...response.headers }, body: '' };
        delete request.response.headers['Content-Type'];
      }
    },
  };
}

/** Last `after`/`onError`: headers every function response carries, whatever its status. */
export function finalizeResponse(route: RouteDefinition): Middleware {
  const finish = (request: ApiRequest) => {
    const response = request.response ?? internalErrorResponse();
    const isError = response.statusCode >= 400;
    response.headers['X-Request-Id'] = requestIdOf(request.event);
    // An endpoint may shorten its route's policy for one answer (history's recent fallbacks, which can change).
    response.headers['Cache-Control'] = isError
      ? ERROR_CACHE_CONTROL
      : (response.headers['Cache-Control'] ?? route.cacheControl ?? '');
    if (response.headers['Cache-Control'] === '') delete response.headers['Cache-Control'];
    const access = accessByRequest.get(request.event);
    if (access) {
      Object.assign(response.headers, meteringHeaders(access));
      if (isError) Object.assign(response.headers, refusalHeaders(access));
    }
    request.response = response;
  };
  return { after: finish, onError: finish };
}

/** The verdict of the current request, for handlers that render it (the quota report). */
export function accessOf(event: APIGatewayProxyEvent): Access {
  const access = accessByRequest.get(event) ?? readAccess(event);
  if (!access) throw new Error('request reached the function without an authorizer verdict');
  return access;
}
