/**
 * Which (status, code) pairs each route, public or dashboard, can answer with, gathered from where they arise: the
 * authorizer and admission (or the claims check), each route's module, and the gateway responses.
 */
import { KEY_CREATION_LIMIT } from '../lambdas/core/dashboard/deps';
import { ERROR_CATALOG, type ErrorCode } from '../lambdas/core/domain/errors';
import {
  DASHBOARD_BASE_PATH,
  DASHBOARD_MAX_BODY_BYTES,
  type DashboardRouteDefinition,
  type DashboardRouteId,
  dashboardRouteById,
} from '../lambdas/core/http/dashboard-routes';
import {
  DASHBOARD_GATEWAY_RESPONSES,
  GATEWAY_RESPONSES,
  type GatewayResponseDefinition,
  type GatewayResponseType,
} from '../lambdas/core/http/gateway-responses';
import { API_KEY_HEADER } from '../lambdas/core/http/headers';
import type { RouteDefinition } from '../lambdas/core/http/routes';
import { KEY_NAME_MAX_LENGTH } from './schemas';
import { ROUTE_DOCS } from './schemas-public';

/** The contract's "when" of each code, for the reference. */
export const ERROR_WHEN: Readonly<Record<ErrorCode, string>> = {
  'invalid-amount':
    '`amount` is not a plain decimal (digits, optional `.` and fraction digits; no sign, exponent, separators or ' +
    'spaces), or not `0 < amount < 1000000000000`.',
  'invalid-date':
    '`date` (the time series: `start` or `end`, named in `param`) is not `YYYY-MM-DD`, not a real calendar day ' +
    '(`2023-02-30`), or after today (UTC).',
  'invalid-parameter':
    'Any other malformed input: a parameter given twice, a value longer than 64 characters (a `to` list of ' +
    'conversions: 512), a `fallback` other than `previous` or an `expand` other than `sources` (empty ' +
    'included), a time series without `start` or `end`, with `start` after `end` (`param`: `start`), over more ' +
    'than 366 days (`param`: `end`) or with a `format` other than `json` or `csv`, a conversion without `to` or ' +
    'with an empty item, a code listed twice or more than 50 items in it (the message names the item), a ' +
    'request too large to read, or one with more than 2,000 header fields ("The request has too many headers.").',
  'api-key-in-url':
    'A query parameter named `api_key`, `apikey`, `key`, `access_key` or `x-api-key` (any case) is present, even ' +
    `beside a valid header. Keys belong in the \`${API_KEY_HEADER}\` header only.`,
  'missing-api-key': `No \`${API_KEY_HEADER}\` header, or an empty one.`,
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
    'history since 1999-01-04); a time series on Pro must lie wholly in that year (`param`: `start`).',
  'request-blocked':
    'Deployed with the web firewall (the default on AWS): the source address is on the AWS IP reputation list, or ' +
    'the request matched the AWS common rule set (for example an oversized body or a script in a parameter). Too ' +
    'many requests with one key or from one address get 429 `rate-limit-exceeded` from the firewall instead.',
  'no-data-available':
    'A supported pair and a valid date, but no rate that day (a weekend, a holiday, a day before a currency had ' +
    'data); with `fallback=previous`, no rate that day nor on any of the 7 days before it; for a time series, ' +
    'no day of the range with a rate for the pair.',
  'not-found': 'An unknown path or method.',
  'unsupported-currency':
    'A currency code, in any position, that is not supported. Lower-case codes are accepted and upper-cased first. ' +
    'The message echoes the code as sent: letters, digits and marks of any script as they are, any other ' +
    'character (controls, bidi and zero-width characters) as `\\u{XXXX}`.',
  'unsupported-locale': '`locale` other than `en` or `de`.',
  'rate-limit-exceeded':
    "The account's per-minute limit is used up (the UTC calendar minute), or the stage-wide throttle refused the " +
    'request.',
  'quota-exceeded': "The account's monthly effective limit is used up (the UTC calendar month).",
  'internal-error': 'Anything unexpected; it is logged with the request id.',
  'service-unavailable':
    'No rate data has been ingested yet, or a dependency is down; retry later. When the rate store does not ' +
    'answer (it timed out, throttled or failed), `Retry-After: 5`; a store that is wired wrong (a missing table, a ' +
    'refused permission) is a 500 instead, since no retry cures it. On every route: the key could not be checked ' +
    'because the store did not answer in time (about 2 s at most); then `Retry-After: 5`, and the request is not ' +
    'counted. When the gateway times out waiting for the function, the status is 504.',
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

/** An endpoint that throws anything unexpected adds internal-error. */
function collectErrors(codes: readonly ErrorCode[], table: readonly GatewayResponseDefinition[]): RouteError[] {
  const found = new Map<string, RouteError>();
  const add = (status: number, code: ErrorCode) => found.set(`${status} ${code}`, { status, code });
  for (const code of [...codes, 'internal-error' as const]) add(ERROR_CATALOG[code].status, code);
  for (const definition of table) {
    if (!GATEWAY_TYPES.includes(definition.type) || definition.status === undefined) continue;
    add(definition.status, gatewayResponseCode(definition));
  }
  return [...found.values()].sort((a, b) => a.status - b.status || a.code.localeCompare(b.code));
}

/** Every (status, code) a route can answer with, by status then code, without duplicates. */
export function routeErrors(route: RouteDefinition): RouteError[] {
  const codes = accessErrors(route);
  const docs = ROUTE_DOCS[route.id];
  const parameters = Object.values(docs.parameters);
  // Too long, or (in the query) given twice.
  if (parameters.length > 0) codes.push('invalid-parameter');
  for (const parameter of parameters) codes.push(...parameter.doc.errors);
  codes.push(...docs.errors);
  return collectErrors(codes, GATEWAY_RESPONSES);
}

/** The Cognito authorizer's refusals (gateway responses), then the handler's reading of the claims. */
const DASHBOARD_ACCESS_ERRORS: readonly ErrorCode[] = ['unauthenticated', 'email-not-verified'];

/** What a dashboard endpoint refuses on its own (lambdas/core/dashboard/<id>.ts and errors.ts). */
const DASHBOARD_ENDPOINT_ERRORS: Readonly<Record<DashboardRouteId, readonly ErrorCode[]>> = {
  account: [],
  'keys-list': [],
  // The body and the name, the account's status, the plan's key limit, the creation limit.
  'keys-create': ['invalid-parameter', 'account-inactive', 'key-limit-reached', 'rate-limit-exceeded'],
  // A key id that is not one of the account's.
  'keys-revoke': ['not-found'],
  plans: [],
};

/** The codes a dashboard route's endpoint refuses with on its own, beyond every route's access errors. */
export const dashboardEndpointErrors = (route: DashboardRouteDefinition): readonly ErrorCode[] =>
  DASHBOARD_ENDPOINT_ERRORS[route.id];

/** Read from the first matching dashboard gateway response's template. */
export function dashboardGatewayError(
  status: number,
  code: ErrorCode,
): { code: ErrorCode; message: string; param?: string } | undefined {
  for (const definition of DASHBOARD_GATEWAY_RESPONSES) {
    if (!GATEWAY_TYPES.includes(definition.type) || definition.status !== status) continue;
    const { error } = JSON.parse(definition.template) as {
      error: { code: ErrorCode; message: string; param?: string };
    };
    if (error.code === code) return error;
  }
  return undefined;
}

/** Every (status, code) a dashboard route can answer with, by status then code, without duplicates. */
export function dashboardRouteErrors(route: DashboardRouteDefinition): RouteError[] {
  return collectErrors(
    [...DASHBOARD_ACCESS_ERRORS, ...DASHBOARD_ENDPOINT_ERRORS[route.id]],
    DASHBOARD_GATEWAY_RESPONSES,
  );
}

/** A window of the key-creation limit in words: `any 60 minutes`, `any 2 hours`. */
function creationWindowText(windowMs: number): string {
  const hour = 60 * 60 * 1000;
  if (windowMs % hour === 0 && windowMs > hour) return `any ${windowMs / hour} hours`;
  return `any ${Math.round(windowMs / 60_000)} minutes`;
}

/** The key-creation limit as the reference states it, from the limit the dashboard functions apply. */
export const KEY_CREATION_LIMIT_TEXT =
  `${KEY_CREATION_LIMIT.max} new keys per account in ` +
  `${creationWindowText(KEY_CREATION_LIMIT.windowMs)} (a rolling window; refused attempts do not count)`;

/** `POST /api/keys`, as the reference names a dashboard route in its descriptions. */
export const dashboardRouteName = (id: DashboardRouteId): string => {
  const route = dashboardRouteById(id);
  return `\`${route.method} ${DASHBOARD_BASE_PATH}${route.path}\``;
};

/** Where a code's meaning differs from the public API's (ERROR_WHEN); shown only by routes listing it. */
const DASHBOARD_ERROR_WHEN: Readonly<Partial<Record<ErrorCode, string>>> = {
  'invalid-parameter':
    `${dashboardRouteName('keys-create')} only: a body that is not JSON sent as \`application/json\`, or ` +
    `larger than ${DASHBOARD_MAX_BODY_BYTES} bytes (\`param\`: \`body\`); a \`name\` that is missing or not 1 to ` +
    `${KEY_NAME_MAX_LENGTH} printable ASCII characters once trimmed (\`param\`: \`name\`). On any route: a request ` +
    'too large to read, or one the firewall refused.',
  'account-inactive': 'Creating a key while the operator has suspended the account.',
  'rate-limit-exceeded':
    `${dashboardRouteName('keys-create')} only: more than ${KEY_CREATION_LIMIT_TEXT}; \`Retry-After\` says ` +
    'when the oldest creation in the window leaves it, so a retry then is admitted. On any route: the stage-wide throttle refused the request (`Retry-After: 1`).',
  'not-found':
    "A key id that is not one of the account's: another account's key is answered as an unknown one is, so ids " +
    'cannot be probed.',
  'service-unavailable':
    'A dependency is down (the authorizer, or the function could not be reached); retry later. When the gateway ' +
    'times out waiting for the function, the status is 504.',
};

/** The "when" of a code in the dashboard API's reference. */
export const dashboardErrorWhen = (code: ErrorCode): string => DASHBOARD_ERROR_WHEN[code] ?? ERROR_WHEN[code];
