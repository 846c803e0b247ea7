/**
 * The OpenAPI 3.1 document of the API, built from the code that serves it: the route registries (the public API's
 * here, the account dashboard's in openapi-dashboard.ts), the parameter readers' specs, the error catalog, the
 * gateway responses and the rate-limit headers. A development tool: no deployed function imports it. `npm run build:docs` writes it out; the
 * local server serves it at /openapi.json.
 */
import { KEY_QUERY_PARAMETERS } from '../lambdas/core/auth/authorizer';
import { ERROR_CATALOG, type ErrorCode } from '../lambdas/core/domain/errors';
import { PLANS } from '../lambdas/core/domain/plans';
import { effectiveLimit, quotaReport } from '../lambdas/core/domain/quota';
import { SOURCE_IDS } from '../lambdas/core/domain/rates';
import { SOURCE_SCHEDULES } from '../lambdas/core/domain/source-schedule';
import { DASHBOARD_BASE_PATH, DASHBOARD_ROUTES } from '../lambdas/core/http/dashboard-routes';
import { API_KEY_HEADER } from '../lambdas/core/http/headers';
import { rateLimitHeaders } from '../lambdas/core/http/metering-headers';
import { MAX_PARAMETER_LENGTH, MAX_TARGET_LIST_LENGTH, ROUTE_PARAMETERS } from '../lambdas/core/http/parameters';
import {
  API_BASE_PATH,
  ERROR_CACHE_CONTROL,
  ROUTES,
  type RouteDefinition,
  type RouteId,
  TIMESERIES_CACHE_CONTROL,
  UNSETTLED_CACHE_CONTROL,
} from '../lambdas/core/http/routes';
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
import { ERROR_WHEN, type RouteError, routeErrors } from './route-errors';
import {
  componentSchemas,
  errorBodySchema,
  ref,
  successSchemaName,
  TIMESERIES_CSV_EXAMPLE,
  TIMESERIES_CSV_SCHEMA,
} from './schemas';

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

const SAMPLE_AT = Date.parse('2026-09-30T12:00:19Z');
const SAMPLE_MONTH_USED = 900;

export const SECURITY_SCHEME = 'ApiKeyAuth';

const TAGS = {
  Rates: 'Latest, converted and historical exchange rates. Every rate derives from one EUR pivot per day.',
  Currencies: 'The supported currencies and their localized names.',
  Account: "The caller's plan and monthly quota.",
} as const;

