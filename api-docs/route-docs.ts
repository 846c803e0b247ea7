/**
 * What a route's module says about its route in the API reference (`docs()`, beside the endpoint it describes),
 * and the pieces several routes' docs share. Endpoint modules import this file, so it holds only types, functions
 * and constant data: with `docs()` never called in a function, esbuild leaves all of it out of the bundles.
 */
import { LOCALES } from '../lambdas/core/domain/currencies';
import type { ErrorCode } from '../lambdas/core/domain/errors';
import {
  AMOUNT_PATTERN,
  DAY_PATTERN,
  DEFAULT_LOCALE,
  type DocumentedParameter,
  MAX_PARAMETER_LENGTH,
  type ParameterDoc,
} from '../lambdas/core/http/parameters';
import { type JsonSchema, ref } from './json-schema';
import type { HeaderObject } from './openapi-objects';

export { type JsonSchema, object, ref } from './json-schema';

/** The tags of the public API's operations (openapi.ts describes each). */
export type RouteTag = 'Rates' | 'Currencies' | 'Account';

/** A route's part of the API reference. */
export interface RouteDocs {
  tag: RouteTag;
  /** The operation's description, before the lines every route gets from its registry entry. */
  notes: string;
  /** Every parameter the endpoint reads, in reading order, with its doc (`documented` joins them). */
  parameters: Readonly<Record<string, DocumentedParameter>>;
  /** What the endpoint refuses on its own once its parameters are read. */
  errors: readonly ErrorCode[];
  /** The `data` of a success: its component name and schema. */
  data: { name: string; schema: JsonSchema };
  /** An example of that `data`. */
  example: unknown;
  /** A top-level `meta` of the success envelope, with its example. */
  meta?: { schema: JsonSchema; example: unknown };
  /** Answers that carry a shorter Cache-Control than the registry entry's, and when. */
  shorterCacheControl?: { value: string; when: string };
  /** Headers of a success beyond every route's (placed after ETag). */
  successHeaders?: Readonly<Record<string, HeaderObject>>;
  /** Media types of a success beyond `application/json`. */
  otherContent?: Readonly<Record<string, { schema: JsonSchema; example: unknown }>>;
}

/** The instant the reference's samples are taken at: 19 s into a minute of September. */
export const SAMPLE_AT = Date.parse('2026-09-30T12:00:19Z');
/** The sample account's requests this month. */
export const SAMPLE_MONTH_USED = 900;

// --- parameters ------------------------------------------------------------------------------------------------

const CODE_RULE = 'ISO 4217 code, case-insensitive (upper-cased before use).';
export const WITHDRAWN_RULE = 'Withdrawn codes (e.g. `CYP`, `HRK`) are accepted for the days they have data.';

/** A currency code parameter; `fallback` is its value when absent. */
export function currencyDoc(description: string, example: string, fallback?: string): ParameterDoc {
  return {
    description: `${description} ${CODE_RULE}`,
    schema: {
      type: 'string',
      pattern: '^[A-Za-z]{3}$',
      maxLength: MAX_PARAMETER_LENGTH,
      ...(fallback === undefined ? {} : { default: fallback }),
    },
    example,
    errors: ['unsupported-currency'],
  };
}

export const LOCALE_DOC: ParameterDoc = {
  description: 'Language of the currency names, case-sensitive.',
  schema: { type: 'string', enum: LOCALES, default: DEFAULT_LOCALE, maxLength: MAX_PARAMETER_LENGTH },
  example: 'de',
  errors: ['unsupported-locale'],
};

export const EXPAND_DOC: ParameterDoc = {
  description:
    '`sources` adds `sources`: each currency involved (except EUR) to the upstream source of its quote against ' +
    'the euro, `ecb` or `currency-api`. EUR has no entry: it is the pivot both sources quote against. Any other ' +
    'value, empty included, is `invalid-parameter`.',
  schema: { type: 'string', enum: ['sources'], maxLength: MAX_PARAMETER_LENGTH },
  example: 'sources',
  errors: [],
};

/** An `amount` parameter (pair, convert). */
export function amountDoc(description: string): ParameterDoc {
  return {
    description,
    schema: { type: 'string', pattern: AMOUNT_PATTERN.source, maxLength: MAX_PARAMETER_LENGTH },
    example: '250',
    errors: ['invalid-amount'],
  };
}

/** A day parameter (history's date, the time series' ends). */
export function dayDoc(description: string, example: string): ParameterDoc {
  return {
    description,
    schema: { type: 'string', format: 'date', pattern: DAY_PATTERN.source, maxLength: MAX_PARAMETER_LENGTH },
    example,
    errors: ['invalid-date'],
  };
}

// --- response schemas ------------------------------------------------------------------------------------------

export const CODE_PATTERN = '^[A-Z]{3}$';

/** A currency code of a response. */
export function code(description: string, example: string): JsonSchema {
  return { ...ref('CurrencyCode'), description, examples: [example] };
}

/** `published_at` of the rate responses: the publication of the snapshot the rates come from. */
export function publishedAt(which: string): JsonSchema {
  return {
    ...ref('Timestamp'),
    description:
      `When the rates served were published upstream: ${which}. An ECB day is published at 16:00 Europe/Berlin, ` +
      'a currency-api day at 00:00 UTC; with both, the newer.',
  };
}

/** `published_at` of the routes that answer from the latest snapshot. */
export const LATEST_PUBLISHED_AT: JsonSchema = publishedAt(
  'the latest snapshot, the same instant as `updated_at` of the latest rates',
);

/** `amount` as the pair and convert endpoints echo it. */
export const REQUESTED_AMOUNT: JsonSchema = {
  type: 'number',
  exclusiveMinimum: 0,
  exclusiveMaximum: 1_000_000_000_000,
  description: 'The requested amount, echoed digit for digit; only when `amount` was given.',
  examples: [250],
};

/** `converted` of the pair and convert endpoints: one rule, so their answers cannot drift apart. */
export const CONVERTED_AMOUNT: JsonSchema = {
  type: 'number',
  minimum: 0,
  description:
    '`amount × rate` with the rate as shown, in decimal arithmetic, rounded half-even to 6 decimal places; only ' +
    'when `amount` was given.',
  examples: [36902.5],
};
