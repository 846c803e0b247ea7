/**
 * The endpoints' path and query parameters, read into values or refused with the documented errors
 * (openapi.json). Hand-written rather than schemas: zod/mini cost every endpoint's cold start 1.5 to 4 ms and
 * 31 KB, valibot 6 KB with no less code, for a handful of string checks. All input validation of the rate endpoints lives here.
 */
import { isActiveCode, isCatalogCode, LOCALES, type Locale } from '../domain/currencies';
import { parseDay } from '../domain/dates';
import {
  ApiError,
  type ErrorCode,
  type ErrorParam,
  InvalidAmountError,
  InvalidDateError,
  InvalidParameterError,
  UnsupportedCurrencyError,
  UnsupportedLocaleError,
} from '../domain/errors';
import type { RouteId } from './routes';

/** Longer values are refused before any other check: no currency, date, amount or locale is this long. */
export const MAX_PARAMETER_LENGTH = 64;
const AMOUNT_PATTERN = /^\d+(\.\d+)?$/;
const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
const MAX_AMOUNT = 1_000_000_000_000;

/**
 * What the API reference says about a parameter (api-docs/ renders it into the OpenAPI document). Plain data that
 * the readers never look at; `schema` is a JSON Schema of the raw value as a client sends it.
 */
export interface ParameterDoc {
  description: string;
  schema: {
    type: 'string';
    pattern?: string;
    format?: 'date';
    enum?: readonly string[];
    default?: string;
    maxLength: number;
  };
  example: string;
  /** The codes a value of this parameter can be refused with; every parameter can also be `invalid-parameter`. */
  errors: readonly ErrorCode[];
}

/** Where a parameter is read from, how (`read` throws the documented error) and its value when not given. */
interface Parameter<T> {
  in: 'path' | 'query';
  read: (raw: string) => T;
  /** Without it, a parameter that is not given is malformed. */
  absent?: () => T;
}

type Values<P> = { [K in keyof P]: P[K] extends Parameter<infer T> ? T : never };

/** The raw parameters of one request: path parameters and single-valued query parameters. */
export interface RawParameters {
  path?: unknown;
  query?: unknown;
}

const malformed = (param: string) => new InvalidParameterError(param, `The parameter '${param}' is malformed.`);

function bounded(param: ErrorParam, raw: unknown): string {
  if (typeof raw !== 'string') throw malformed(param);
  if (raw.length > MAX_PARAMETER_LENGTH) {
    throw new InvalidParameterError(param, `The parameter '${param}' is too long.`);
  }
  return raw;
}

function rawValue(source: unknown, name: string): unknown {
  if (source === null || typeof source !== 'object') throw malformed('parameter');
  return Object.hasOwn(source, name) ? (source as Record<string, unknown>)[name] : undefined;
}

/**
 * Reads every parameter, in order. With several faults, a 400 (malformed) wins over a 422 (well-formed but
 * unsupported); among equals, the first in order.
 */
function readAll<P extends Record<string, Parameter<unknown>>>(parameters: P, request: RawParameters): Values<P> {
  const values: Record<string, unknown> = {};
  let refusal: ApiError | undefined;
  for (const [name, parameter] of Object.entries(parameters)) {
    try {
      const raw = rawValue(request[parameter.in], name);
      if (raw !== undefined || !parameter.absent) values[name] = parameter.read(bounded(name, raw));
      else values[name] = parameter.absent();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (!refusal || error.status < refusal.status) refusal = error;
    }
  }
  if (refusal) throw refusal;
  return values as Values<P>;
}

/** A currency code as written by a client: case-insensitive, upper-cased, in the catalog (active unless `withdrawn`). */
export function readCurrencyCode(raw: string, param: ErrorParam, options: { allowWithdrawn?: boolean } = {}): string {
  const code = raw.toUpperCase();
  // ASCII letters only: toUpperCase alone would turn a Turkish dotless ı into I and accept 'ınr' as INR.
  const ascii = /^[A-Za-z]{3}$/.test(raw);
  const known = ascii && (options.allowWithdrawn ? isCatalogCode(code) : isActiveCode(code));
  // Non-ASCII input is echoed as sent: upper-casing could turn it into a code that is supported.
  if (!known) throw new UnsupportedCurrencyError(ascii ? code : raw, param);
  return code;
}

