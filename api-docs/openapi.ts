/**
 * The OpenAPI 3.1 document of the API, built from the code that serves it: the route registries (the public API's
 * here, the account dashboard's in openapi-dashboard.ts), each public route's module (its parameters, refusals,
 * schema and example, in its `docs()`), the error catalog, the gateway responses and the rate-limit headers. A development tool: no deployed function imports it. `npm run build:docs` writes it out; the
 * local server serves it at /openapi.json.
 */
import { KEY_QUERY_PARAMETERS } from '../lambdas/core/auth/authorizer';
import { ERROR_CATALOG, type ErrorCode } from '../lambdas/core/domain/errors';
import { PLANS } from '../lambdas/core/domain/plans';
import { effectiveLimit } from '../lambdas/core/domain/quota';
import { DASHBOARD_BASE_PATH, DASHBOARD_ROUTES } from '../lambdas/core/http/dashboard-routes';
import { API_KEY_HEADER } from '../lambdas/core/http/headers';
import { rateLimitHeaders } from '../lambdas/core/http/middleware';
import { MAX_PARAMETER_LENGTH, MAX_TARGET_LIST_LENGTH } from '../lambdas/core/http/parameters';
import { API_BASE_PATH, ERROR_CACHE_CONTROL, ROUTES, type RouteDefinition } from '../lambdas/core/http/routes';
import { version } from '../package.json';
import {
  DASHBOARD_SECURITY_DESCRIPTION,
  DASHBOARD_SECURITY_SCHEME,
  DASHBOARD_TAG,
  DASHBOARD_TAG_DESCRIPTION,
  dashboardOperationOf,
} from './openapi-dashboard';
import {
  cacheControl,
  errorResponse,
  type HeaderObject,
  headerRef,
  type OpenApiDocument,
  type OperationObject,
  type ParameterObject,
  type ResponseObject,
} from './openapi-objects';
import { type RouteTag, SAMPLE_AT, SAMPLE_MONTH_USED } from './route-docs';
import { ERROR_WHEN, type RouteError, routeErrors } from './route-errors';
import { componentSchemas, errorBodySchema, ref, successSchemaName } from './schemas';
import { ROUTE_DOCS } from './schemas-public';

export { DASHBOARD_SECURITY_SCHEME, DASHBOARD_TAG } from './openapi-dashboard';
export type {
  HeaderObject,
  OpenApiDocument,
  OperationObject,
  ParameterObject,
  RequestBodyObject,
  ResponseObject,
  ServerObject,
} from './openapi-objects';

export const SECURITY_SCHEME = 'ApiKeyAuth';

const TAGS: Readonly<Record<RouteTag, string>> = {
  Rates: 'Latest, converted and historical exchange rates. Every rate derives from one EUR pivot per day.',
  Currencies: 'The supported currencies and their localized names.',
  Account: "The caller's plan and monthly quota.",
};

/** The sample: a Pro account on its plan's limits, 19 s into a minute of September, 900 requests into the month. */
const SAMPLE_RATE_LIMITS = rateLimitHeaders({
  verdict: 'admitted',
  plan: PLANS.pro.name,
  minuteLimit: PLANS.pro.perMinute,
  minuteUsed: 1,
  monthLimit: effectiveLimit(PLANS.pro),
  monthUsed: SAMPLE_MONTH_USED,
  at: SAMPLE_AT,
});

const RATE_LIMIT_DESCRIPTIONS: Readonly<Record<string, string>> = {
  'X-RateLimit-Limit-Minute': "The account's per-minute limit (UTC calendar minute).",
  'X-RateLimit-Remaining-Minute': 'Requests left in the current minute.',
  'X-RateLimit-Limit-Month': "The account's effective monthly limit (base plus overflow).",
  'X-RateLimit-Remaining-Month': 'Requests left in the current UTC calendar month.',
  'RateLimit-Policy':
    'Both windows as structured fields (draft-ietf-httpapi-ratelimit-headers): `q` is the quota and `w` the ' +
    "window in seconds; the month's `w` is the length of the current calendar month.",
  RateLimit:
    'The policy with the fewest remaining requests (the month on a tie): `r` is what remains and `t` the seconds ' +
    'until that window resets.',
};

