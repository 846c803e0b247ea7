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
import { daysInclusive } from '../domain/series';
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
  /** Without it, a parameter that is not given is refused as required. */
  absent?: () => T;
  /** Longest raw value read; MAX_PARAMETER_LENGTH unless a list needs more. */
  maxLength?: number;
}

type Values<P> = { [K in keyof P]: P[K] extends Parameter<infer T> ? T : never };

/** The raw parameters of one request: path parameters and single-valued query parameters. */
export interface RawParameters {
  path?: unknown;
  query?: unknown;
}

const malformed = (param: string) => new InvalidParameterError(param, `The parameter '${param}' is malformed.`);

function bounded(param: ErrorParam, raw: unknown, maxLength = MAX_PARAMETER_LENGTH): string {
  if (typeof raw !== 'string') throw malformed(param);
  if (raw.length > maxLength) {
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
      if (raw !== undefined) values[name] = parameter.read(bounded(name, raw, parameter.maxLength));
      else if (parameter.absent) values[name] = parameter.absent();
      else throw new InvalidParameterError(name, `The parameter '${name}' is required.`);
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

/** `YYYY-MM-DD`, a real calendar day, not after `today` (UTC); refusals name `param` (history's `date` by default). */
export function readDay(raw: string, today: string, param: ErrorParam = 'date'): string {
  if (!DAY_PATTERN.test(raw)) throw new InvalidDateError('format', param);
  if (!parseDay(raw)) throw new InvalidDateError('calendar', param);
  if (raw > today) throw new InvalidDateError('future', param);
  return raw;
}

/** Most targets one conversion call takes. */
export const MAX_CONVERT_TARGETS = 50;
/** Room for 50 codes and their commas with slack; a longer list is refused before it is split. */
export const MAX_TARGET_LIST_LENGTH = 512;

/**
 * A comma-separated list of distinct currency codes (`to` of GET /rates/convert), in the order given. Every item
 * is judged, so a malformed item (400) outranks an unsupported one (422) wherever it stands; the message names
 * the offending item.
 */
export function readTargetList(raw: string): string[] {
  const items = raw.split(',');
  if (items.length > MAX_CONVERT_TARGETS) {
    throw new InvalidParameterError(
      'to',
      `The parameter 'to' lists ${items.length} currencies; at most ${MAX_CONVERT_TARGETS} are allowed.`,
    );
  }
  const firstAt = new Map<string, number>();
  const codes: string[] = [];
  let unsupported: ApiError | undefined;
  items.forEach((item, index) => {
    const position = index + 1;
    if (item === '') {
      throw new InvalidParameterError('to', `Item ${position} of the parameter 'to' is empty.`);
    }
    let code: string;
    try {
      code = readCurrencyCode(item, 'to');
    } catch (error) {
      unsupported ??= error as ApiError;
      return;
    }
    const earlier = firstAt.get(code);
    if (earlier !== undefined) {
      throw new InvalidParameterError(
        'to',
        `Currency '${code}' is listed twice in the parameter 'to' (items ${earlier} and ${position}).`,
      );
    }
    firstAt.set(code, position);
    codes.push(code);
  });
  if (unsupported) throw unsupported;
  return codes;
}

const currency = (
  param: ErrorParam,
  place: Parameter<string>['in'],
  options: { allowWithdrawn?: boolean } = {},
): Parameter<string> => ({ in: place, read: (raw) => readCurrencyCode(raw, param, options) });

const DEFAULT_BASE = 'EUR';
const DEFAULT_LOCALE: Locale = 'en';

const LOCALE: Parameter<Locale> = { in: 'query', read: readLocale, absent: () => DEFAULT_LOCALE };

/** The values `expand` takes: `sources` names the upstream source of each quote. */
export type Expand = 'sources';
/** The values `fallback` takes: `previous` serves the nearest earlier day with a rate, at most 7 days back. */
export type Fallback = 'previous';

/** `expand` of the rate endpoints: `sources`, or absent; anything else (empty included) is malformed. */
export function readExpand(raw: string): Expand {
  if (raw !== 'sources') throw new InvalidParameterError('expand', "The parameter 'expand' must be 'sources'.");
  return raw;
}

/** `fallback` of GET /rates/history: `previous`, or absent; anything else (empty included) is malformed. */
export function readFallback(raw: string): Fallback {
  if (raw !== 'previous') throw new InvalidParameterError('fallback', "The parameter 'fallback' must be 'previous'.");
  return raw;
}

const EXPAND: Parameter<Expand | undefined> = { in: 'query', read: readExpand, absent: () => undefined };
const FALLBACK: Parameter<Fallback | undefined> = { in: 'query', read: readFallback, absent: () => undefined };

// Built once, not per request; history's date depends on the day and is built per request. Every endpoint's bundle
// holds this module but reads one or two of these sets: with the calls pure-annotated and no set reading another's
// property, esbuild drops the others instead of building them at each cold start.
const AMOUNT = { in: 'query', read: readAmount, absent: () => undefined } satisfies Parameter<string | undefined>;
const LATEST = { base: { ...currency('base', 'query'), absent: () => DEFAULT_BASE }, expand: EXPAND };
const PAIR = {
  from: /* @__PURE__ */ currency('from', 'path'),
  to: /* @__PURE__ */ currency('to', 'path'),
  amount: AMOUNT,
  expand: EXPAND,
};
const CURRENCIES = { locale: LOCALE };
const ENRICHED = {
  from: /* @__PURE__ */ currency('from', 'path'),
  to: /* @__PURE__ */ currency('to', 'path'),
  locale: LOCALE,
  expand: EXPAND,
};
const HISTORY_CODES = {
  from: /* @__PURE__ */ currency('from', 'path', { allowWithdrawn: true }),
  to: /* @__PURE__ */ currency('to', 'path', { allowWithdrawn: true }),
};

const CONVERT = {
  from: /* @__PURE__ */ currency('from', 'path'),
  to: {
    in: 'query',
    read: readTargetList,
    maxLength: MAX_TARGET_LIST_LENGTH,
  } satisfies Parameter<string[]>,
  amount: AMOUNT,
};

/** `base` of GET /rates/latest, EUR when not given, and the optional `expand`. */
export function readLatestQuery(query: unknown): { base: string; expand: Expand | undefined } {
  return readAll(LATEST, { query });
}

/** `from`/`to`, the optional `amount` and `expand` of GET /rates/pair, checked together. */
export function readPairInput(request: RawParameters): {
  from: string;
  to: string;
  amount?: string;
  expand: Expand | undefined;
} {
  const { amount, ...pair } = readAll(PAIR, request);
  return amount === undefined ? pair : { ...pair, amount };
}

/** `locale` of GET /currencies, en when not given. */
export function readLocaleQuery(query: unknown): { locale: Locale } {
  return readAll(CURRENCIES, { query });
}

/** `from`/`to`, `locale` and the optional `expand` of GET /rates/enriched, checked together. */
export function readEnrichedInput(request: RawParameters): {
  from: string;
  to: string;
  locale: Locale;
  expand: Expand | undefined;
} {
  return readAll(ENRICHED, request);
}

/**
 * `from`/`to` (withdrawn codes included), `date` (judged against `today`, UTC) and the optional `fallback` and
 * `expand` of GET /rates/history, path and query checked together.
 */
export function readHistoryInput(
  request: RawParameters,
  today: string,
): { from: string; to: string; date: string; fallback: Fallback | undefined; expand: Expand | undefined } {
  return readAll(
    {
      ...HISTORY_CODES,
      date: { in: 'path', read: (raw: string) => readDay(raw, today) } satisfies Parameter<string>,
      fallback: FALLBACK,
      expand: EXPAND,
    },
    request,
  );
}

/** `from`, the `to` list and the optional `amount` of GET /rates/convert, checked together. */
export function readConvertInput(request: RawParameters): { from: string; to: string[]; amount?: string } {
  const { amount, ...rest } = readAll(CONVERT, request);
  return amount === undefined ? rest : { ...rest, amount };
}

/** Most days one time series covers, both ends included: a leap year. */
export const MAX_SERIES_DAYS = 366;
export const SERIES_FORMATS = ['json', 'csv'] as const;
export type SeriesFormat = (typeof SERIES_FORMATS)[number];

function readSeriesFormat(raw: string): SeriesFormat {
  if (!(SERIES_FORMATS as readonly string[]).includes(raw)) {
    throw new InvalidParameterError('format', "The parameter 'format' must be 'json' or 'csv'.");
  }
  return raw as SeriesFormat;
}

const TIMESERIES_CODES = HISTORY_CODES;
const SERIES_FORMAT = {
  in: 'query',
  read: readSeriesFormat,
  absent: () => undefined,
} satisfies Parameter<SeriesFormat | undefined>;

/**
 * `from`/`to` (withdrawn codes included), `start` and `end` (both required, judged against `today`, UTC) and the
 * optional `format` of GET /rates/timeseries, checked together; then the range itself: `start` after `end`, or
 * more than MAX_SERIES_DAYS days, is a 400 (after every single parameter is known to be well-formed).
 */
export function readTimeseriesInput(
  request: RawParameters,
  today: string,
): { from: string; to: string; start: string; end: string; format: SeriesFormat | undefined } {
  const range = {
    start: { in: 'query', read: (raw: string) => readDay(raw, today, 'start') } satisfies Parameter<string>,
    end: { in: 'query', read: (raw: string) => readDay(raw, today, 'end') } satisfies Parameter<string>,
  };
  const checkRange = ({ start, end }: { start: string; end: string }) => {
    if (start > end) throw new InvalidParameterError('start', `The start ${start} is after the end ${end}.`);
    const days = daysInclusive(start, end);
    if (days > MAX_SERIES_DAYS) {
      throw new InvalidParameterError(
        'end',
        `The range from ${start} to ${end} covers ${days} days; at most ${MAX_SERIES_DAYS} are allowed.`,
      );
    }
  };
  try {
    const input = readAll({ ...TIMESERIES_CODES, ...range, format: SERIES_FORMAT }, request);
    checkRange(input);
    return input;
  } catch (error) {
    // A range that is malformed as a whole is a 400 too, and outranks an unsupported currency (422).
    if (error instanceof ApiError && error.status > 400) checkRange(readAll(range, request));
    throw error;
  }
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
  const expand: ParameterDoc = {
    description:
      '`sources` adds `sources`: each currency involved (except EUR) to the upstream source of its quote against ' +
      'the euro, `ecb` or `currency-api`. EUR has no entry: it is the pivot both sources quote against. Any other ' +
      'value, empty included, is `invalid-parameter`.',
    schema: { type: 'string', enum: ['sources'], maxLength: MAX_PARAMETER_LENGTH },
    example: 'sources',
    errors: [],
  };
  return {
    latest: documented(LATEST, {
      base: currencyDoc('The currency every rate is quoted against.', 'USD', DEFAULT_BASE),
      expand,
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
      expand,
    }),
    // The date's reader is built per request; here it is described by where it is read.
    history: documented(
      { ...HISTORY_CODES, date: { in: 'path' }, fallback: FALLBACK, expand: EXPAND },
      {
        from: currencyDoc(`The base currency. ${withdrawnRule}`, 'USD'),
        to: currencyDoc(`The target currency. ${withdrawnRule}`, 'CHF'),
        date: {
          description: 'The day, `YYYY-MM-DD`: a real calendar day, not after today (UTC).',
          schema: { type: 'string', format: 'date', pattern: DAY_PATTERN.source, maxLength: MAX_PARAMETER_LENGTH },
          example: '2026-04-13',
          errors: ['invalid-date'],
        },
        fallback: {
          description:
            'What to serve for a day without a rate for the pair. Absent: 404 `no-data-available`. `previous`: the ' +
            'nearest earlier day that has one, at most 7 days back (`effective_date` names it; `date` stays the ' +
            'requested day); nothing within 7 days is still 404 `no-data-available`. The ECB publishes reference ' +
            'rates on TARGET business days only (not Saturdays, Sundays, 1 January, Good Friday, Easter Monday, ' +
            '1 May, 25 and 26 December), so its currencies have no rate on those days; currency-api publishes ' +
            'daily. Plan rules apply to the requested date. Any other value, empty included, is ' +
            '`invalid-parameter`.',
          schema: { type: 'string', enum: ['previous'], maxLength: MAX_PARAMETER_LENGTH },
          example: 'previous',
          errors: [],
        },
        expand,
      },
    ),
    convert: documented(CONVERT, {
      from: currencyDoc('The currency converted from.', 'USD'),
      to: {
        description:
          `The currencies converted to: 1 to ${MAX_CONVERT_TARGETS} distinct ISO 4217 codes, case-insensitive, ` +
          'separated by commas without spaces; the results come in this order. An empty item, a code listed twice ' +
          `or more than ${MAX_CONVERT_TARGETS} items is \`invalid-parameter\`, an unsupported code ` +
          '`unsupported-currency`; the message names the item.',
        schema: {
          type: 'string',
          pattern: `^[A-Za-z]{3}(,[A-Za-z]{3}){0,${MAX_CONVERT_TARGETS - 1}}$`,
          maxLength: MAX_TARGET_LIST_LENGTH,
        },
        example: 'EUR,JPY,GBP',
        errors: ['unsupported-currency'],
      },
      amount: {
        description:
          'An amount of `from` to convert into each target, with the same rules as the pair endpoint: a plain ' +
          'decimal greater than 0 and less than 1000000000000. Without it, only the rates are returned.',
        schema: { type: 'string', pattern: AMOUNT_PATTERN.source, maxLength: MAX_PARAMETER_LENGTH },
        example: '250',
        errors: ['invalid-amount'],
      },
    }),
    currencies: documented(CURRENCIES, { locale }),
    enriched: documented(ENRICHED, {
      from: currencyDoc("The currency of the pair's base.", 'EUR'),
      to: currencyDoc("The currency of the pair's target.", 'GBP'),
      locale,
      expand,
    }),
    quota: {},
    // start and end are built per request (they depend on the day); here they are described by where they are read.
    timeseries: documented(
      { ...TIMESERIES_CODES, start: { in: 'query' }, end: { in: 'query' }, format: SERIES_FORMAT },
      {
        from: currencyDoc(`The base currency. ${withdrawnRule}`, 'USD'),
        to: currencyDoc(`The target currency. ${withdrawnRule}`, 'JPY'),
        start: {
          description:
            'The first day of the range, `YYYY-MM-DD`: a real calendar day, not after today (UTC), and not after ' +
            '`end` (else `invalid-parameter`).',
          schema: { type: 'string', format: 'date', pattern: DAY_PATTERN.source, maxLength: MAX_PARAMETER_LENGTH },
          example: '2025-10-01',
          errors: ['invalid-date'],
        },
        end: {
          description:
            `The last day of the range, \`YYYY-MM-DD\`, not after today (UTC). At most ${MAX_SERIES_DAYS} days ` +
            'from `start` to `end`, both included (a leap year); a longer range is `invalid-parameter`.',
          schema: { type: 'string', format: 'date', pattern: DAY_PATTERN.source, maxLength: MAX_PARAMETER_LENGTH },
          example: '2026-09-29',
          errors: ['invalid-date'],
        },
        format: {
          description:
            '`json` (the envelope) or `csv` (`date,rate` rows after a header line, CRLF line ends, as an ' +
            'attachment). Without it, `Accept: text/csv` asks for CSV; given, it wins over `Accept`. Any other ' +
            'value is `invalid-parameter`. Errors are JSON either way.',
          schema: { type: 'string', enum: SERIES_FORMATS, maxLength: MAX_PARAMETER_LENGTH },
          example: 'json',
          errors: [],
        },
      },
    ),
    sources: {},
  };
}

/**
 * Every route's parameters, in reading order, for the API reference (api-docs/): the readers' own specs (where
 * each is read, its value when absent) with their docs. Only the reference reads it.
 */
export const ROUTE_PARAMETERS = /* @__PURE__ */ routeParameters();