/** What the reference adds to a route's registry entry. */
const OPERATIONS: Readonly<Record<RouteId, { tag: keyof typeof TAGS; notes: string; example: unknown }>> = {
  latest: {
    tag: 'Rates',
    notes:
      '`rates` holds every supported currency, the base included (at 1). Each rate is `eur[target] / eur[base]` ' +
      'of the latest snapshot, rounded to 8 significant digits.',
    example: {
      base: 'USD',
      updated_at: '2026-09-29T14:00:00Z',
      published_at: '2026-09-29T14:00:00Z',
      next_update_at: '2026-09-30T14:00:00Z',
      rates: { CHF: 0.79861, EUR: 0.85411, GBP: 0.74268, JPY: 147.61, USD: 1 },
    },
  },
  pair: {
    tag: 'Rates',
    notes:
      '`amount` and `converted` appear only when `amount` is given. `converted` is `amount × rate` with the ' +
      'rate as shown, computed in decimal arithmetic and rounded half-even to 6 decimal places.',
    example: {
      base: 'USD',
      target: 'JPY',
      rate: 147.61,
      amount: 250,
      converted: 36902.5,
      published_at: '2026-09-29T14:00:00Z',
    },
  },
  history: {
    tag: 'Rates',
    notes:
      "The rate of that day's snapshot, with no fallback to an earlier day unless `fallback=previous` is given. " +
      'Free: not included (403). Pro: ' +
      'dates from one year before today (UTC, same month and day). Business: every day with data, the ECB ' +
      'history since 1999-01-04. Order of checks: a currency that is not supported (422) comes before the plan ' +
      '(403), which comes before the data (404).\n\n' +
      '**Weekends and holidays.** The ECB publishes its reference rates on TARGET business days only, around ' +
      '16:00 CET: not on Saturdays, Sundays, 1 January, Good Friday, Easter Monday, 1 May, 25 and 26 December. ' +
      'currency-api publishes every day. So a weekend or holiday has no ECB row, and a currency only the ECB ' +
      'quotes that day has no rate: 404 `no-data-available`. With `fallback=previous` such a day answers with ' +
      'the nearest earlier day that has a rate for the pair, at most 7 days back: `date` stays the requested ' +
      'day and `effective_date` names the day served (equal to `date` when it has a rate). Nothing within 7 ' +
      'days is still 404. The plan judges the requested date, so a Pro request on the first day of its window ' +
      'may be served a day before it. The requested day is read first; only when it lacks the pair are the 7 ' +
      'days before it read, together (8 day reads at most, each cached, beside the cached latest snapshot the ' +
      'currency check reads).\n\n' +
      '**Caching.** An answer that fell back, for a day at most 7 days before today (UTC), can change when that ' +
      "day's rate arrives late, so it carries `Cache-Control: private, max-age=3600` instead of the immutable " +
      'policy; older answers are final.',
    example: {
      base: 'USD',
      target: 'CHF',
      date: '2026-04-13',
      rate: 0.81543,
      published_at: '2026-04-13T14:00:00Z',
    },
  },
  convert: {
    tag: 'Rates',
    notes:
      'One call, one counted request, for up to 50 targets, all from the same latest snapshot. Each `rate` is ' +
      "what the pair endpoint answers for `from`/target, and each `converted` is the pair endpoint's " +
      '`converted`: `amount × rate` with the rate as shown, in decimal arithmetic, rounded half-even to 6 decimal ' +
      'places. `amount` and `converted` appear only when `amount` is given. A target equal to `from` has rate 1. ' +
      'With several faults, a malformed item (400) comes before an unsupported one (422), and within each kind ' +
      'the first item in `to` is named.',
    example: {
      base: 'USD',
      amount: 250,
      published_at: '2026-09-29T14:00:00Z',
      conversions: [
        { target: 'EUR', rate: 0.85411, converted: 213.5275 },
        { target: 'JPY', rate: 147.61, converted: 36902.5 },
        { target: 'GBP', rate: 0.74268, converted: 185.67 },
      ],
    },
  },
  currencies: {
    tag: 'Currencies',
    notes: 'Names come from CLDR, e.g. `USD` is `US Dollar` in `en` and `US-Dollar` in `de`.',
    example: { currencies: { CHF: 'Swiss Franc', EUR: 'Euro', GBP: 'British Pound', JPY: 'Japanese Yen' } },
  },
  enriched: {
    tag: 'Rates',
    notes: 'Names follow `locale`; symbols are the CLDR narrow symbols of the `en` locale in every locale.',
    example: {
      base: 'EUR',
      target: 'GBP',
      rate: 0.86955,
      base_detail: { name: 'Euro', symbol: '€' },
      target_detail: { name: 'British Pound', symbol: '£' },
      published_at: '2026-09-29T14:00:00Z',
    },
  },
  timeseries: {
    tag: 'Rates',
    notes:
      'One entry per day from `start` to `end` on which both currencies have a rate (no rows are invented for ' +
      'weekends or holidays), ascending; each rate is exactly what history answers for that pair and day. ' +
      '`summary`: the first and last entries, `change` (`last − first`, exact) and `change_pct` (`change / first ' +
      '× 100`, rounded half-even to 4 places), and the lowest and highest rates with their days (on a tie, the ' +
      'earliest). At most 366 days, both ends included. Free: not included (403). Pro: the whole range within one ' +
      'year before today (UTC, same month and day), judged by `start`. Business: every day since 1999-01-04. ' +
      'Order of checks: malformed input (400) before an unsupported currency (422), then the plan (403), then the ' +
      'data (404, when no day of the range has a rate for the pair). `format=csv`, or `Accept: text/csv` without ' +
      '`format`, returns `text/csv` (`date,rate` rows after a header, CRLF line ends) as an attachment named ' +
      '`<FROM>-<TO>-<start>-<end>.csv`; both variants carry `Vary: Accept` and have different `ETag`s; errors ' +
      'are JSON either way. Cost: at most 6 reads of the rate store when nothing is cached (the latest snapshot ' +
      'for the currency check, the series marker, and one item per currency and calendar year), none once ' +
      'cached. On a deployment upgraded from a version without time series, the answer is 503 ' +
      '`service-unavailable` until the ingest function has built them from the stored days (its next run, or ' +
      'an invocation with `{"mode": "series"}`).',
    example: {
      base: 'USD',
      target: 'JPY',
      start: '2026-09-28',
      end: '2026-09-29',
      rates: [
        { date: '2026-09-28', rate: 150.21 },
        { date: '2026-09-29', rate: 149.87 },
      ],
      summary: {
        first: { date: '2026-09-28', rate: 150.21 },
        last: { date: '2026-09-29', rate: 149.87 },
        change: -0.34,
        change_pct: -0.2263,
        min: { date: '2026-09-29', rate: 149.87 },
        max: { date: '2026-09-28', rate: 150.21 },
      },
    },
  },
  quota: {
    tag: 'Account',
    notes:
      'The key identifies the account. The figures include this request. `meta.timestamp` is when the response ' +
      'was made.',
    example: quotaReport(PLANS.pro, SAMPLE_MONTH_USED, SAMPLE_AT),
  },
  sources: {
    tag: 'Rates',
    notes:
      'Each upstream source the deployment ingests from (its `sources` setting), in order of precedence: its schedule, its last successful fetch, the ' +
      'newest day it published with when, the currencies it provides that day, and whether the latest rates ' +
      'currently hold a quote from it. Ingestion records a source after every run it delivered in; a source that ' +
      'fails keeps the facts of its last success. The facts are read at most once a minute, so they can trail a ' +
      'run by up to 60 s. Any plan.',
    example: {
      sources: SOURCE_IDS.map((id) => ({
        id,
        name: SOURCE_SCHEDULES[id].name,
        schedule: SOURCE_SCHEDULES[id].schedule,
        origin: 'upstream',
        last_fetch_at: '2026-09-30T06:00:04Z',
        last_published_date: id === 'ecb' ? '2026-09-29' : '2026-09-30',
        last_published_at: id === 'ecb' ? '2026-09-29T14:00:00Z' : '2026-09-30T00:00:00Z',
        currencies: id === 'ecb' ? ['AUD', 'CHF', 'GBP', 'JPY', 'USD'] : ['AED', 'AUD', 'CHF', 'GBP', 'USD'],
        feeds_latest: true,
      })),
    },
  },
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

/** Answers of a route that carry a shorter Cache-Control than its registry entry's, and when. */
const SHORTER_CACHE_CONTROL: Partial<Record<RouteId, { value: string; when: string }>> = {
  history: {
    value: UNSETTLED_CACHE_CONTROL,
    when:
      'an answer that fell back (`fallback=previous`, `effective_date` before `date`) for a day at most 7 days ' +
      "before today (UTC): that day's rate may still arrive",
  },
  timeseries: {
    value: TIMESERIES_CACHE_CONTROL.recent,
    when: 'a range whose `end` is at most 7 days before today (UTC): those days can still gain currencies',
  },
};

/** The Cache-Control header of a route's success: its registry value, or either value where one is shorter. */
function successCacheControl(route: RouteDefinition & { cacheControl: string }): HeaderObject {
  const shorter = SHORTER_CACHE_CONTROL[route.id];
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
  const parameters: ParameterObject[] = Object.entries(ROUTE_PARAMETERS[route.id]).map(([name, spec]) => ({
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
  const lines = [OPERATIONS[route.id].notes, ''];
  lines.push(
    route.countsTowardMonth
      ? '- Counts toward the per-minute limit and the monthly quota, whatever its status.'
      : '- Counts toward the per-minute limit only, and is answered even when the month is used up.',
  );
  const shorter = SHORTER_CACHE_CONTROL[route.id];
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
  // 503: when the authorizer could not reach its store (lambdas/core/http/metering-headers.ts); other 503s lack it.
  if (status === 429 || status === 503) headers['Retry-After'] = headerRef('Retry-After');
  // 401s never reach metering.
  if (status !== 401) Object.assign(headers, meteringHeaderRefs());
  return headers;
}

function responsesOf(route: RouteDefinition): Record<string, ResponseObject> {
  const successHeaders: NonNullable<ResponseObject['headers']> = {};
  if (route.cacheControl)
    successHeaders['Cache-Control'] = successCacheControl({ ...route, cacheControl: route.cacheControl });
  if (route.etag) successHeaders.ETag = headerRef('ETag');
  if (route.id === 'timeseries') {
    successHeaders.Vary = {
      description: 'The body depends on `Accept` (CSV or JSON), on both variants.',
      schema: { type: 'string', const: 'Accept' },
      required: true,
    };
    successHeaders['Content-Disposition'] = {
      description: 'CSV only: `attachment; filename="<FROM>-<TO>-<start>-<end>.csv"`.',
      schema: { type: 'string' },
      required: false,
      example: 'attachment; filename="USD-JPY-2026-09-28-2026-09-29.csv"',
    };
  }
  successHeaders['X-Request-Id'] = headerRef('X-Request-Id');
  Object.assign(successHeaders, meteringHeaderRefs());

  const example =
    route.id === 'quota'
      ? { success: true, data: OPERATIONS[route.id].example, meta: { timestamp: '2026-09-30T12:00:19Z' } }
      : { success: true, data: OPERATIONS[route.id].example };
  const responses: Record<string, ResponseObject> = {
    '200': {
      description: 'OK.',
      headers: successHeaders,
      content: {
        'application/json': { schema: ref(successSchemaName(route.id)), example },
        ...(route.id === 'timeseries'
          ? { 'text/csv': { schema: TIMESERIES_CSV_SCHEMA, example: TIMESERIES_CSV_EXAMPLE } }
          : {}),
      },
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
    tags: [OPERATIONS[route.id].tag],
    summary: route.summary,
    description: operationDescription(route),
    parameters: parametersOf(route),
    responses: responsesOf(route),
  };
}

const INFO_DESCRIPTION = [
  'Latest and historical currency exchange rates (ECB history since 1999, currency-api for 150+ currencies), ' +
    'pair conversion, localized currency names, enriched pairs and quota reports, metered per account against ' +
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
