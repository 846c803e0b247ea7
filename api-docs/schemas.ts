/**
 * JSON Schemas (2020-12, the OpenAPI 3.1 dialect) of every response body: each route's `data`, the envelopes and
 * the error, for the public API and the dashboard API; and the dashboard's one request body. Objects are closed
 * (`additionalProperties: false`), so a field an endpoint adds without documenting it fails the HTTP test that
 * validates real responses against the document.
 */
import type { planCatalog } from '../lambdas/core/dashboard/plans';
import type { accountView, keyView } from '../lambdas/core/dashboard/views';
import {
  ACCOUNT_ID_RANDOM_LENGTH,
  KEY_CHECKSUM_LENGTH,
  KEY_DISPLAY_PREFIX_LENGTH,
  KEY_PREFIX,
  KEY_RANDOM_LENGTH,
} from '../lambdas/core/domain/api-key';
import { ERROR_CATALOG, type ErrorCode } from '../lambdas/core/domain/errors';
import { PLAN_IDS, PLANS } from '../lambdas/core/domain/plans';
import type { DayUsage, QuotaReport } from '../lambdas/core/domain/quota';
import { SOURCE_IDS } from '../lambdas/core/domain/rates';
import type { DashboardRouteId } from '../lambdas/core/http/dashboard-routes';
import { MAX_CONVERT_TARGETS, MAX_SERIES_DAYS } from '../lambdas/core/http/parameters';
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
  SourceId: {
    type: 'string',
    enum: [...SOURCE_IDS],
    description:
      "An upstream source: `ecb`, the European Central Bank's euro reference rates (TARGET business days around " +
      '16:00 CET), or `currency-api`, which publishes every day at 00:00 UTC.',
    examples: ['ecb'],
  },
  QuoteSources: {
    type: 'object',
    description:
      'Only with `expand=sources`: each currency involved, except EUR, to the upstream source of its quote against ' +
      'the euro, for citing it. EUR has no entry: it is the pivot both sources quote against, so no source quotes it.',
    propertyNames: { pattern: CODE_PATTERN },
    additionalProperties: { $ref: '#/components/schemas/SourceId' },
    examples: [{ USD: 'ecb', JPY: 'ecb', AED: 'currency-api' }],
  },
  Day: {
    type: 'string',
    format: 'date',
    pattern: '^\\d{4}-\\d{2}-\\d{2}$',
    description: 'A calendar day, `YYYY-MM-DD`.',
    examples: ['2026-09-29'],
  },
  SeriesPoint: object<{ date: string; rate: number }>(
    {
      date: { $ref: '#/components/schemas/Day' },
      rate: { $ref: '#/components/schemas/Rate' },
    },
    ['date', 'rate'],
  ),
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

/** `published_at` of the rate responses: the publication of the snapshot the rates come from. */
const publishedAt = (which: string): JsonSchema => ({
  ...ref('Timestamp'),
  description:
    `When the rates served were published upstream: ${which}. An ECB day is published at 16:00 Europe/Berlin, ` +
    'a currency-api day at 00:00 UTC; with both, the newer.',
});
const LATEST_PUBLICATION = 'the latest snapshot, the same instant as `updated_at` of the latest rates';

/** `amount` as the pair and convert endpoints echo it. */
const REQUESTED_AMOUNT: JsonSchema = {
  type: 'number',
  exclusiveMinimum: 0,
  exclusiveMaximum: 1_000_000_000_000,
  description: 'The requested amount, echoed digit for digit; only when `amount` was given.',
  examples: [250],
};