export function readLocale(raw: string): Locale {
  if (!(LOCALES as readonly string[]).includes(raw)) throw new UnsupportedLocaleError(raw);
  return raw as Locale;
}

/** A plain decimal `0 < amount < 10^12`; kept as its string so no binary float ever touches it. */
export function readAmount(raw: string): string {
  if (!AMOUNT_PATTERN.test(raw)) throw new InvalidAmountError();
  const [whole = '', fraction = ''] = raw.split('.');
  const wholeDigits = whole.replace(/^0+(?=\d)/, '');
  const isZero = /^0+$/.test(wholeDigits) && /^0*$/.test(fraction);
  if (isZero || wholeDigits.length > String(MAX_AMOUNT).length || Number(wholeDigits) >= MAX_AMOUNT) {
    throw new InvalidAmountError();
  }
  const trimmedFraction = fraction.replace(/0+$/, '');
  return trimmedFraction ? `${wholeDigits}.${trimmedFraction}` : wholeDigits;
}

/** `YYYY-MM-DD`, a real calendar day, not after `today` (UTC). */
export function readDay(raw: string, today: string): string {
  if (!DAY_PATTERN.test(raw)) throw new InvalidDateError('format');
  if (!parseDay(raw)) throw new InvalidDateError('calendar');
  if (raw > today) throw new InvalidDateError('future');
  return raw;
}

const currency = (
  param: ErrorParam,
  place: Parameter<string>['in'],
  options: { allowWithdrawn?: boolean } = {},
): Parameter<string> => ({ in: place, read: (raw) => readCurrencyCode(raw, param, options) });

const DEFAULT_BASE = 'EUR';
const DEFAULT_LOCALE: Locale = 'en';

const LOCALE: Parameter<Locale> = { in: 'query', read: readLocale, absent: () => DEFAULT_LOCALE };

// Built once, not per request; history's date depends on the day and is built per request.
const LATEST = { base: { ...currency('base', 'query'), absent: () => DEFAULT_BASE } };
const PAIR = {
  from: currency('from', 'path'),
  to: currency('to', 'path'),
  amount: { in: 'query', read: readAmount, absent: () => undefined } satisfies Parameter<string | undefined>,
};
const CURRENCIES = { locale: LOCALE };
const ENRICHED = { from: currency('from', 'path'), to: currency('to', 'path'), locale: LOCALE };
const HISTORY_CODES = {
  from: currency('from', 'path', { allowWithdrawn: true }),
  to: currency('to', 'path', { allowWithdrawn: true }),
};

/** `base` of GET /rates/latest, EUR when not given. */
export function readLatestQuery(query: unknown): { base: string } {
  return readAll(LATEST, { query });
}

/** `from`/`to` and the optional `amount` of GET /rates/pair, checked together. */
export function readPairInput(request: RawParameters): { from: string; to: string; amount?: string } {
  const { amount, ...pair } = readAll(PAIR, request);
  return amount === undefined ? pair : { ...pair, amount };
}

/** `locale` of GET /currencies, en when not given. */
export function readLocaleQuery(query: unknown): { locale: Locale } {
  return readAll(CURRENCIES, { query });
}

/** `from`/`to` and `locale` of GET /rates/enriched, checked together. */
export function readEnrichedInput(request: RawParameters): { from: string; to: string; locale: Locale } {
  return readAll(ENRICHED, request);
}

/** `from`/`to` (withdrawn codes included) and `date` of GET /rates/history, judged against `today` (UTC). */
export function readHistoryPath(path: unknown, today: string): { from: string; to: string; date: string } {
  return readAll(
    { ...HISTORY_CODES, date: { in: 'path', read: (raw: string) => readDay(raw, today) } satisfies Parameter<string> },
    { path },
  );
}

