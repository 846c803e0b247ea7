/**
 * JSON Schemas (2020-12, the OpenAPI 3.1 dialect) of every response body: each route's `data`, the envelopes and
 * the error. Objects are closed (`additionalProperties: false`), so a field an endpoint adds without documenting
 * it fails the HTTP test that validates real responses against the document.
 */
import { ERROR_CATALOG, type ErrorCode } from '../lambdas/core/domain/errors';
import { PLANS } from '../lambdas/core/domain/plans';
import type { QuotaReport } from '../lambdas/core/domain/quota';
import type { RouteId } from '../lambdas/core/http/routes';

export type JsonSchema = { [keyword: string]: unknown };

/** A `$ref` to a schema of the document's components. */
export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/**
 * A closed object schema. With a type argument, every field of that type must be described, and `required` can
 * only name its fields, so the schema of a shared type follows the type.
 */
function object<T = Record<string, unknown>>(
  properties: { [K in keyof Required<T>]: JsonSchema },
  required: readonly (keyof T & string)[],
  extra: JsonSchema = {},
): JsonSchema {
  return { type: 'object', properties, required, additionalProperties: false, ...extra };
}

const CODE_PATTERN = '^[A-Z]{3}$';
const TIMESTAMP_PATTERN = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z$';

const code = (description: string, example: string): JsonSchema => ({
  ...ref('CurrencyCode'),
  description,
  examples: [example],
});

/** Shared building blocks, by component name. */
const BASICS: Record<string, JsonSchema> = {
  CurrencyCode: {
    type: 'string',
    pattern: CODE_PATTERN,
    description: 'ISO 4217 currency code, upper case.',
    examples: ['USD'],
  },
  Rate: {
    type: 'number',
    exclusiveMinimum: 0,
    description: 'Exchange rate from the base to the target, rounded to 8 significant digits.',
    examples: [0.86187291],
  },
  Timestamp: {
    type: 'string',
    format: 'date-time',
    pattern: TIMESTAMP_PATTERN,
    description: 'ISO 8601 UTC timestamp, `YYYY-MM-DDTHH:MM:SSZ`.',
    examples: ['2026-09-29T14:00:00Z'],
  },
  CurrencyDetail: object<{ name: string; symbol: string }>(
    {
      name: { type: 'string', description: 'Name of the currency (CLDR) in the requested locale.', examples: ['Euro'] },
      symbol: {
        type: 'string',
        description: 'CLDR narrow symbol in the `en` locale, the same in every locale.',
        examples: ['€'],
      },
    },
    ['name', 'symbol'],
  ),
};

type QuotaFigures = QuotaReport['quota'];