/** `converted` of the pair and convert endpoints: one rule, so their answers cannot drift apart. */
const CONVERTED_AMOUNT: JsonSchema = {
  type: 'number',
  minimum: 0,
  description:
    '`amount × rate` with the rate as shown, in decimal arithmetic, rounded half-even to 6 decimal places; only ' +
    'when `amount` was given.',
  examples: [36902.5],
};

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
        published_at: publishedAt('the latest snapshot; always equal to `updated_at`'),
        next_update_at: {
          ...ref('Timestamp'),
          description:
            'When the service expects the next update: the earliest next scheduled publication, after now, of ' +
            'the sources feeding these rates (ECB: the next TARGET business day at 16:00 Europe/Berlin; ' +
            'currency-api: the next 00:00 UTC). Ingestion runs on a schedule after it, so the new rates can ' +
            'appear somewhat later.',
        },
        sources: {
          ...ref('QuoteSources'),
          description:
            'Only with `expand=sources`: every code of `rates` except EUR to the source of its quote against the euro. EUR has no entry: it is the pivot both sources quote against.',
        },
      },
      ['base', 'updated_at', 'published_at', 'next_update_at', 'rates'],
    ),
  },
  pair: {
    name: 'PairRate',
    schema: object(
      {
        base: code('The `from` currency.', 'USD'),
        target: code('The `to` currency.', 'JPY'),
        rate: ref('Rate'),
        amount: REQUESTED_AMOUNT,
        converted: CONVERTED_AMOUNT,
        published_at: publishedAt(LATEST_PUBLICATION),
        sources: ref('QuoteSources'),
      },
      ['base', 'target', 'rate', 'published_at'],
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
        effective_date: {
          type: 'string',
          format: 'date',
          description:
            'Only with `fallback=previous`: the day whose rate is served, `date` itself when that day has a rate, ' +
            'else the nearest of the 7 days before it that has one.',
          examples: ['2026-04-10'],
        },
        rate: {
          ...ref('Rate'),
          description:
            "The rate of the day's snapshot; without `fallback`, never an earlier day's. With " +
            "`fallback=previous`, the rate of `effective_date`'s snapshot.",
        },
        published_at: publishedAt("the served day's snapshot (`effective_date`'s with a fallback)"),
        sources: {
          ...ref('QuoteSources'),
          description:
            'Only with `expand=sources`: the base and the target, except EUR, to the source of their quote against the euro on the served day. EUR has no entry: it is the pivot both sources quote against.',
        },
      },
      ['base', 'target', 'date', 'rate', 'published_at'],
    ),
  },
  convert: {
    name: 'Conversions',
    schema: object(
      {
        base: code('The `from` currency.', 'USD'),
        amount: REQUESTED_AMOUNT,
        published_at: publishedAt(LATEST_PUBLICATION),
        conversions: {
          type: 'array',
          minItems: 1,
          maxItems: MAX_CONVERT_TARGETS,
          description: 'One entry per `to` currency, in the order of `to`.',
          items: object(
            {
              target: code('A currency of `to`.', 'JPY'),
              rate: ref('Rate'),
              converted: CONVERTED_AMOUNT,
            },
            ['target', 'rate'],
          ),
        },
      },
      ['base', 'published_at', 'conversions'],
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
        published_at: publishedAt(LATEST_PUBLICATION),
        sources: ref('QuoteSources'),
      },
      ['base', 'target', 'rate', 'base_detail', 'target_detail', 'published_at'],
    ),
  },
  sources: {
    name: 'SourceList',
    schema: object(
      {
        sources: {
          type: 'array',
          description: 'Every configured upstream source, in order of precedence (the ECB first).',
          items: object(
            {
              id: ref('SourceId'),
              name: { type: 'string', description: 'What the source is.', examples: ['European Central Bank'] },
              schedule: {
                type: 'string',
                description: 'When the source publishes, in words.',
                examples: ['daily, at 00:00 UTC'],
              },
              origin: {
                enum: ['upstream', 'bundled', null],
                description:
                  'Where the last delivery came from: `upstream`, a fetch from the source; `bundled`, the data ' +
                  'files shipped with the service (the local server, offline); null before any delivery.',
              },
              last_fetch_at: {
                oneOf: [ref('Timestamp'), { type: 'null' }],
                description:
                  'When the service last fetched the source successfully; null before any fetch, and when the ' +
                  'data came from the bundled files. A failed fetch leaves every field of the last success as it was.',
              },
              last_published_date: {
                oneOf: [{ type: 'string', format: 'date' }, { type: 'null' }],
                description: 'The newest day the source delivered, `YYYY-MM-DD`; null before any delivery.',
              },
              last_published_at: {
                oneOf: [ref('Timestamp'), { type: 'null' }],
                description: 'When the source published that day; null before any delivery.',
              },
              currencies: {
                type: 'array',
                items: ref('CurrencyCode'),
                description:
                  'The codes the source delivered for that day, sorted; EUR, the pivot, is left out. Empty before ' +
                  'any delivery.',
              },
              feeds_latest: {
                type: 'boolean',
                description: 'Whether the latest rates (`/rates/latest`) currently hold a quote from this source.',
              },
            },
            [
              'id',
              'name',
              'schedule',
              'origin',
              'last_fetch_at',
              'last_published_date',
              'last_published_at',
              'currencies',
              'feeds_latest',
            ],
          ),
        },
      },
      ['sources'],
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
  timeseries: {
    name: 'TimeSeries',
    schema: object(
      {
        base: code('The base currency.', 'USD'),
        target: code('The target currency.', 'JPY'),
        start: { ...ref('Day'), description: 'The first day of the range, as requested.' },
        end: { ...ref('Day'), description: 'The last day of the range, as requested.' },
        rates: {
          type: 'array',
          minItems: 1,
          maxItems: MAX_SERIES_DAYS,
          description:
            'One entry per day of the range on which both currencies have a rate, ascending; no entry for a ' +
            "weekend or holiday without one. Each rate is what history answers for that day's pair.",
          items: ref('SeriesPoint'),
        },
        summary: object(
          {
            first: { ...ref('SeriesPoint'), description: 'The first entry.' },
            last: { ...ref('SeriesPoint'), description: 'The last entry.' },
            change: {
              type: 'number',
              description: '`last.rate − first.rate`, exact (decimal arithmetic).',
              examples: [-2.39],
            },
            change_pct: {
              type: 'number',
              description: '`change / first.rate × 100`, rounded half-even to 4 decimal places.',
              examples: [-1.5929],
            },
            min: { ...ref('SeriesPoint'), description: 'The lowest rate; on a tie, its earliest day.' },
            max: { ...ref('SeriesPoint'), description: 'The highest rate; on a tie, its earliest day.' },
          },
          ['first', 'last', 'change', 'change_pct', 'min', 'max'],
        ),
      },
      ['base', 'target', 'start', 'end', 'rates', 'summary'],
    ),
  },
};

export const TIMESERIES_CSV_EXAMPLE = 'date,rate\r\n2026-09-28,150.21\r\n2026-09-29,149.87\r\n';

/** The time series' body as CSV (`format=csv`, or `Accept: text/csv`). */
export const TIMESERIES_CSV_SCHEMA: JsonSchema = {
  type: 'string',
  description:
    'A header line `date,rate`, then one line per entry of `rates` (the same days and rates as the JSON, rates ' +
    'as plain decimals), each line ended by CRLF.',
  pattern: '^date,rate\\r\\n(\\d{4}-\\d{2}-\\d{2},\\d+(\\.\\d+)?\\r\\n)+$',
  examples: [TIMESERIES_CSV_EXAMPLE],
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

// --- the dashboard API ------------------------------------------------------------------------------------------

/**
 * Every field of every member of a union: the type argument of `object` for a view whose optional fields come from
 * a conditional spread, so that each of them must be described too.
 */
type AllFields<U> = { [K in U extends unknown ? keyof U : never]: unknown };

type KeyView = AllFields<ReturnType<typeof keyView>>;

/**
 * The longest key name, as the accounts store checks names (lambdas/core/store/accounts-store.ts, after trimming);
 * a unit test holds this schema's verdicts against the store's.
 */
export const KEY_NAME_MAX_LENGTH = 64;

/** A key name: printable ASCII, not only spaces. */
const KEY_NAME_PATTERN = '^[\\x20-\\x7E]*[\\x21-\\x7E][\\x20-\\x7E]*$';

export const KEY_ID_PATTERN = '^key_[0-9A-Za-z]+$';
const BASE62 = '[0-9A-Za-z]';

const maxActiveKeys = (description: string): JsonSchema => ({
  type: ['integer', 'null'],
  minimum: 1,
  description,
  examples: [PLANS.free.maxActiveKeys],
});

/** An object's `field` is there when its `flag` is `value`, and only then. */
function presentExactlyWhen(field: string, flag: string, value: unknown): JsonSchema {
  return {
    anyOf: [
      { properties: { [flag]: { const: value } }, required: [field] },
      { properties: { [flag]: { not: { const: value } } }, not: { required: [field] } },
    ],
  };
}

/** A key's fields as every answer about a key shows them; never its secret part. */
const KEY_FIELDS: { [K in keyof KeyView]: JsonSchema } = {
  id: {
    type: 'string',
    pattern: KEY_ID_PATTERN,
    description: "The key's id: not secret; it names the key in `DELETE /api/keys/{keyId}`.",
    examples: ['key_4Xq9Lm2Rt7Vb1Nc8'],
  },
  name: {
    type: 'string',
    minLength: 1,
    maxLength: KEY_NAME_MAX_LENGTH,
    description: 'The name given when the key was created.',
    examples: ['my laptop'],
  },
  prefix: {
    type: ['string', 'null'],
    pattern: `^${KEY_PREFIX}${BASE62}{${KEY_DISPLAY_PREFIX_LENGTH - KEY_PREFIX.length}}$`,
    description:
      'The first characters of the key, which are not secret, to tell keys apart; null for a key made before ' +
      'prefixes were kept.',
    examples: [`${KEY_PREFIX}Ab3x`],
  },
  created_at: { ...ref('Timestamp'), description: 'When the key was created.' },
  status: {
    type: 'string',
    enum: ['active', 'revoked'],
    description: 'A revoked key is refused by the public API within 60 seconds of its revocation.',
  },
  revoked_at: { ...ref('Timestamp'), description: 'When the key was revoked; only on a revoked key.' },
};

const KEY_REQUIRED = ['id', 'name', 'prefix', 'created_at', 'status'] as const;

/** The dashboard's building blocks, by component name. */
const DASHBOARD_BASICS: Record<string, JsonSchema> = {
  ApiKey: object<KeyView>(KEY_FIELDS, KEY_REQUIRED, {
    description: 'An API key of the account, without its secret part.',
    ...presentExactlyWhen('revoked_at', 'status', 'revoked'),
  }),
  AccountDetails: object<ReturnType<typeof accountView>>(
    {
      id: {
        type: 'string',
        pattern: `^acc_${BASE62}{${ACCOUNT_ID_RANDOM_LENGTH}}$`,
        description: "The account's id, derived from the person's Cognito `sub`: the operator's admin CLI shows it.",
        examples: ['acc_Vq3NcX8LmT2rB7ka'],
      },
      email: {
        type: ['string', 'null'],
        description: "The e-mail address the person signed up with, from their token's verified `email`.",
        examples: ['ada@example.com'],
      },
      plan: { type: 'string', enum: [...PLAN_IDS], description: "The account's plan." },
      plan_name: {
        type: 'string',
        enum: Object.values(PLANS).map((plan) => plan.name),
        description: 'The plan as the quota report names it.',
      },
      status: {
        type: 'string',
        enum: ['active', 'suspended'],
        description: 'A suspended account cannot create keys, and the public API refuses its keys.',
      },
      created_at: { ...ref('Timestamp'), description: "When the account was created: the person's first request." },
    },
    ['id', 'email', 'plan', 'plan_name', 'status', 'created_at'],
  ),
  DayUsage: object<DayUsage>(
    {
      date: { type: 'string', format: 'date', description: 'The day (UTC).', examples: ['2026-09-01'] },
      requests: {
        type: 'integer',
        minimum: 0,
        description:
          "Requests the public API admitted that day, all the account's keys together, `GET /v1/quota` included.",
      },
      refused: {
        type: 'integer',
        minimum: 0,
        description: 'Requests refused that day by the per-minute limit or the monthly quota.',
      },
    },
    ['date', 'requests', 'refused'],
  ),
  PlanOffer: object<ReturnType<typeof planCatalog>[number]>(
    {
      id: { type: 'string', enum: [...PLAN_IDS], description: 'The plan, as `current` and `account.plan` name it.' },
      name: { type: 'string', enum: Object.values(PLANS).map((plan) => plan.name), description: 'Its name.' },
      price_eur_per_month: { type: 'number', minimum: 0, description: 'Price in euros per month.' },
      monthly_limit: { type: 'integer', minimum: 1, description: 'Requests per UTC calendar month.' },
      per_minute: { type: 'integer', minimum: 1, description: 'Requests per UTC calendar minute.' },
      history: {
        type: 'string',
        description: 'How far back historical rates reach, in words.',
        examples: ['1 year back'],
      },
      max_active_keys: maxActiveKeys('Active keys an account on this plan may hold; null is unlimited.'),
      overflow_percent: {
        type: 'integer',
        minimum: 0,
        maximum: 100,
        description: 'Use allowed above the monthly limit, in percent; 0 when none is.',
      },
      extras: {
        type: ['string', 'null'],
        description: 'What else the plan includes, in words; null when nothing.',
        examples: ['priority support'],
      },
    },
    [
      'id',
      'name',
      'price_eur_per_month',
      'monthly_limit',
      'per_minute',
      'history',
      'max_active_keys',
      'overflow_percent',
      'extras',
    ],
  ),
};

/** When the creation limit admits the next key; the overview and the key list both carry it. */
const NEXT_KEY_AT: JsonSchema = {
  oneOf: [ref('Timestamp'), { type: 'null' }],
  description:
    'When the key-creation limit admits the next key: the moment the oldest creation of its rolling window ' +
    'leaves it. Null when it admits one now (the plan and the account may still refuse one).',
};

/** The `data` of each dashboard route's successful response. */
const DASHBOARD_DATA: Record<DashboardRouteId, { name: string; schema: JsonSchema }> = {
  account: {
    name: 'AccountOverview',
    schema: object(
      {
        account: ref('AccountDetails'),
        quota: {
          ...ref('QuotaReport'),
          description: "This month's quota, as `GET /v1/quota` reports it to the account's keys.",
        },
        usage: object(
          {
            month: {
              type: 'string',
              pattern: '^\\d{4}-\\d{2}$',
              description: 'The current UTC calendar month.',
              examples: ['2026-09'],
            },
            days: {
              type: 'array',
              items: ref('DayUsage'),
              minItems: 1,
              maxItems: 31,
              description: 'One entry per day of the month, from the 1st to today (UTC).',
            },
            quota_checks: {
              type: 'integer',
              minimum: 0,
              description:
                "This month's quota checks (`GET /v1/quota`): in the days' `requests`, but not in `quota.used`, " +
                'since they count toward the per-minute limit only. The days add up to `quota.used` plus this.',
            },
          },
          ['month', 'days', 'quota_checks'],
          { description: 'Requests per day this month, for the chart.' },
        ),
        keys: object(
          {
            active: { type: 'integer', minimum: 0, description: 'Active keys the account holds.' },
            max_active: maxActiveKeys("Active keys the account's plan allows; null is unlimited."),
            next_key_at: NEXT_KEY_AT,
          },
          ['active', 'max_active', 'next_key_at'],
        ),
      },
      ['account', 'quota', 'usage', 'keys'],
    ),
  },
  'keys-list': {
    name: 'KeyList',
    schema: object(
      {
        keys: {
          type: 'array',
          items: ref('ApiKey'),
          description: 'Every key of the account, revoked ones included, oldest first.',
        },
        active: { type: 'integer', minimum: 0, description: 'Active keys the account holds.' },
        max_active: maxActiveKeys("Active keys the account's plan allows; null is unlimited."),
        can_create: {
          type: 'boolean',
          description:
            "Whether the plan's key limit, the account's status and the key-creation limit allow another key now.",
        },
        cannot_create_reason: {
          type: 'string',
          description: 'Why no key can be created, in words for the person; only when `can_create` is false.',
        },
        next_key_at: NEXT_KEY_AT,
      },
      ['keys', 'active', 'max_active', 'can_create', 'next_key_at'],
      presentExactlyWhen('cannot_create_reason', 'can_create', false),
    ),
  },
  'keys-create': {
    name: 'CreatedKey',
    schema: object<Omit<KeyView, 'revoked_at'> & { key: unknown }>(
      {
        key: {
          type: 'string',
          pattern: `^${KEY_PREFIX}${BASE62}{${KEY_RANDOM_LENGTH + KEY_CHECKSUM_LENGTH}}$`,
          description:
            'The full key, for the `X-API-Key` header of the public API. Shown in this response only: it is ' +
            'stored as a hash, and no request can return it again.',
        },
        id: KEY_FIELDS.id,
        name: KEY_FIELDS.name,
        prefix: KEY_FIELDS.prefix,
        created_at: KEY_FIELDS.created_at,
        status: { const: 'active', description: 'A new key is active at once.' },
      },
      ['key', ...KEY_REQUIRED],
    ),
  },
  'keys-revoke': {
    name: 'RevokedKey',
    schema: object<KeyView & { already_revoked: unknown }>(
      {
        ...KEY_FIELDS,
        status: { const: 'revoked', description: 'The public API refuses the key within 60 seconds.' },
        revoked_at: {
          ...ref('Timestamp'),
          description: 'When the key was revoked: the first revocation, when it was revoked before.',
        },
        already_revoked: {
          type: 'boolean',
          description: 'True when the key had been revoked before this request, which then changed nothing.',
        },
      },
      [...KEY_REQUIRED, 'revoked_at', 'already_revoked'],
    ),
  },
  plans: {
    name: 'PlanCatalog',
    schema: object(
      {
        current: { type: 'string', enum: [...PLAN_IDS], description: "The account's plan." },
        contact: {
          type: ['string', 'null'],
          pattern: '^(mailto:|https://)',
          description:
            'Where to ask for a plan change, as the operator set it: a `mailto:` or `https:` link; null when none ' +
            'is set. Changing plans is not self-service.',
          examples: ['mailto:sales@example.com'],
        },
        plans: {
          type: 'array',
          items: ref('PlanOffer'),
          minItems: PLAN_IDS.length,
          maxItems: PLAN_IDS.length,
          description: 'Every plan on offer.',
        },
      },
      ['current', 'contact', 'plans'],
    ),
  },
};

/** The body of `POST /api/keys`. */
export const NEW_KEY_REQUEST_SCHEMA = 'NewKeyRequest';

const DASHBOARD_REQUESTS: Record<string, JsonSchema> = {
  [NEW_KEY_REQUEST_SCHEMA]: object(
    {
      name: {
        type: 'string',
        minLength: 1,
        maxLength: KEY_NAME_MAX_LENGTH,
        pattern: KEY_NAME_PATTERN,
        description:
          `The new key's name: 1 to ${KEY_NAME_MAX_LENGTH} printable ASCII characters, not only spaces. Leading ` +
          'and trailing spaces are removed before it is checked and kept.',
        examples: ['my laptop'],
      },
    },
    ['name'],
  ),
};

/** Component name of the successful response body of a dashboard route. */
export const dashboardSuccessSchemaName = (route: DashboardRouteId): string => `${DASHBOARD_DATA[route].name}Response`;

/** Every dashboard response carries the time it was made. */
function dashboardEnvelope(route: DashboardRouteId): JsonSchema {
  return object(
    {
      success: { const: true },
      data: ref(DASHBOARD_DATA[route].name),
      meta: object({ timestamp: { ...ref('Timestamp'), description: 'When the response was made.' } }, ['timestamp']),
    },
    ['success', 'data', 'meta'],
  );
}

/** Every schema of `components.schemas`: the public API's, then the dashboard API's. */
export function componentSchemas(
  routes: readonly RouteId[],
  dashboardRoutes: readonly DashboardRouteId[] = [],
): Record<string, JsonSchema> {
  const schemas: Record<string, JsonSchema> = { ...BASICS };
  for (const route of routes) {
    schemas[DATA[route].name] = DATA[route].schema;
    schemas[successSchemaName(route)] = successEnvelope(route);
  }
  Object.assign(schemas, ERROR_SCHEMAS);
  if (dashboardRoutes.length === 0) return schemas;
  const add = (name: string, schema: JsonSchema) => {
    if (name in schemas) throw new Error(`two schemas are named ${name}`);
    schemas[name] = schema;
  };
  for (const [name, schema] of Object.entries(DASHBOARD_BASICS)) add(name, schema);
  for (const route of dashboardRoutes) {
    add(DASHBOARD_DATA[route].name, DASHBOARD_DATA[route].schema);
    add(dashboardSuccessSchemaName(route), dashboardEnvelope(route));
  }
  for (const [name, schema] of Object.entries(DASHBOARD_REQUESTS)) add(name, schema);
  return schemas;
}

/** The error body of one response, its `code` narrowed to the codes that status can carry on that route. */
export function errorBodySchema(codes: readonly ErrorCode[]): JsonSchema {
  return {
    allOf: [ref('ErrorResponse')],
    properties: { error: { properties: { code: { enum: [...codes] } } } },
  };
}