/** Headers of every metered response, with their component names. */
export const RATE_LIMIT_HEADERS = Object.keys(SAMPLE_RATE_LIMITS);

function headerComponents(): Record<string, HeaderObject> {
  const headers: Record<string, HeaderObject> = {
    'X-Request-Id': {
      description: "Identifies the request in the logs; on every response, the gateway's own included.",
      schema: { type: 'string' },
      example: '6f1c2d4e-1b7a-4c1e-9a51-3f0b8c2d7e90',
    },
    ETag: {
      description: 'Entity tag of the body; send it back in `If-None-Match` to get 304 while the data is unchanged.',
      schema: { type: 'string' },
      example: '"l3v1mY0kHn3p1q2TqU8cXl4bYzE"',
    },
    'Retry-After': {
      description:
        'On 429: seconds until the violated window resets, at least 1 (the minute, or the month for ' +
        '`quota-exceeded`; 1 for the stage-wide throttle). On 503 because the store did not answer in time: 5 ' +
        '(when the key could not be checked, the request was not counted).',
      schema: { type: 'integer', minimum: 1 },
      example: 41,
    },
  };
  for (const [name, example] of Object.entries(SAMPLE_RATE_LIMITS)) {
    const description = RATE_LIMIT_DESCRIPTIONS[name];
    if (!description) throw new Error(`the rate-limit header ${name} has no description`);
    const numeric = name.startsWith('X-RateLimit-');
    headers[name] = {
      description: `${description} On every response to a request that went through metering.`,
      schema: numeric ? { type: 'integer', minimum: 0 } : { type: 'string' },
      example: numeric ? Number(example) : example,
    };
  }
  return headers;
}

/** The Cache-Control header of a route's success: its registry value, or either value where one is shorter. */
function successCacheControl(route: RouteDefinition & { cacheControl: string }): HeaderObject {
  const shorter = ROUTE_DOCS[route.id].shorterCacheControl;
  if (!shorter) return cacheControl(route.cacheControl, 'How long to cache.');
  return {
    description: `How long to cache: \`${shorter.value}\` for ${shorter.when}; otherwise \`${route.cacheControl}\`.`,
    schema: { type: 'string', enum: [route.cacheControl, shorter.value] },
    required: true,
  };
}

function meteringHeaderRefs(): Record<string, { $ref: string }> {
  return Object.fromEntries(RATE_LIMIT_HEADERS.map((name) => [name, headerRef(name)]));
}

function parametersOf(route: RouteDefinition): ParameterObject[] {
  const parameters: ParameterObject[] = Object.entries(ROUTE_DOCS[route.id].parameters).map(([name, spec]) => ({
    name,
    in: spec.in,
    // Path parameters are always required; query ones when the reader has no value for their absence.
    required: spec.in === 'path' || !spec.absent,
    description: spec.doc.description,
    schema: { ...spec.doc.schema, ...(spec.doc.schema.enum ? { enum: [...spec.doc.schema.enum] } : {}) },
    example: spec.doc.example,
  }));
  if (route.etag) {
    parameters.push({
      name: 'If-None-Match',
      in: 'header',
      required: false,
      description: 'An `ETag` from an earlier response (or `*`): when it matches, the answer is 304 with no body.',
      schema: { type: 'string' },
    });
  }
  return parameters;
}

