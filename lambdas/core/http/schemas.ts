import * as z from 'zod/mini';
import { isActiveCode, isCatalogCode, LOCALES, type Locale } from '../domain/currencies';
import { parseDay } from '../domain/dates';
import {
  ApiError,
  type ErrorParam,
  InvalidAmountError,
  InvalidDateError,
  InvalidParameterError,
  UnsupportedCurrencyError,
  UnsupportedLocaleError,
} from '../domain/errors';

// Every schema below is built by a pure-annotated call, so esbuild leaves out of each function's bundle (and its
// cold start) the schemas of the other routes.

/** Longer values are refused before any other check: no currency, date, amount or locale is this long. */
export const MAX_PARAMETER_LENGTH = 64;
const AMOUNT_PATTERN = /^\d+(\.\d+)?$/;
const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
const MAX_AMOUNT = 1_000_000_000_000;

type Ctx = z.core.ParsePayload;

/** Carries the contract's error inside a zod issue, so one mapping turns any failed parse into an ApiError. */
function fail(ctx: Ctx, value: unknown, error: ApiError): never {
  ctx.issues.push({ code: 'custom', message: error.message, input: value, params: { apiError: error } });
  return z.NEVER as never;
}

const bounded = (param: ErrorParam) =>
  z.string().check(
    z.refine((v) => v.length <= MAX_PARAMETER_LENGTH, {
      params: { apiError: new InvalidParameterError(param, `The parameter '${param}' is too long.`) },
      abort: true,
    }),
  );

/** A bounded string parameter turned into its value by `parse`, which reports faults through `fail`. */
const parameter = <T>(param: ErrorParam, parse: (raw: string, ctx: Ctx) => T) =>
  z.pipe(bounded(param), z.transform(parse));

/** A currency code as written by a client: case-insensitive, upper-cased, in the catalog (active unless `withdrawn`). */
export const currencyCodeSchema = (param: ErrorParam, options: { allowWithdrawn?: boolean } = {}) =>
  parameter(param, (raw, ctx) => {
    const code = raw.toUpperCase();
    // ASCII letters only: toUpperCase alone would turn a Turkish dotless ı into I and accept 'ınr' as INR.
    const ascii = /^[A-Za-z]{3}$/.test(raw);
    const known = ascii && (options.allowWithdrawn ? isCatalogCode(code) : isActiveCode(code));
    // Non-ASCII input is echoed as sent: upper-casing could turn it into a code that is supported.
    return known ? code : fail(ctx, raw, new UnsupportedCurrencyError(ascii ? code : raw, param));
  });

export const LocaleSchema = /* @__PURE__ */ (() =>
  parameter(
    'locale',
    (raw, ctx): Locale =>
      (LOCALES as readonly string[]).includes(raw) ? (raw as Locale) : fail(ctx, raw, new UnsupportedLocaleError(raw)),
  ))();

/** A plain decimal `0 < amount < 10^12`; kept as its string so no binary float ever touches it. */
export const AmountSchema = /* @__PURE__ */ (() =>
  parameter('amount', (raw, ctx) => {
    if (!AMOUNT_PATTERN.test(raw)) return fail(ctx, raw, new InvalidAmountError());
    const [whole = '', fraction = ''] = raw.split('.');
    const wholeDigits = whole.replace(/^0+(?=\d)/, '');
    const isZero = /^0+$/.test(wholeDigits) && /^0*$/.test(fraction);
    if (isZero || wholeDigits.length > String(MAX_AMOUNT).length || Number(wholeDigits) >= MAX_AMOUNT) {
      return fail(ctx, raw, new InvalidAmountError());
    }
    const trimmedFraction = fraction.replace(/0+$/, '');
    return trimmedFraction ? `${wholeDigits}.${trimmedFraction}` : wholeDigits;
  }))();

/** `YYYY-MM-DD`, a real calendar day, not after `today` (UTC). */
export const daySchema = (today: () => string) =>
  parameter('date', (raw, ctx) => {
    if (!DAY_PATTERN.test(raw)) return fail(ctx, raw, new InvalidDateError('format'));
    if (!parseDay(raw)) return fail(ctx, raw, new InvalidDateError('calendar'));
    if (raw > today()) return fail(ctx, raw, new InvalidDateError('future'));
    return raw;
  });

export const PairPathSchema = /* @__PURE__ */ (() =>
  z.object({ from: currencyCodeSchema('from'), to: currencyCodeSchema('to') }))();

export const LatestQuerySchema = /* @__PURE__ */ (() =>
  z.object({ base: z._default(currencyCodeSchema('base'), 'EUR') }))();

export const PairQuerySchema = /* @__PURE__ */ (() => z.object({ amount: z.optional(AmountSchema) }))();

export const LocaleQuerySchema = /* @__PURE__ */ (() =>
  z.object({ locale: z._default(LocaleSchema, 'en' as const) }))();

export const historyPathSchema = (today: () => string) =>
  z.object({
    from: currencyCodeSchema('from', { allowWithdrawn: true }),
    to: currencyCodeSchema('to', { allowWithdrawn: true }),
    date: daySchema(today),
  });

/**
 * Parses with a schema and throws the contract's error. With several faults, a 400 (malformed) wins over a 422
 * (well-formed but unsupported); among equals, the first in the schema's order.
 */
export function parseOrThrow<S extends z.ZodMiniType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const errors = result.error.issues.map((issue) => {
    const carried = (issue as { params?: { apiError?: unknown } }).params?.apiError;
    if (carried instanceof ApiError) return carried;
    const param = String(issue.path.at(-1) ?? 'parameter');
    return new InvalidParameterError(param, `The parameter '${param}' is malformed.`);
  });
  const first = errors.reduce((best, e) => (e.status < best.status ? e : best));
  throw first;
}
