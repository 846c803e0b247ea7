/**
 * The OpenAPI 3.1 document of the API, built from the code that serves it: the route registry, the parameter
 * readers' specs, the error catalog, the gateway responses and the rate-limit headers. A development tool: no
 * deployed function imports it. `npm run build:docs` writes it out; the local server serves it at /openapi.json.
 */
import { STATUS_CODES } from 'node:http';
import { KEY_QUERY_PARAMETERS } from '../lambdas/core/auth/authorizer';
import { ERROR_CATALOG, type ErrorCode } from '../lambdas/core/domain/errors';
import { PLANS } from '../lambdas/core/domain/plans';
import { effectiveLimit, quotaReport } from '../lambdas/core/domain/quota';
import { API_KEY_HEADER } from '../lambdas/core/http/headers';
import { rateLimitHeaders } from '../lambdas/core/http/metering-headers';
import { MAX_PARAMETER_LENGTH, ROUTE_PARAMETERS } from '../lambdas/core/http/parameters';
import {
  API_BASE_PATH,
  ERROR_CACHE_CONTROL,
  ROUTES,
  type RouteDefinition,
  type RouteId,
} from '../lambdas/core/http/routes';
import { version } from '../package.json';
import { ERROR_WHEN, type RouteError, routeErrors } from './route-errors';
import { componentSchemas, errorBodySchema, type JsonSchema, ref, successSchemaName } from './schemas';

const SAMPLE_AT = Date.parse('2026-09-30T12:00:19Z');
const SAMPLE_MONTH_USED = 900;

export type OpenApiDocument = {
  openapi: '3.1.0';
  info: {
    title: string;
    version: string;
    summary: string;
    description: string;
    license: { name: string; identifier: string };
  };
  servers: { url: string; description: string }[];
  security: Record<string, string[]>[];
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, OperationObject>>;
  components: {
    securitySchemes: Record<string, JsonSchema>;
    schemas: Record<string, JsonSchema>;
    headers: Record<string, HeaderObject>;
    responses: Record<string, ResponseObject>;
  };
  /** The error catalog: every code with its status, default message and when it is answered. */
  'x-error-catalog': { code: ErrorCode; status: number; message: string; when: string }[];
};

export type HeaderObject = { description: string; schema: JsonSchema; required?: boolean; example?: unknown };
export type ParameterObject = {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  description: string;
  schema: JsonSchema;
  example?: string;
};
export type ResponseObject = {
  description: string;
  headers?: Record<string, HeaderObject | { $ref: string }>;
  content?: { 'application/json': { schema: JsonSchema; example?: unknown; examples?: Record<string, unknown> } };
  /** An extension: the error codes this response can carry, for the reference page and the tests. */
  'x-error-codes'?: ErrorCode[];
};
export type OperationObject = {
  operationId: string;
  tags: string[];
  summary: string;
  description: string;
  parameters: ParameterObject[];
  responses: Record<string, ResponseObject>;
};

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
      rates: { CHF: 0.79861, EUR: 0.85411, GBP: 0.74268, JPY: 147.61, USD: 1 },
    },
  },
  pair: {
    tag: 'Rates',
    notes:
      '`amount` and `converted` appear only when `amount` is given. `converted` is `amount × rate` with the ' +
      'rate as shown, computed in decimal arithmetic and rounded half-even to 6 decimal places.',
    example: { base: 'USD', target: 'JPY', rate: 147.61, amount: 250, converted: 36902.5 },
  },
  history: {
    tag: 'Rates',
    notes:
      "The rate of that day's snapshot, with no fallback to an earlier day. Free: not included (403). Pro: " +
      'dates from one year before today (UTC, same month and day). Business: every day with data, the ECB ' +
      'history since 1999-01-04. Order of checks: a currency that is not supported (422) comes before the plan ' +
      '(403), which comes before the data (404).',
    example: { base: 'USD', target: 'CHF', date: '2026-04-13', rate: 0.81543 },
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
    },
  },
  quota: {
    tag: 'Account',
    notes:
      'The key identifies the account. The figures include this request. `meta.timestamp` is when the response ' +
      'was made.',
    example: quotaReport(PLANS.pro, SAMPLE_MONTH_USED, SAMPLE_AT),
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
        '`quota-exceeded`; 1 for the stage-wide throttle).',
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

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

function cacheControl(value: string, description: string): HeaderObject {
  return { description, schema: { type: 'string', const: value }, required: true };
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
  lines.push(
    route.cacheControl
      ? `- Success carries \`Cache-Control: ${route.cacheControl}\`.`
      : '- Success carries no `Cache-Control`.',
  );
  if (route.etag) lines.push('- Success carries an `ETag`; a matching `If-None-Match` gets 304 with no body.');
  return lines.join('\n');
}

function errorResponse(status: number, errors: readonly RouteError[]): ResponseObject {
  const codes = errors.map((e) => e.code);
  const description = [
    `${STATUS_CODES[status] ?? 'Error'}. \`error.code\` is one of:`,
    '',
    ...codes.map((code) => `- \`${code}\`: ${ERROR_WHEN[code]}`),
  ].join('\n');
  const headers: ResponseObject['headers'] = {
    'Cache-Control': cacheControl(ERROR_CACHE_CONTROL, 'Error responses are never cached.'),
    'X-Request-Id': headerRef('X-Request-Id'),
  };
  if (status === 429) headers['Retry-After'] = headerRef('Retry-After');
  // 401s never reach metering.
  if (status !== 401) Object.assign(headers, meteringHeaderRefs());
  const examples = Object.fromEntries(
    codes.map((code) => [code, { value: { success: false, error: { code, message: ERROR_CATALOG[code].message } } }]),
  );
  return {
    description,
    headers,
    content: { 'application/json': { schema: errorBodySchema(codes), examples } },
    'x-error-codes': codes,
  };
}

function responsesOf(route: RouteDefinition): Record<string, ResponseObject> {
  const successHeaders: NonNullable<ResponseObject['headers']> = {};
  if (route.cacheControl) successHeaders['Cache-Control'] = cacheControl(route.cacheControl, 'How long to cache.');
  if (route.etag) successHeaders.ETag = headerRef('ETag');
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
      content: { 'application/json': { schema: ref(successSchemaName(route.id)), example } },
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
  for (const [status, errors] of byStatus) responses[String(status)] = errorResponse(status, errors);
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
  `Every request is a \`GET\` below \`${API_BASE_PATH}\` and carries the \`${API_KEY_HEADER}\` header. Bodies are ` +
    'JSON (`application/json; charset=utf-8`): `{"success": true, "data": {…}}` on success, `{"success": false, ' +
    '"error": {"code", "message", "param"?}}` on failure. Every response carries `X-Request-Id`.',
  '',
  'Unknown query parameters are ignored; a parameter the endpoint reads given twice is `400 invalid-parameter`, ' +
    `and so is any value longer than ${MAX_PARAMETER_LENGTH} characters. An unknown path or method gets ` +
    '`404 not-found` in the same envelope.',
  '',
  'Order of checks: missing header (401), key in the URL (400), key validity (401), account status (403), ' +
    'limits (429), input (400, then 422), plan (403), data (404).',
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
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    paths,
    components: {
      securitySchemes: {
        [SECURITY_SCHEME]: { type: 'apiKey', in: 'header', name: API_KEY_HEADER, description: SECURITY_DESCRIPTION },
      },
      schemas: componentSchemas(ROUTES.map((route) => route.id)),
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
