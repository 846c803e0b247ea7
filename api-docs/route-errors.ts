/**
 * Which (status, code) pairs each route can answer with, gathered from where they arise: the authorizer and the
 * admission check (every route), the parameter readers (lambdas/core/http/parameters.ts), what a route's endpoint
 * adds on its own, and the responses the gateway renders itself (lambdas/core/http/gateway-responses.ts).
 */
import { ERROR_CATALOG, type ErrorCode } from '../lambdas/core/domain/errors';
import {
  GATEWAY_RESPONSES,
  type GatewayResponseDefinition,
  type GatewayResponseType,
} from '../lambdas/core/http/gateway-responses';
import { ROUTE_PARAMETERS } from '../lambdas/core/http/parameters';
import type { RouteDefinition, RouteId } from '../lambdas/core/http/routes';

/** The contract's "when" of each code, for the reference. */
export const ERROR_WHEN: Readonly<Record<ErrorCode, string>> = {
  'invalid-amount':
    '`amount` is not a plain decimal (digits, optional `.` and fraction digits; no sign, exponent, separators or ' +
    'spaces), or not `0 < amount < 1000000000000`.',
  'invalid-date': '`date` is not `YYYY-MM-DD`, not a real calendar day (`2023-02-30`), or after today (UTC).',
  'invalid-parameter':
    'Any other malformed input: a parameter given twice, a value longer than 64 characters, or a request too ' +
    'large to read.',
  'api-key-in-url':
    'A query parameter named `api_key`, `apikey`, `key`, `access_key` or `x-api-key` (any case) is present, even ' +
    'beside a valid header. Keys belong in the `X-API-Key` header only.',
  'missing-api-key': 'No `X-API-Key` header, or an empty one.',
  unauthenticated:
    'Dashboard API only: no `Authorization` header, or an ID token that is expired, forged, or issued for another ' +
    'user pool or app client.',
  'invalid-api-key': 'An unknown, revoked or malformed key.',
  'account-inactive': "The key's account is suspended.",
  'email-not-verified': "Dashboard API only: the ID token's e-mail address is not verified.",
  'key-limit-reached':
    'Dashboard API only: creating a key while the account holds the most active keys its plan allows (Free: 1).',
  'plan-upgrade-required':
    'Historical rates on the Free plan, or a date older than one year on the Pro plan (Business has the full ' +
    'history since 1999-01-04).',
  'no-data-available':
    'A supported pair and a valid date, but no rate that day (a weekend, a holiday, a day before a currency had ' +
    'data).',
  'not-found': 'An unknown path or method.',
  'unsupported-currency':
    'A currency code, in any position, that is not supported. Lower-case codes are accepted and upper-cased first.',
  'unsupported-locale': '`locale` other than `en` or `de`.',
  'rate-limit-exceeded':
    "The account's per-minute limit is used up (the UTC calendar minute), or the stage-wide throttle refused the " +
    'request.',
  'quota-exceeded': "The account's monthly effective limit is used up (the UTC calendar month).",
  'internal-error': 'Anything unexpected; it is logged with the request id.',
  'service-unavailable':
    'No rate data has been ingested yet, or a dependency is down; retry later. When the gateway times out waiting ' +
    'for the function, the status is 504.',
};

/** Refusals of the authorizer and the admission check, before any input is read: every route. */
function accessErrors(route: RouteDefinition): ErrorCode[] {
  const codes: ErrorCode[] = [
    'missing-api-key',
    'api-key-in-url',
    'invalid-api-key',
    'account-inactive',
    'rate-limit-exceeded',
  ];
  // A route that does not count toward the month is answered even when the month is used up.
  return route.countsTowardMonth ? [...codes, 'quota-exceeded'] : codes;
}

/** What an endpoint refuses on its own, after its parameters are read. */
const ENDPOINT_ERRORS: Readonly<Record<RouteId, readonly ErrorCode[]>> = {
  latest: ['service-unavailable'],
  pair: ['service-unavailable'],
  history: ['plan-upgrade-required', 'no-data-available', 'service-unavailable'],
  currencies: ['service-unavailable'],
  enriched: ['service-unavailable'],
  // Rendered from the authorizer's figures alone: no store read that could fail.
  quota: [],
};

/**
 * Gateway responses a request to a known route can get. Left out: ACCESS_DENIED (it carries the authorizer's
 * 401 codes, listed with the access errors), the not-found rows (unknown paths and methods only), QUOTA_EXCEEDED
 * (API Gateway usage plans, which this API does not use), BAD_REQUEST_BODY (no request validator is configured)
 * and the DEFAULT rows, whose status is whatever API Gateway chose.
 */
const GATEWAY_TYPES: readonly GatewayResponseType[] = [
  'UNAUTHORIZED',
  'BAD_REQUEST_PARAMETERS',
  'REQUEST_TOO_LARGE',
  'WAF_FILTERED',
  'THROTTLED',
  'AUTHORIZER_FAILURE',
  'AUTHORIZER_CONFIGURATION_ERROR',
  'INTEGRATION_FAILURE',
  'INTEGRATION_TIMEOUT',
  'API_CONFIGURATION_ERROR',
];

/** The code of a gateway response, read from its body template. */
export function gatewayResponseCode(definition: GatewayResponseDefinition): ErrorCode {
  const body = JSON.parse(definition.template) as { error: { code: ErrorCode } };
  return body.error.code;
}

export interface RouteError {
  status: number;
  code: ErrorCode;
}

/** Every (status, code) a route can answer with, by status then code, without duplicates. */
export function routeErrors(route: RouteDefinition): RouteError[] {
  const found = new Map<string, RouteError>();
  const add = (status: number, code: ErrorCode) => found.set(`${status} ${code}`, { status, code });
  const fromCatalog = (code: ErrorCode) => add(ERROR_CATALOG[code].status, code);

  accessErrors(route).forEach(fromCatalog);
  const parameters = Object.values(ROUTE_PARAMETERS[route.id]);
  // Too long, or (in the query) given twice.
  if (parameters.length > 0) fromCatalog('invalid-parameter');
  for (const parameter of parameters) parameter.doc.errors.forEach(fromCatalog);
  ENDPOINT_ERRORS[route.id].forEach(fromCatalog);
  // An endpoint that throws anything unexpected.
  fromCatalog('internal-error');
  for (const definition of GATEWAY_RESPONSES) {
    if (!GATEWAY_TYPES.includes(definition.type) || definition.status === undefined) continue;
    add(definition.status, gatewayResponseCode(definition));
  }
  return [...found.values()].sort((a, b) => a.status - b.status || a.code.localeCompare(b.code));
}
