/**
 * The public API's response schemas: the shared building blocks (currency codes, rates, timestamps, …) and each
 * route's `data` with its envelope.
 */
import { PLANS } from '../lambdas/core/domain/plans';
import type { QuotaReport } from '../lambdas/core/domain/quota';
import { SOURCE_IDS } from '../lambdas/core/domain/rates';
import { MAX_CONVERT_TARGETS, MAX_SERIES_DAYS } from '../lambdas/core/http/parameters';
import type { RouteId } from '../lambdas/core/http/routes';
import { type JsonSchema, object, ref } from './json-schema';

const CODE_PATTERN = '^[A-Z]{3}$';
const TIMESTAMP_PATTERN = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z$';

const code = (description: string, example: string): JsonSchema => ({
  ...ref('CurrencyCode'),
  description,
  examples: [example],
});

/** Shared building blocks, by component name. */
export const BASICS: Record<string, JsonSchema> = {
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
export const DATA: Record<RouteId, { name: string; schema: JsonSchema }> = {
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

export function successEnvelope(route: RouteId): JsonSchema {
  const properties: Record<string, JsonSchema> = { success: { const: true }, data: ref(DATA[route].name) };
  if (!WITH_META.has(route)) return object(properties, ['success', 'data']);
  properties.meta = object({ timestamp: { ...ref('Timestamp'), description: 'When the response was made.' } }, [
    'timestamp',
  ]);
  return object(properties, ['success', 'data', 'meta']);
}
