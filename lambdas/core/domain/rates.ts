import { type Decimal, decimal, divide, multiply, roundToPlaces, roundToSignificant, toPlain } from './decimal';
import { CENTRAL_BANK_IDS } from './publishers';

export const PIVOT = 'EUR';
export const RATE_SIGNIFICANT_DIGITS = 8;
export const CONVERTED_DECIMAL_PLACES = 6;

/**
 * The upstream sources, in the default order of precedence where several quote a currency (the rule in
 * official-rates.ts: the ECB, then a currency's issuing bank, then the other official publishers in this order,
 * the aggregator last): the one list of them. Each has its facts in SOURCE_SCHEDULES (source-facts.ts) and its
 * adapter in sources/registry.ts, both keyed by these ids.
 */
export const SOURCE_IDS = ['ecb', ...CENTRAL_BANK_IDS, 'currency-api'] as const;
/** The source that aggregates others, served only where no official publisher quotes a currency. */
export const AGGREGATOR = 'currency-api' satisfies SourceId;
export type SourceId = (typeof SOURCE_IDS)[number];

/**
 * A day's rates are final once the day is more than this many days before today (UTC): until then a late source
 * can still add currencies to it. The endpoints' memory caches and the answers' Cache-Control both follow it.
 */
export const SETTLED_AFTER_DAYS = 7;

/** The variable that names the configured sources: the ingest function's, and the sources route's (GET /v1/sources). */
export const SOURCES_ENV = 'SOURCES';

/**
 * Parses a `SOURCES` list such as `ecb,currency-api`, keeping the order given (a repeated id stays at its first
 * place): that order ranks the central banks under the rate rule. Unknown or empty lists are configuration errors.
 */
export function parseSourceList(text: string): SourceId[] {
  const ids = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = ids.filter((id) => !(SOURCE_IDS as readonly string[]).includes(id));
  if (unknown.length > 0 || ids.length === 0) {
    throw new Error(`${SOURCES_ENV} must list some of ${SOURCE_IDS.join(', ')}; got '${text}'`);
  }
  return [...new Set(ids as SourceId[])];
}

/**
 * The configured sources in the order the rate rule ranks them (domain/official-rates.ts): the ECB first, the
 * aggregator last, the central banks between them in the configured order (which also ranks them for the
 * currencies none of them issues).
 */
export function inPrecedence(configured: readonly SourceId[]): SourceId[] {
  const place = (id: SourceId) => (id === 'ecb' ? 0 : id === AGGREGATOR ? 2 : 1);
  return [...configured].sort((a, b) => place(a) - place(b));
}

/** One day (or LATEST) of rates: every currency against EUR, as stored. */
export interface RateSnapshot {
  /** `YYYY-MM-DD` of the data; for LATEST the newest contributing day. */
  date: string;
  /** code → units of that currency per 1 EUR; EUR itself is 1. */
  rates: Record<string, number>;
  /** code → source that supplied it. */
  sources: Record<string, SourceId>;
  /** ISO 8601 UTC: when the newest contributing source published the data. */
  publishedAt: string;
}

function sameRecord(a: Readonly<Record<string, unknown>>, b: Readonly<Record<string, unknown>>): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => Object.hasOwn(b, key) && a[key] === b[key]);
}

/** Same day, publication, rates and sources: what ingestion compares before writing, and caches before re-deriving. */
export function sameSnapshot(a: RateSnapshot | undefined, b: RateSnapshot | undefined): boolean {
  if (!a || !b) return a === b;
  return (
    a.date === b.date &&
    a.publishedAt === b.publishedAt &&
    sameRecord(a.rates, b.rates) &&
    sameRecord(a.sources, b.sources)
  );
}

/** Rounds to the documented 8 significant digits, half-even, and returns a JSON-safe number. */
export function roundRate(value: Decimal): number {
  return Number(toPlain(roundToSignificant(value, RATE_SIGNIFICANT_DIGITS)));
}

/**
 * rate(A→B) = eur[B] / eur[A], computed in decimal so the 8 digits shown are the true quotient's.
 * Returns undefined when either currency has no rate in the snapshot.
 */
export function crossRate(eurRates: Readonly<Record<string, number>>, from: string, to: string): number | undefined {
  if (from === to) return eurRates[from] === undefined && from !== PIVOT ? undefined : 1;
  const a = from === PIVOT ? 1 : eurRates[from];
  const b = to === PIVOT ? 1 : eurRates[to];
  if (a === undefined || b === undefined) return undefined;
  return roundRate(divide(decimal(b), decimal(a)));
}

/** Every currency of the snapshot against `base`, the base included (value 1). */
export function rateTable(eurRates: Readonly<Record<string, number>>, base: string): Record<string, number> {
  const table: Record<string, number> = {};
  const baseRate = base === PIVOT ? 1 : eurRates[base];
  if (baseRate === undefined) return table;
  const divisor = decimal(baseRate);
  for (const code of Object.keys(eurRates).sort()) {
    const value = eurRates[code];
    if (value === undefined) continue;
    table[code] = code === base ? 1 : roundRate(divide(decimal(value), divisor));
  }
  table[base] = 1;
  return table;
}

/**
 * converted = amount × rate, with the rate as shown (8 significant digits), in decimal arithmetic,
 * rounded half-even to 6 decimal places. Returns the exact decimal string.
 */
export function convert(amount: string, rate: number): string {
  return toPlain(roundToPlaces(multiply(decimal(amount), decimal(rate)), CONVERTED_DECIMAL_PLACES));
}
