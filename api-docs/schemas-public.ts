/**
 * The public API's response schemas: the shared building blocks (currency codes, rates, timestamps, …) and each
 * route's envelope. Each route's `data`, example and parameters come from its module's `docs()`.
 */
import { CENTRAL_BANK_IDS, PUBLISHERS } from '../lambdas/core/domain/publishers';
import { SOURCE_IDS } from '../lambdas/core/domain/rates';
import { ROUTE_MODULES } from '../lambdas/core/endpoints/route-modules';
import type { RouteId } from '../lambdas/core/http/routes';
import { type JsonSchema, object, ref } from './json-schema';
import { CODE_PATTERN, type RouteDocs } from './route-docs';

const TIMESTAMP_PATTERN = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z$';

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
      '16:00 CET); the official publishers ' +
      CENTRAL_BANK_IDS.map((id) => `\`${id}\` (${PUBLISHERS[id].name})`).join(', ') +
      ', each on its weekdays; or `currency-api`, an aggregator that publishes every day at 00:00 UTC and is ' +
      'served only where no official publisher quotes a currency. `GET /v1/sources` describes each.',
    examples: ['ecb'],
  },
  QuoteSources: {
    type: 'object',
    description:
      'Only with `expand=sources`: each currency involved, except EUR, to the upstream source of its quote against ' +
      'the euro, for citing it. EUR has no entry: it is the pivot every quote is converted to, so no source is named for it.',
    propertyNames: { pattern: CODE_PATTERN },
    additionalProperties: { $ref: '#/components/schemas/SourceId' },
    examples: [{ USD: 'ecb', JPY: 'ecb', UAH: 'nbu', AED: 'bnr', BTN: 'currency-api' }],
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

/** Every public route's part of the reference, from its module (lambdas/core/endpoints/<id>.ts), read once. */
export const ROUTE_DOCS = Object.fromEntries(
  Object.entries(ROUTE_MODULES).map(([id, module]) => [id, module.docs()]),
) as Readonly<Record<RouteId, RouteDocs>>;

/** Every route's parameters, in reading order, with where each is read, its value when absent and its doc. */
export const ROUTE_PARAMETERS = Object.fromEntries(
  Object.entries(ROUTE_DOCS).map(([id, docs]) => [id, docs.parameters]),
) as Readonly<Record<RouteId, RouteDocs['parameters']>>;

/** Component name of the successful response body of a route. */
export const successSchemaName = (route: RouteId): string => `${ROUTE_DOCS[route].data.name}Response`;

/** The success envelope of a route: its `data`, and its `meta` where it has one. */
export function successEnvelope(route: RouteId): JsonSchema {
  const { data, meta } = ROUTE_DOCS[route];
  const properties: Record<string, JsonSchema> = { success: { const: true }, data: ref(data.name) };
  if (!meta) return object(properties, ['success', 'data']);
  properties.meta = meta.schema;
  return object(properties, ['success', 'data', 'meta']);
}
