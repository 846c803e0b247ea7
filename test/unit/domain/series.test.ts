import { decimal, subtract, toPlain } from '../../../lambdas/core/domain/decimal';
import { crossRate } from '../../../lambdas/core/domain/rates';
import {
  attributeDay,
  type CurrencyYear,
  daysInclusive,
  pairYear,
  type SeriesPoint,
  seriesAttribute,
  summarize,
  withinRange,
  yearsOf,
} from '../../../lambdas/core/domain/series';

const year = (code: string, days: Record<string, number>): CurrencyYear => {
  const dates = Object.keys(days).sort();
  return { code, year: 2026, dates, rates: dates.map((d) => days[d] as number) };
};
const points = (...rates: number[]): SeriesPoint[] =>
  rates.map((rate, i) => ({ date: `2026-01-${String(i + 1).padStart(2, '0')}`, rate }));

describe('pairYear', () => {
  const usd = year('USD', { '2026-01-02': 1.0321, '2026-01-05': 1.0412, '2026-01-06': 1.0399 });
  const jpy = year('JPY', { '2026-01-02': 162.91, '2026-01-03': 163.5, '2026-01-06': 164.07 });

  it('answers only the days on which both currencies have a rate, ascending', () => {
    expect(pairYear(usd, jpy).map((p) => p.date)).toEqual(['2026-01-02', '2026-01-06']);
  });

  it("computes each rate as history's crossRate does over the same stored EUR rates", () => {
    for (const point of pairYear(usd, jpy)) {
      const day = { USD: usd.rates[usd.dates.indexOf(point.date)] as number, JPY: 0 };
      day.JPY = jpy.rates[jpy.dates.indexOf(point.date)] as number;
      expect(point.rate).toBe(crossRate(day, 'USD', 'JPY'));
    }
    // 162.91 / 1.0321 = 157.843232…, to 8 significant digits.
    expect(pairYear(usd, jpy)[0]?.rate).toBe(157.84323);
  });

  it('answers 1 for a currency against itself and the EUR rate against the EUR series', () => {
    expect(pairYear(usd, usd).map((p) => p.rate)).toEqual([1, 1, 1]);
    const eur = year('EUR', { '2026-01-02': 1, '2026-01-05': 1 });
    expect(pairYear(eur, usd)).toEqual([
      { date: '2026-01-02', rate: 1.0321 },
      { date: '2026-01-05', rate: 1.0412 },
    ]);
    expect(pairYear(usd, eur)[0]?.rate).toBe(crossRate({ USD: 1.0321 }, 'USD', 'EUR'));
  });

  it('answers nothing when the currencies share no day', () => {
    expect(pairYear(usd, year('AED', { '2026-01-03': 4.1 }))).toEqual([]);
  });
});

describe('withinRange, yearsOf, daysInclusive', () => {
  const all = points(1, 2, 3, 4, 5);
  it('keeps the points from start to end, both included', () => {
    expect(withinRange(all, '2026-01-02', '2026-01-04').map((p) => p.rate)).toEqual([2, 3, 4]);
    expect(withinRange(all, '2025-12-01', '2026-01-01').map((p) => p.rate)).toEqual([1]);
    expect(withinRange(all, '2026-01-06', '2026-01-31')).toEqual([]);
  });
  it('lists the calendar years a range touches', () => {
    expect(yearsOf('2025-03-01', '2026-02-28')).toEqual([2025, 2026]);
    expect(yearsOf('2024-01-01', '2024-12-31')).toEqual([2024]);
  });
  it('counts both ends: a leap year is 366 days', () => {
    expect(daysInclusive('2024-01-01', '2024-12-31')).toBe(366);
    expect(daysInclusive('2026-04-13', '2026-04-13')).toBe(1);
  });
});

describe('series attributes', () => {
  it('name a day by its month and day, and read back only such names', () => {
    expect(seriesAttribute('2026-01-04')).toBe('d0104');
    expect(attributeDay('d1231', 1999)).toBe('1999-12-31');
    expect(attributeDay('pk', 1999)).toBeUndefined();
    expect(attributeDay('d123', 1999)).toBeUndefined();
  });
});

describe('summarize', () => {
  it('is undefined for an empty series', () => {
    expect(summarize([])).toBeUndefined();
  });

  it('gives first, last and a change of 0 for one point', () => {
    const [only] = points(147.61);
    expect(summarize([only as SeriesPoint])).toEqual({
      first: only,
      last: only,
      change: '0',
      changePct: '0',
      min: only,
      max: only,
    });
  });

  it('computes the change exactly in decimal: 0.3 − 0.1 is 0.2', () => {
    expect(summarize(points(0.1, 0.3))?.change).toBe('0.2');
    expect(0.3 - 0.1).not.toBe(0.2);
    expect(summarize(points(147.61, 0.00012345))?.change).toBe('-147.60987655');
  });

  it('rounds the percentage half-even to 4 places', () => {
    // 0.0001 / 8 × 100 = 0.00125 → 0.0012 (2 is even); 0.0003 / 8 × 100 = 0.00375 → 0.0038.
    expect(summarize(points(8, 8.0001))?.changePct).toBe('0.0012');
    expect(summarize(points(8, 8.0003))?.changePct).toBe('0.0038');
    expect(summarize(points(8, 7.9999))?.changePct).toBe('-0.0012');
    expect(summarize(points(3, 4))?.changePct).toBe('33.3333');
    expect(summarize(points(3, 5))?.changePct).toBe('66.6667');
  });

  it('names the earliest day among equal minima and maxima', () => {
    const summary = summarize(points(2, 1, 3, 1, 3, 2));
    expect(summary?.min).toEqual({ date: '2026-01-02', rate: 1 });
    expect(summary?.max).toEqual({ date: '2026-01-03', rate: 3 });
  });
});

describe('decimal subtract', () => {
  it('aligns exponents and is exact', () => {
    expect(toPlain(subtract(decimal('1.5'), decimal('0.25')))).toBe('1.25');
    expect(toPlain(subtract(decimal(1e-7), decimal('2')))).toBe('-1.9999999');
    expect(toPlain(subtract(decimal('100'), decimal('100.000')))).toBe('0');
  });
});
