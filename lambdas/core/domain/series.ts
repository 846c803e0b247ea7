/**
 * Time series of one currency pair, built from per-currency calendar-year series (one stored item per currency
 * and year, see store/tables.ts), with the summary over the period. Pure: no clock, no store.
 */
import { daysBetween } from './dates';
import { type Decimal, decimal, divide, multiply, subtract, toPlain } from './decimal';
import { crossRate } from './rates';

/** The first year any source has data for (the ECB's history starts on 1999-01-04). */
export const SERIES_FIRST_YEAR = 1999;
/** A table whose marker (META#series) names another is rebuilt; until then the time series answers 503. */
export const SERIES_VERSION = 1;
export const CHANGE_PCT_PLACES = 4;

/** One currency's EUR rates over one calendar year, exactly as stored in its day items, ascending by day. */
export interface CurrencyYear {
  code: string;
  year: number;
  /** `YYYY-MM-DD`, ascending, all in `year`. */
  dates: readonly string[];
  /** `rates[i]` is the currency's EUR rate on `dates[i]`. */
  rates: readonly number[];
}

export interface SeriesPoint {
  date: string;
  rate: number;
}

/** The attribute of a year's series item that holds one day: `d` and the day's month and day (`d0104`). */
export function seriesAttribute(date: string): string {
  return `d${date.slice(5, 7)}${date.slice(8, 10)}`;
}

const ATTRIBUTE = /^d(\d{2})(\d{2})$/;

/** The day an attribute of year `year`'s item names; undefined for any other attribute (`pk`). */
export function attributeDay(attribute: string, year: number): string | undefined {
  const m = ATTRIBUTE.exec(attribute);
  return m ? `${String(year).padStart(4, '0')}-${m[1]}-${m[2]}` : undefined;
}

export function yearsOf(start: string, end: string): number[] {
  const years: number[] = [];
  for (let year = Number(start.slice(0, 4)); year <= Number(end.slice(0, 4)); year++) years.push(year);
  return years;
}

export function daysInclusive(start: string, end: string): number {
  return daysBetween(start, end) + 1;
}

/** Computed by the very function history uses, so each rate equals history's answer digit for digit. */
export function pairYear(from: CurrencyYear, to: CurrencyYear): SeriesPoint[] {
  const points: SeriesPoint[] = [];
  let i = 0;
  let j = 0;
  while (i < from.dates.length && j < to.dates.length) {
    const a = from.dates[i] as string;
    const b = to.dates[j] as string;
    if (a < b) i++;
    else if (b < a) j++;
    else {
      const rates: Record<string, number> = { [from.code]: from.rates[i] as number, [to.code]: to.rates[j] as number };
      const rate = crossRate(rates, from.code, to.code);
      if (rate !== undefined) points.push({ date: a, rate });
      i++;
      j++;
    }
  }
  return points;
}

export function withinRange(points: readonly SeriesPoint[], start: string, end: string): SeriesPoint[] {
  let lo = 0;
  while (lo < points.length && (points[lo] as SeriesPoint).date < start) lo++;
  let hi = lo;
  while (hi < points.length && (points[hi] as SeriesPoint).date <= end) hi++;
  return points.slice(lo, hi);
}

export interface SeriesSummary {
  first: SeriesPoint;
  last: SeriesPoint;
  change: string;
  /** `change / first × 100`, rounded half-even to CHANGE_PCT_PLACES places, as a plain decimal. */
  changePct: string;
  /** The lowest rate; on a tie, its earliest day. */
  min: SeriesPoint;
  /** The highest rate; on a tie, its earliest day. */
  max: SeriesPoint;
}

/** The summary over a non-empty series (ascending); undefined for an empty one. */
export function summarize(points: readonly SeriesPoint[]): SeriesSummary | undefined {
  const first = points[0];
  const last = points[points.length - 1];
  if (!first || !last) return undefined;
  let min = first;
  let max = first;
  // Strict comparisons keep the earliest of equal rates. Rates are 8-digit decimals read as doubles, which order
  // as the decimals do.
  for (const point of points) {
    if (point.rate < min.rate) min = point;
    if (point.rate > max.rate) max = point;
  }
  const firstRate: Decimal = decimal(first.rate);
  const change = subtract(decimal(last.rate), firstRate);
  const changePct = divide(multiply(change, decimal(100)), firstRate, CHANGE_PCT_PLACES);
  return { first, last, change: toPlain(change), changePct: toPlain(changePct), min, max };
}