function operationDescription(route: RouteDefinition): string {
  const docs = ROUTE_DOCS[route.id];
  const lines = [docs.notes, ''];
  lines.push(
    route.countsTowardMonth
      ? '- Counts toward the per-minute limit and the monthly quota, whatever its status.'
      : '- Counts toward the per-minute limit only, and is answered even when the month is used up.',
  );
  const shorter = docs.shorterCacheControl;
  lines.push(
    route.cacheControl
      ? `- Success carries \`Cache-Control: ${route.cacheControl}\`${shorter ? ` (\`${shorter.value}\` for ${shorter.when})` : ''}.`
      : '- Success carries no `Cache-Control`.',
  );
  if (route.etag) lines.push('- Success carries an `ETag`; a matching `If-None-Match` gets 304 with no body.');
  return lines.join('\n');
}

/** The headers of a public route's error response. */
function errorHeaders(status: number): NonNullable<ResponseObject['headers']> {
  const headers: ResponseObject['headers'] = {
    'Cache-Control': cacheControl(ERROR_CACHE_CONTROL, 'Error responses are never cached.'),
    'X-Request-Id': headerRef('X-Request-Id'),
  };
  // 503: when the authorizer could not reach its store (lambdas/core/http/middleware.ts); other 503s lack it.
  if (status === 429 || status === 503) headers['Retry-After'] = headerRef('Retry-After');
  // 401s never reach metering.
  if (status !== 401) Object.assign(headers, meteringHeaderRefs());
  return headers;
}

function responsesOf(route: RouteDefinition): Record<string, ResponseObject> {
  const docs = ROUTE_DOCS[route.id];
  const successHeaders: NonNullable<ResponseObject['headers']> = {};
  if (route.cacheControl)
    successHeaders['Cache-Control'] = successCacheControl({ ...route, cacheControl: route.cacheControl });
  if (route.etag) successHeaders.ETag = headerRef('ETag');
  Object.assign(successHeaders, docs.successHeaders);
  successHeaders['X-Request-Id'] = headerRef('X-Request-Id');
  Object.assign(successHeaders, meteringHeaderRefs());

  const example = docs.meta
    ? { success: true, data: docs.example, meta: docs.meta.example }
    : { success: true, data: docs.example };
  const responses: Record<string, ResponseObject> = {
    '200': {
      description: 'OK.',
      headers: successHeaders,
      content: { 'application/json': { schema: ref(successSchemaName(route.id)), example }, ...docs.otherContent },
    },
  };
  if (route.etag) {
    responses['304'] = {
      description:
        'Not Modified: `If-None-Match` matched the current `ETag`. No body; the request still counts. Carries ' +
        'the headers of the 200 it stands for.',
      headers: { ...successHeaders },
    };
  }
  const byStatus = new Map<number, RouteError[]>();
  for (const error of routeErrors(route)) byStatus.set(error.status, [...(byStatus.get(error.status) ?? []), error]);
  for (const [status, errors] of byStatus) {
    responses[String(status)] = errorResponse(status, errors, { headers: errorHeaders(status) });
  }
  return responses;
}

function operationOf(route: RouteDefinition): OperationObject {
  return {
    operationId: route.id,
    tags: [ROUTE_DOCS[route.id].tag],
    summary: route.summary,
    description: operationDescription(route),
    parameters: parametersOf(route),
    responses: responsesOf(route),
  };
}

const INFO_DESCRIPTION = [
  'Latest and historical currency exchange rates (ECB history since 1999, the official rates of eleven other ' +
    'central banks and the IMF, currency-api for 150+ currencies; `/sources` names each publisher and the rule ' +
    'that picks one rate per currency), pair conversion, localized currency names, enriched pairs and quota reports, metered per account against ' +
    'the Free, Pro and Business plans.',
  '',
  'Beyond the specification, as optional and strictly additive extensions: time series with change figures ' +
    '(`/rates/timeseries`, JSON or CSV), a stated weekend and holiday policy (`fallback=previous` on history), ' +
    'provenance and freshness (`published_at` and `expand=sources` on latest, pair, history and enriched, ' +
    '`next_update_at` on latest, and `/sources`), and several conversions in one call (`/rates/convert`). Each is ' +
    'metered like every other request.',
  '',
  '**Weekends and holidays.** The ECB publishes its euro reference rates on TARGET business days only, around ' +
    '16:00 CET (not on Saturdays, Sundays, 1 January, Good Friday, Easter Monday, 1 May, 25 and 26 December); ' +
    'the other central banks publish on their own business days, so a TARGET holiday can still have their rates; ' +
    'currency-api publishes every day. A day without a rate for a pair is `404 no-data-available`, as specified, ' +
    'unless history is asked for `fallback=previous`: then the nearest earlier day with a rate, at most 7 days ' +
    'back, is served and named in `effective_date`.',
  '',
  `Every request is a \`GET\` below \`${API_BASE_PATH}\` and carries the \`${API_KEY_HEADER}\` header. Bodies are ` +
    'JSON (`application/json; charset=utf-8`): `{"success": true, "data": {…}}` on success, `{"success": false, ' +
    '"error": {"code", "message", "param"?}}` on failure; the one exception is a time series asked for as CSV ' +
    '(`text/csv`), whose errors are still JSON. Every response carries `X-Request-Id`.',
  '',
  'Unknown query parameters are ignored; a parameter the endpoint reads given twice is `400 invalid-parameter`, ' +
    `and so is any value longer than ${MAX_PARAMETER_LENGTH} characters (${MAX_TARGET_LIST_LENGTH} for the ` +
    'list `to` of `/rates/convert`). An unknown path or method gets `404 not-found` in the same envelope.',
  '',
  'Order of checks: missing header (401), key in the URL (400), key validity (401), account status (403), ' +
    'limits (429), input (400, then 422), plan (403), data (404).',
  '',
  `The account dashboard's own JSON API, below \`${DASHBOARD_BASE_PATH}\` on the dashboard's origin and called ` +
    `with a person's Cognito ID token, is documented too, under the tag "${DASHBOARD_TAG}"; what this overview says is ` +
    'about the public API.',
].join('\n');

const SECURITY_DESCRIPTION = [
  `Every request carries its key in the \`${API_KEY_HEADER}\` header. The key identifies the account, hence its ` +
    'plan and quota; limits apply to the account, all its keys together.',
  '',
  '- No header, or an empty one: `401 missing-api-key`.',
  '- An unknown, revoked or malformed key: `401 invalid-api-key` (a revoked key is refused within 60 s).',
  `- A key in the URL (query parameter ${KEY_QUERY_PARAMETERS.map((name) => `\`${name}\``).join(', ')}, any ` +
    'case): `400 api-key-in-url`, even beside a valid header. Keys must not live in URLs or browser code.',
].join('\n');

/** The OpenAPI 3.1 document of the API, as the code serves it. */
export function buildOpenApiDocument(): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  for (const route of ROUTES) {
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: operationOf(route) };
  }
  // Path keys are relative to each operation's server: a dashboard path beside a public one of the same name
  // would merge two APIs' operations into one path item.
  const publicPaths = new Set(Object.keys(paths));
  for (const route of DASHBOARD_ROUTES) {
    if (publicPaths.has(route.path)) throw new Error(`the dashboard path ${route.path} is also a public path`);
    paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: dashboardOperationOf(route) };
  }
  const notFound = ERROR_CATALOG['not-found'];
  return {
    openapi: '3.1.0',
    info: {
      title: 'fxrates API',
      version,
      summary: 'Currency exchange rates: latest, historical, pair conversion, currency names and quota.',
      description: INFO_DESCRIPTION,
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [
      {
        url: API_BASE_PATH,
        description:
          'Relative to the host: http://127.0.0.1:3000 under `npm start`; on AWS, the stage URL (stack output ' +
          '`ApiUrl`).',
      },
    ],
    security: [{ [SECURITY_SCHEME]: [] }],
    tags: [
      ...Object.entries(TAGS).map(([name, description]) => ({ name, description })),
      { name: DASHBOARD_TAG, description: DASHBOARD_TAG_DESCRIPTION },
    ],
    paths,
    components: {
      securitySchemes: {
        [SECURITY_SCHEME]: { type: 'apiKey', in: 'header', name: API_KEY_HEADER, description: SECURITY_DESCRIPTION },
        [DASHBOARD_SECURITY_SCHEME]: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: DASHBOARD_SECURITY_DESCRIPTION,
        },
      },
      schemas: componentSchemas(
        ROUTES.map((route) => route.id),
        DASHBOARD_ROUTES.map((route) => route.id),
      ),
      headers: headerComponents(),
      responses: {
        NotFound: {
          description: `Any unknown path or method, with or without a key: \`${notFound.status} not-found\`.`,
          headers: {
            'Cache-Control': cacheControl(ERROR_CACHE_CONTROL, 'Error responses are never cached.'),
            'X-Request-Id': headerRef('X-Request-Id'),
          },
          content: {
            'application/json': {
              schema: errorBodySchema(['not-found']),
              example: { success: false, error: { code: 'not-found', message: notFound.message } },
            },
          },
          'x-error-codes': ['not-found'],
        },
      },
    },
    'x-error-catalog': Object.entries(ERROR_CATALOG).map(([code, entry]) => ({
      code: code as ErrorCode,
      status: entry.status,
      message: entry.message,
      when: ERROR_WHEN[code as ErrorCode],
    })),
  };
}
