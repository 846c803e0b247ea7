import fc from 'fast-check';
import {
  CONVERTED_DECIMAL_PLACES,
  convert,
  crossRate,
  inPrecedence,
  PIVOT,
  parseSourceList,
  RATE_SIGNIFICANT_DIGITS,
  rateTable,
} from '../../../lambdas/core/domain/rates';
import { bundledFiles, readBundledDays } from '../../../local-server/bundled-data';
import { divide, multiply, ofNumber, parseDecimal, significantDigits, toPlaces, toSignificant } from './exact-decimal';

const CODES = ['USD', 'JPY', 'GBP', 'CHF', 'IDR', 'KWD', 'VND', 'BHD'] as const;

/** Rates as the ECB writes them: up to 6 significant digits. */
const ecbStyleRate = fc
  .tuple(fc.integer({ min: 1, max: 999_999 }), fc.integer({ min: 0, max: 8 }))
  .map(([digits, places]) => Number(`${digits}e-${places}`));
/** Rates as currency-api writes them: full doubles, from 0.0001 (BTC-like excluded) to a million. */
const doubleRate = fc.double({ min: 1e-4, max: 1e6, noNaN: true, noDefaultInfinity: true });
const eurRate = fc.oneof(ecbStyleRate, doubleRate);

const snapshotRates = fc
  .tuple(...CODES.map(() => eurRate))
  .map(
    (values) =>
      Object.fromEntries([[PIVOT, 1], ...CODES.map((code, i) => [code, values[i]])]) as Record<string, number>,
  );

const code = fc.constantFrom(PIVOT, ...CODES);

/** The exact quotient eur[to] / eur[from] rounded half-even to 8 significant digits, as a number. */
function expectedRate(rates: Record<string, number>, from: string, to: string): number {
  const a = rates[from];
  const b = rates[to];
  if (a === undefined || b === undefined) throw new Error('test rates must contain both codes');
  return Number(toSignificant(divide(ofNumber(b), ofNumber(a)), RATE_SIGNIFICANT_DIGITS));
}

describe('crossRate', () => {
  it('equals the exact quotient eur[to] / eur[from] rounded half-even to 8 significant digits', () => {
    fc.assert(
      fc.property(snapshotRates, code, code, (rates, from, to) => {
        fc.pre(from !== to);
        expect(crossRate(rates, from, to)).toBe(expectedRate(rates, from, to));
      }),
    );
  });

  it('gives rate(A→B) × rate(B→A) within the rounding error of two 8-digit values of 1', () => {
    // Each rounded rate is within half a unit in the 8th digit: a relative error of at most 5e-8.
    const bound = 2 * 5e-8 + 1e-14;
    fc.assert(
      fc.property(snapshotRates, code, code, (rates, a, b) => {
        const there = crossRate(rates, a, b);
        const back = crossRate(rates, b, a);
        expect(there).toBeDefined();
        expect(back).toBeDefined();
        expect(Math.abs((there ?? 0) * (back ?? 0) - 1)).toBeLessThanOrEqual(bound);
      }),
    );
  });

  it('is exactly 1 from a currency to itself', () => {
    fc.assert(
      fc.property(snapshotRates, code, (rates, a) => {
        expect(crossRate(rates, a, a)).toBe(1);
      }),
    );
  });

  it('never shows more than 8 significant digits', () => {
    fc.assert(
      fc.property(snapshotRates, code, code, (rates, a, b) => {
        const rate = crossRate(rates, a, b);
        expect(rate).toBeGreaterThan(0);
        expect(significantDigits(rate ?? 0)).toBeLessThanOrEqual(RATE_SIGNIFICANT_DIGITS);
      }),
    );
  });

  it('treats EUR as 1 even when the snapshot does not list it', () => {
    const rates = { USD: 1.1789 };
    expect(crossRate(rates, 'EUR', 'USD')).toBe(1.1789);
    expect(crossRate(rates, 'USD', 'EUR')).toBe(expectedRate({ EUR: 1, USD: 1.1789 }, 'USD', 'EUR'));
    expect(crossRate(rates, 'EUR', 'EUR')).toBe(1);
  });

  it('is undefined when either currency has no rate that day', () => {
    const rates = { EUR: 1, USD: 1.1789 };
    expect(crossRate(rates, 'USD', 'CYP')).toBeUndefined();
    expect(crossRate(rates, 'CYP', 'USD')).toBeUndefined();
    expect(crossRate(rates, 'CYP', 'CYP')).toBeUndefined();
  });
});

describe('rates of the real bundled ECB history', () => {
  const firstDay = readBundledDays(bundledFiles(), { from: '1999-01-04', to: '1999-01-04' }).ecb[0];

  it('reads the first ECB day as the ECB published it (EUR→USD 1.1789, EUR→JPY 133.73)', () => {
    expect(firstDay?.date).toBe('1999-01-04');
    expect(firstDay?.rates.USD).toBe(1.1789);
    expect(firstDay?.rates.JPY).toBe(133.73);
  });

  it('derives USD→JPY on 1999-01-04 as 133.73 / 1.1789 = 113.43625 (8 significant digits)', () => {
    const rates = firstDay?.rates ?? {};
    expect(crossRate(rates, 'EUR', 'USD')).toBe(1.1789);
    expect(crossRate(rates, 'EUR', 'JPY')).toBe(133.73);
    expect(crossRate(rates, 'USD', 'JPY')).toBe(113.43625);
    expect(crossRate(rates, 'JPY', 'USD')).toBe(expectedRate(rates, 'JPY', 'USD'));
  });

  it('builds a USD table of that day whose JPY entry matches the pair rate', () => {
    const rates = firstDay?.rates ?? {};
    const table = rateTable(rates, 'USD');
    expect(table.JPY).toBe(113.43625);
    expect(table.USD).toBe(1);
    expect(table.EUR).toBe(expectedRate(rates, 'USD', 'EUR'));
  });
});