// --- the API reference ----------------------------------------------------------------------------------------
// What api-docs/ renders into the OpenAPI document, beside the specs it describes. Plain data that no reader
// reaches, made by one pure-annotated call: a function's bundle leaves all of it out.

/** A parameter as the API reference sees it: where it is read, whether it has a value when absent, its doc. */
export interface DocumentedParameter {
  in: Parameter<unknown>['in'];
  absent?: () => unknown;
  doc: ParameterDoc;
}

/** Joins each spec of a route, in reading order, to its doc; the type makes every spec have one. */
function documented<P extends Record<string, Pick<Parameter<unknown>, 'in' | 'absent'>>>(
  specs: P,
  docs: { readonly [K in keyof P]: ParameterDoc },
): Readonly<Record<string, DocumentedParameter>> {
  const byName: Readonly<Record<string, ParameterDoc>> = docs;
  return Object.fromEntries(
    Object.entries(specs).map(([name, spec]) => [
      name,
      { in: spec.in, absent: spec.absent, doc: byName[name] as ParameterDoc },
    ]),
  );
}

function routeParameters(): Readonly<Record<RouteId, Readonly<Record<string, DocumentedParameter>>>> {
  const codeRule = 'ISO 4217 code, case-insensitive (upper-cased before use).';
  const withdrawnRule = 'Withdrawn codes (e.g. `CYP`, `HRK`) are accepted for the days they have data.';
  const currencyDoc = (description: string, example: string, fallback?: string): ParameterDoc => ({
    description: `${description} ${codeRule}`,
    schema: {
      type: 'string',
      pattern: '^[A-Za-z]{3}$',
      maxLength: MAX_PARAMETER_LENGTH,
      ...(fallback === undefined ? {} : { default: fallback }),
    },
    example,
    errors: ['unsupported-currency'],
  });
  const locale: ParameterDoc = {
    description: 'Language of the currency names, case-sensitive.',
    schema: { type: 'string', enum: LOCALES, default: DEFAULT_LOCALE, maxLength: MAX_PARAMETER_LENGTH },
    example: 'de',
    errors: ['unsupported-locale'],
  };
  return {
    latest: documented(LATEST, {
      base: currencyDoc('The currency every rate is quoted against.', 'USD', DEFAULT_BASE),
    }),
    pair: documented(PAIR, {
      from: currencyDoc('The currency converted from.', 'USD'),
      to: currencyDoc('The currency converted to.', 'JPY'),
      amount: {
        description:
          'An amount of `from` to convert: a plain decimal (digits, optionally `.` and fraction digits; no sign, ' +
          'exponent, separators or spaces), greater than 0 and less than 1000000000000.',
        schema: { type: 'string', pattern: AMOUNT_PATTERN.source, maxLength: MAX_PARAMETER_LENGTH },
        example: '250',
        errors: ['invalid-amount'],
      },
    }),
    // The date's reader is built per request; here it is described by where it is read.
    history: documented(
      { ...HISTORY_CODES, date: { in: 'path' } },
      {
        from: currencyDoc(`The base currency. ${withdrawnRule}`, 'USD'),
        to: currencyDoc(`The target currency. ${withdrawnRule}`, 'CHF'),
        date: {
          description: 'The day, `YYYY-MM-DD`: a real calendar day, not after today (UTC).',
          schema: { type: 'string', format: 'date', pattern: DAY_PATTERN.source, maxLength: MAX_PARAMETER_LENGTH },
          example: '2026-04-13',
          errors: ['invalid-date'],
        },
      },
    ),
    currencies: documented(CURRENCIES, { locale }),
    enriched: documented(ENRICHED, {
      from: currencyDoc("The currency of the pair's base.", 'EUR'),
      to: currencyDoc("The currency of the pair's target.", 'GBP'),
      locale,
    }),
    quota: {},
  };
}

/**
 * Every route's parameters, in reading order, for the API reference (api-docs/): the readers' own specs (where
 * each is read, its value when absent) with their docs. Only the reference reads it.
 */
export const ROUTE_PARAMETERS = /* @__PURE__ */ routeParameters();
