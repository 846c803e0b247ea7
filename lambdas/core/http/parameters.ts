/**
 * How the endpoints read their path and query parameters into values or refuse them with the documented errors
 * (openapi.json): the value readers and the parameters several routes share. Each route declares its own set, with
 * each parameter's documentation, in its module (lambdas/core/endpoints/<id>.ts) and reads it with `readAll`.
 * Hand-written rather than schemas, for a handful of string checks: docs/clever-parts.md#measured-and-left-alone.
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

/** Longer values are refused before any other check: no currency, date, amount or locale is this long. */
export const MAX_PARAMETER_LENGTH = 64;
export const AMOUNT_PATTERN = /^\d+(\.\d+)?$/;
export const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
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
export interface Parameter<T> {
  in: 'path' | 'query';
  read: (raw: string) => T;
  /** Without it, a parameter that is not given is refused as required. */
  absent?: () => T;
  /** Longest raw value read; MAX_PARAMETER_LENGTH unless a list needs more. */
  maxLength?: number;
}

export type Values<P> = { [K in keyof P]: P[K] extends Parameter<infer T> ? T : never };

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
 * `build(today)`, built again only when `today` changes: the parameters of a route that judges days against today
 * are the same all day, and building them (an object and a closure per day parameter) cost each request.
 */
export function sameAllDay<T>(build: (today: string) => T): (today: string) => T {
  let day: string | undefined;
  let built: T | undefined;
  return (today) => {
    if (today !== day) {
      built = build(today);
      day = today;
    }
    return built as T;
  };
}

/**
 * Reads every parameter, in order. With several faults, a 400 (malformed) wins over a 422 (well-formed but
 * unsupported); among equals, the first in order.
 */
export function readAll<P extends Record<string, Parameter<unknown>>>(
  parameters: P,
  request: RawParameters,
): Values<P> {
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

/** readAll for a route whose `amount` is optional: the key is left out when the request gives none. */
export function readWithAmount<
  P extends Record<string, Parameter<unknown>> & { amount: Parameter<string | undefined> },
>(parameters: P, request: RawParameters) {
  const { amount, ...rest } = readAll(parameters, request);
  return amount === undefined ? rest : { ...rest, amount };
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

/** A currency code in the path or the query, refused naming `param`. */
export const currency = (
  param: ErrorParam,
  place: Parameter<string>['in'],
  options: { allowWithdrawn?: boolean } = {},
): Parameter<string> => ({ in: place, read: (raw) => readCurrencyCode(raw, param, options) });

export const DEFAULT_LOCALE: Locale = 'en';

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

// The parameters several routes read. Plain objects: a bundle keeps only those its route reads.
export const LOCALE: Parameter<Locale> = { in: 'query', read: readLocale, absent: () => DEFAULT_LOCALE };
export const EXPAND: Parameter<Expand | undefined> = { in: 'query', read: readExpand, absent: () => undefined };
export const FALLBACK: Parameter<Fallback | undefined> = { in: 'query', read: readFallback, absent: () => undefined };
export const AMOUNT: Parameter<string | undefined> = { in: 'query', read: readAmount, absent: () => undefined };

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

export const SERIES_FORMAT: Parameter<SeriesFormat | undefined> = {
  in: 'query',
  read: readSeriesFormat,
  absent: () => undefined,
};

// --- the API reference ----------------------------------------------------------------------------------------
// What api-docs/ renders into the OpenAPI document. Each route's module joins its parameters to their docs in its
// `docs()`, which no function calls: a function's bundle leaves all of it out.

/** A parameter as the API reference sees it: where it is read, whether it has a value when absent, its doc. */
export interface DocumentedParameter {
  in: Parameter<unknown>['in'];
  absent?: () => unknown;
  doc: ParameterDoc;
}

/** Joins each spec of a route, in reading order, to its doc; the type makes every spec have one. */
export function documented<P extends Record<string, Pick<Parameter<unknown>, 'in' | 'absent'>>>(
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