describe('rateTable', () => {
  it('lists every currency of the snapshot plus the base at 1, each equal to the pair rate', () => {
    fc.assert(
      fc.property(snapshotRates, code, (rates, base) => {
        const table = rateTable(rates, base);
        expect(Object.keys(table).sort()).toEqual(Object.keys(rates).sort());
        expect(table[base]).toBe(1);
        for (const [target, value] of Object.entries(table)) {
          expect(value).toBe(crossRate(rates, base, target));
          expect(significantDigits(value)).toBeLessThanOrEqual(RATE_SIGNIFICANT_DIGITS);
        }
      }),
    );
  });

  it('lists its codes in alphabetical order', () => {
    const table = rateTable({ EUR: 1, USD: 1.1, CHF: 0.95, AUD: 1.6 }, 'USD');
    expect(Object.keys(table)).toEqual(['AUD', 'CHF', 'EUR', 'USD']);
  });

  it('is empty when the base has no rate that day', () => {
    expect(rateTable({ EUR: 1, USD: 1.1 }, 'CYP')).toEqual({});
  });
});

/** Plain decimal amounts in the contract's range 0 < amount < 10^12, up to 6 decimals or more. */
const amountText = fc
  .tuple(
    fc.bigInt({ min: 0n, max: 999_999_999_999n }),
    fc.string({ unit: fc.constantFrom(...'0123456789'), maxLength: 9 }),
  )
  .map(([whole, fraction]) => (fraction ? `${whole}.${fraction}` : `${whole}`))
  .filter((text) => /[1-9]/.test(text));

describe('convert', () => {
  it('equals amount × rate computed exactly, rounded half-even to 6 decimal places', () => {
    fc.assert(
      fc.property(amountText, fc.oneof(ecbStyleRate, doubleRate), (amount, rate) => {
        const exact = multiply(parseDecimal(amount), ofNumber(rate));
        expect(convert(amount, rate)).toBe(toPlaces(exact, CONVERTED_DECIMAL_PLACES));
      }),
    );
  });

  it('never shows more than 6 decimal places nor exponent notation', () => {
    fc.assert(
      fc.property(amountText, fc.oneof(ecbStyleRate, doubleRate), (amount, rate) => {
        expect(convert(amount, rate)).toMatch(/^\d+(\.\d{1,6})?$/);
      }),
    );
  });

  it('avoids binary floating point traps', () => {
    expect(0.1 * 3).not.toBe(0.3);
    expect(convert('0.1', 3)).toBe('0.3');
    expect(convert('0.1', 0.2)).toBe('0.02');
    expect(1.005 * 1000).not.toBe(1005);
    expect(convert('1.005', 1000)).toBe('1005');
    expect(convert('1.005', 1)).toBe('1.005');
    expect(convert('0.7', 0.1)).toBe('0.07');
  });

  it('keeps the smallest and the largest amounts digit for digit', () => {
    expect(convert('0.000001', 1)).toBe('0.000001');
    expect(convert('999999999999.999999', 1)).toBe('999999999999.999999');
    expect(convert('999999999999.999999', 2)).toBe('1999999999999.999998');
    expect(convert('999999999999.999999', 113.43625)).toBe(
      toPlaces(multiply(parseDecimal('999999999999.999999'), parseDecimal('113.43625')), 6),
    );
  });

  it('rounds a product ending exactly in 5 at the 7th decimal to the even neighbour', () => {
    // 0.5 × 1.000001 = 0.5000005 and 1.5 × 1.000001 = 1.5000015: ties that go down and up to an even digit.
    expect(convert('0.5', 1.000001)).toBe('0.5');
    expect(convert('1.5', 1.000001)).toBe('1.500002');
    expect(convert('0.0000025', 1)).toBe('0.000002');
    expect(convert('0.0000035', 1)).toBe('0.000004');
    expect(convert('0.000001', 0.5)).toBe('0');
  });

  it('rounds away from a tie by the digits beyond the 7th decimal', () => {
    expect(convert('0.50000050001', 1)).toBe('0.500001');
    expect(convert('0.50000049999', 1)).toBe('0.5');
  });

  it('multiplies by the rate as shown, not by an unrounded quotient', () => {
    const rates = { EUR: 1, USD: 1.1789, JPY: 133.73 };
    const shown = crossRate(rates, 'USD', 'JPY') ?? 0;
    expect(convert('1000000', shown)).toBe(toPlaces(multiply(parseDecimal('1000000'), ofNumber(shown)), 6));
    expect(convert('1000000', shown)).toBe('113436250');
  });
});

describe('parseSourceList and inPrecedence', () => {
  it('keeps the configured order, a repeated id at its first place', () => {
    expect(parseSourceList(' cnb,nbp , cnb,ecb')).toEqual(['cnb', 'nbp', 'ecb']);
  });

  it('ranks the ECB first and the aggregator last, the central banks between them as configured', () => {
    expect(inPrecedence(parseSourceList('currency-api,cnb,nbp,ecb,nbu'))).toEqual([
      'ecb',
      'cnb',
      'nbp',
      'nbu',
      'currency-api',
    ]);
    expect(inPrecedence(['nbu', 'currency-api'])).toEqual(['nbu', 'currency-api']);
  });
});