/** The `data` of each route's successful response. */
const DATA: Record<RouteId, { name: string; schema: JsonSchema }> = {
  latest: {
    name: 'RateTable',
    schema: object(
      {
        base: code('The base currency.', 'USD'),
        updated_at: {
          ...ref('Timestamp'),
          description:
            'When the newest contributing source published the data: an ECB day at 16:00 Europe/Berlin, a ' +
            'currency-api day at 00:00 UTC.',
        },
        rates: {
          type: 'object',
          description: 'Every supported currency (the base included, at 1) to its rate against the base.',
          propertyNames: { pattern: CODE_PATTERN },
          additionalProperties: ref('Rate'),
          minProperties: 1,
          examples: [{ EUR: 0.86187291, GBP: 0.74561, JPY: 147.52, USD: 1 }],
        },
      },
      ['base', 'updated_at', 'rates'],
    ),
  },
  pair: {
    name: 'PairRate',
    schema: object(
      {
        base: code('The `from` currency.', 'USD'),
        target: code('The `to` currency.', 'JPY'),
        rate: ref('Rate'),
        amount: {
          type: 'number',
          exclusiveMinimum: 0,
          exclusiveMaximum: 1_000_000_000_000,
          description: 'The requested amount, echoed digit for digit; only when `amount` was given.',
          examples: [250],
        },
        converted: {
          type: 'number',
          minimum: 0,
          description:
            '`amount × rate` with the rate as shown, in decimal arithmetic, rounded half-even to 6 decimal ' +
            'places; only when `amount` was given.',
          examples: [36880],
        },
      },
      ['base', 'target', 'rate'],
      { dependentRequired: { amount: ['converted'], converted: ['amount'] } },
    ),
  },
  history: {
    name: 'HistoricalRate',
    schema: object(
      {
        base: code('The `from` currency.', 'USD'),
        target: code('The `to` currency.', 'CHF'),
        date: { type: 'string', format: 'date', description: 'The requested day.', examples: ['2026-04-13'] },
        rate: { ...ref('Rate'), description: "The rate of that day's snapshot; never an earlier day's." },
      },
      ['base', 'target', 'date', 'rate'],
    ),
  },
  currencies: {
    name: 'CurrencyList',
    schema: object(
      {
        currencies: {
          type: 'object',
          description: 'Every supported currency code to its name in the requested locale, sorted by code.',
          propertyNames: { pattern: CODE_PATTERN },
          additionalProperties: { type: 'string' },
          minProperties: 1,
          examples: [{ CHF: 'Swiss Franc', EUR: 'Euro', USD: 'US Dollar' }],
        },
      },
      ['currencies'],
    ),
  },
  enriched: {
    name: 'EnrichedPair',
    schema: object(
      {
        base: code('The `from` currency.', 'EUR'),
        target: code('The `to` currency.', 'GBP'),
        rate: ref('Rate'),
        base_detail: ref('CurrencyDetail'),
        target_detail: ref('CurrencyDetail'),
      },
      ['base', 'target', 'rate', 'base_detail', 'target_detail'],
    ),
  },
  quota: {
    name: 'QuotaReport',
    schema: object<QuotaReport>(
      {
        plan: {
          type: 'string',
          enum: Object.values(PLANS).map((plan) => plan.name),
          description: "The account's plan.",
        },
        quota: object<QuotaFigures>(
          {
            base_limit: { type: 'integer', minimum: 0, description: 'Monthly request limit of the plan.' },
            effective_limit: {
              type: 'integer',
              minimum: 0,
              description: '`base_limit + floor(base_limit × overflow_percent / 100)`: the limit in force.',
            },
            used: { type: 'integer', minimum: 0, description: 'Requests counted this month (UTC).' },
            remaining: { type: 'integer', minimum: 0, description: '`max(0, effective_limit − used)`.' },
            overflow_allowed: { type: 'boolean', description: 'Whether use above `base_limit` is permitted.' },
            overflow_percent: {
              type: 'integer',
              minimum: 0,
              maximum: 100,
              description: 'Allowed overflow above `base_limit`, in percent; 0 when overflow is not allowed.',
            },
          },
          ['base_limit', 'effective_limit', 'used', 'remaining', 'overflow_allowed', 'overflow_percent'],
        ),
        resets_at: {
          ...ref('Timestamp'),
          description: 'When the month resets: the first day of the next month, 00:00:00Z.',
        },
      },
      ['plan', 'quota', 'resets_at'],
    ),
  },
};

/** Component name of the successful response body of a route. */
export const successSchemaName = (route: RouteId): string => `${DATA[route].name}Response`;

/** Routes whose envelope adds a top-level `meta` with the response's timestamp. */
const WITH_META: ReadonlySet<RouteId> = new Set(['quota']);

function successEnvelope(route: RouteId): JsonSchema {
  const properties: Record<string, JsonSchema> = { success: { const: true }, data: ref(DATA[route].name) };
  if (!WITH_META.has(route)) return object(properties, ['success', 'data']);
  properties.meta = object({ timestamp: { ...ref('Timestamp'), description: 'When the response was made.' } }, [
    'timestamp',
  ]);
  return object(properties, ['success', 'data', 'meta']);
}

export const ERROR_CODES = Object.keys(ERROR_CATALOG) as ErrorCode[];

const ERROR_SCHEMAS: Record<string, JsonSchema> = {
  ErrorCode: {
    type: 'string',
    enum: ERROR_CODES,
    description: 'What went wrong, in kebab-case; clients branch on it. See the error catalog.',
  },
  Error: object<{ code: string; message: string; param: string }>(
    {
      code: ref('ErrorCode'),
      message: {
        type: 'string',
        description: 'One human sentence; never a stack trace or an internal name.',
        examples: ["Currency 'XYZ' is not supported."],
      },
      param: {
        type: 'string',
        description:
          'The one input at fault, when there is one: a parameter name (`from`, `to`, `base`, `date`, ' +
          '`amount`, `locale`, …) or `X-API-Key`.',
        examples: ['to'],
      },
    },
    ['code', 'message'],
  ),
  ErrorResponse: object({ success: { const: false }, error: ref('Error') }, ['success', 'error']),
};

/** Every schema of `components.schemas`. */
export function componentSchemas(routes: readonly RouteId[]): Record<string, JsonSchema> {
  const schemas: Record<string, JsonSchema> = { ...BASICS };
  for (const route of routes) {
    schemas[DATA[route].name] = DATA[route].schema;
    schemas[successSchemaName(route)] = successEnvelope(route);
  }
  return { ...schemas, ...ERROR_SCHEMAS };
}

/** The error body of one response, its `code` narrowed to the codes that status can carry on that route. */
export function errorBodySchema(codes: readonly ErrorCode[]): JsonSchema {
  return {
    allOf: [ref('ErrorResponse')],
    properties: { error: { properties: { code: { enum: [...codes] } } } },
  };
}
