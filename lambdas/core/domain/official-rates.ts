/**
 * The rule that picks one rate per currency among official publishers, and the exact conversion of a publisher's
 * quotes to the euro pivot. Pure: the ingestion and the tests feed it parsed days.
 *
 * The rule, in order of precedence for a currency on a day:
 *   1. the ECB, for the currencies it quotes;
 *   2. the currency's issuing central bank (the publisher whose own currency it is), through its quote of the euro;
 *   3. the other official publishers, in the configured order, daily tables before weekly ones;
 *   4. the aggregator (currency-api), only where no official publisher quotes the currency.
 * A publisher's quotes reach the euro through its own quote of the euro that day; a publisher that does not quote
 * the euro goes through the rate served for its currency that day (which rule 2 or the ECB decides), else not at all.
 */
import { type Decimal, decimal, divide, multiply, roundToSignificant, subtract, toPlain } from './decimal';
import { PIVOT } from './rates';

/** Significant digits a converted rate keeps: more than the 8 served, so a cross rate rounds from exact digits. */
export const CONVERTED_DIGITS = 12;

/** `amount` units of a currency cost `price` units of the publisher's own currency (plain decimal text). */
export interface Quote {
  amount: string;
  price: string;
}

/** One publisher's day as its parser returns it (sources/central-banks/official-day.ts). */
export interface PublishedDay {
  publisher: string;
  date: string;
  quoteCurrency: string;
  cadence: 'daily' | 'weekly';
  quotes: Readonly<Record<string, Quote>>;
}

const rate = (value: Decimal): number => Number(toPlain(roundToSignificant(value, CONVERTED_DIGITS)));

/**
 * The day against the euro: units of each currency per 1 EUR, its own currency included, EUR itself 1.
 * Undefined when neither gives a way to the euro.
 *
 * The `fallback` is a quote of the euro in the publisher's currency from elsewhere: its other table of the same day (NBP's
 * weekly table B has no euro; table A has), or the rate served for its currency that day as `{amount: rate, price: 1}`.
 */
export function toEuroRates(day: PublishedDay, fallback?: Quote): Record<string, number> | undefined {
  // Units of own currency per EUR as the fraction price/amount, so each rate is one exact division.
  const euro = day.quotes[PIVOT] ?? fallback;
  if (!euro) return undefined;
  const num = decimal(euro.price);
  const den = decimal(euro.amount);
  const rates: Record<string, number> = { [PIVOT]: 1, [day.quoteCurrency]: rate(divide(num, den)) };
  for (const [code, quote] of Object.entries(day.quotes)) {
    if (code === PIVOT || code === day.quoteCurrency) continue;
    // code per EUR = (amount / price) × (own per EUR) = amount × num / (price × den)
    rates[code] = rate(divide(multiply(decimal(quote.amount), num), multiply(decimal(quote.price), den)));
  }
  return rates;
}

/** What the rule needs to know of a source besides its place in the order. */
export interface RankedSource {
  /** The currency whose issuing bank the source is (PLN for NBP); undefined for the ECB and the aggregator. */
  currency?: string;
  /** Whether the source's quote of `code` comes from a weekly table. */
  weekly?(code: string): boolean;
}

/**
 * Where `source` stands for `code` under the rule: lower wins; Infinity for a source the rule does not use.
 * `order` is the configured sources in precedence order, the ECB and the aggregator among them.
 */
export function rankFor(
  order: readonly string[],
  facts: (source: string) => RankedSource | undefined,
  aggregator: string,
  source: string,
  code: string,
): number {
  const index = order.indexOf(source);
  if (index < 0) return Number.POSITIVE_INFINITY;
  if (source === 'ecb') return 0;
  if (source === aggregator) return 3 * order.length;
  const fact = facts(source);
  if (fact?.currency === code) return 1;
  return (fact?.weekly?.(code) ? 2 * order.length : order.length) + index;
}

/** |value − served| / served, exact, then rounded to 6 significant digits for display. */
export function spreadOf(value: number, served: number): number {
  const difference = subtract(decimal(value), decimal(served));
  const magnitude = difference.coefficient < 0n ? { ...difference, coefficient: -difference.coefficient } : difference;
  return Number(toPlain(roundToSignificant(divide(magnitude, decimal(served), 20), 6)));
}

export interface CrossCheck {
  code: string;
  /** The publisher checked against the served rate. */
  source: string;
  rate: number;
  /** The publisher whose rate is served, and that rate. */
  servedBy: string;
  served: number;
  spread: number;
  overTolerance: boolean;
}

/**
 * Every official quote of a day against the rate served for its currency that day, where the served rate came
 * from another publisher. `quotes` are the day's rates per source, against the euro.
 */
export function crossCheck(
  served: { rates: Readonly<Record<string, number>>; sources: Readonly<Record<string, string>> },
  quotes: ReadonlyMap<string, Readonly<Record<string, number>>>,
  tolerance: number,
  aggregator: string,
): CrossCheck[] {
  const checks: CrossCheck[] = [];
  for (const [source, rates] of quotes) {
    if (source === aggregator) continue;
    for (const [code, value] of Object.entries(rates)) {
      const servedBy = served.sources[code];
      const servedRate = served.rates[code];
      if (code === PIVOT || servedBy === undefined || servedBy === source || servedRate === undefined) continue;
      const spread = spreadOf(value, servedRate);
      checks.push({
        code,
        source,
        rate: value,
        servedBy,
        served: servedRate,
        spread,
        overTolerance: spread > tolerance,
      });
    }
  }
  return checks.sort((a, b) => (a.code === b.code ? (a.source < b.source ? -1 : 1) : a.code < b.code ? -1 : 1));
}
