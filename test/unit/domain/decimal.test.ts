import Big from 'big.js';
import fc from 'fast-check';
import {
  decimal,
  divide,
  multiply,
  QUOTIENT_PLACES,
  roundToPlaces,
  roundToSignificant,
  toPlain,
} from '../../../lambdas/core/domain/decimal';
import { convert, crossRate, PIVOT, rateTable } from '../../../lambdas/core/domain/rates';

/** The big.js set-up the rate math used before BigInt, kept here as the reference the results must equal. */
const Reference = Big();
Reference.DP = QUOTIENT_PLACES;
Reference.RM = Big.roundHalfEven;
Reference.NE = -1e6;
Reference.PE = 1e6;
const reference = (value: string | number) => new Reference(value);

const referenceCrossRate = (rates: Record<string, number>, from: string, to: string): number => {
  const a = from === PIVOT ? 1 : (rates[from] ?? Number.NaN);
  const b = to === PIVOT ? 1 : (rates[to] ?? Number.NaN);
  return from === to ? 1 : Number(reference(b).div(a).prec(8, Big.roundHalfEven).toString());
};
const referenceConvert = (amount: string, rate: number): string =>
  reference(amount).times(reference(rate)).round(6, Big.roundHalfEven).toString();

/** Positive doubles from every decade a rate or an amount could plausibly live in, and far beyond. */
const anyPositiveDouble = fc
  .double({ min: 1e-30, max: 1e30, noNaN: true, noDefaultInfinity: true })
  .filter((v) => v > 0);
const ecbStyleRate = fc
  .tuple(fc.integer({ min: 1, max: 999_999 }), fc.integer({ min: 0, max: 8 }))
  .map(([digits, places]) => Number(`${digits}e-${places}`));
const shortRate = fc
  .tuple(fc.integer({ min: 1, max: 99_999_999 }), fc.integer({ min: -12, max: 12 }))
  .map(([digits, exponent]) => Number(`${digits}e${exponent}`));
const rate = fc.oneof(anyPositiveDouble, ecbStyleRate, shortRate);

const digitString = (min: number, max: number) =>
  fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: min, maxLength: max });
/** Amounts as the parameter reader hands them on: canonical plain decimals in (0, 10^12). */
const amount = fc
  .tuple(fc.integer({ min: 0, max: 999_999_999_999 }), fc.option(digitString(1, 20), { nil: undefined }))
  .map(([whole, fraction]) => {
    const trimmed = fraction?.replace(/0+$/, '');
    return trimmed ? `${whole}.${trimmed}` : String(whole);
  })
  .filter((text) => /[1-9]/.test(text));
/** Signed decimals of any size, in plain or exponent notation. */
const decimalText = fc
  .tuple(
    fc.boolean(),
    digitString(1, 30),
    fc.option(digitString(1, 30), { nil: undefined }),
    fc.option(fc.integer({ min: -40, max: 40 }), { nil: undefined }),
  )
  .map(
    ([negative, whole, fraction, exponent]) =>
      `${negative ? '-' : ''}${whole}${fraction === undefined ? '' : `.${fraction}`}${exponent === undefined ? '' : `e${exponent}`}`,
  );
const nonZeroDecimalText = decimalText.filter((text) => /[1-9]/.test(text.split(/e/i)[0] ?? ''));

const RUNS = { numRuns: 2000 };

describe('rate math equals the big.js implementation it replaced', () => {
  it('crossRate, on doubles from 1e-30 to 1e30 and ECB-style rates', () => {
    fc.assert(
      fc.property(rate, rate, (a, b) => {
        const rates = { AAA: a, BBB: b };
        expect(crossRate(rates, 'AAA', 'BBB')).toBe(referenceCrossRate(rates, 'AAA', 'BBB'));
        expect(crossRate(rates, 'EUR', 'AAA')).toBe(referenceCrossRate(rates, 'EUR', 'AAA'));
        expect(crossRate(rates, 'BBB', 'EUR')).toBe(referenceCrossRate(rates, 'BBB', 'EUR'));
      }),
      RUNS,
    );
  });

  it('rateTable, for every base of a snapshot', () => {
    fc.assert(
      fc.property(fc.array(rate, { minLength: 1, maxLength: 12 }), (values) => {
        const rates: Record<string, number> = { EUR: 1 };
        values.forEach((value, i) => {
          rates[`C${String(i).padStart(2, '0')}`] = value;
        });
        for (const base of Object.keys(rates)) {
          const expected: Record<string, number> = {};
          for (const code of Object.keys(rates).sort()) expected[code] = referenceCrossRate(rates, base, code);
          expect(rateTable(rates, base)).toEqual(expected);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('convert, for amounts of up to 12 whole and 20 fraction digits and 8-digit rates', () => {
    const shownRate = fc.tuple(rate, rate).map(([a, b]) => crossRate({ AAA: a, BBB: b }, 'AAA', 'BBB') ?? 1);
    fc.assert(
      fc.property(amount, fc.oneof(shownRate, rate), (value, r) => {
        expect(convert(value, r)).toBe(referenceConvert(value, r));
      }),
      RUNS,
    );
  });

  it('on the figures the rate tests pin', () => {
    const rates = { EUR: 1, USD: 1.1789, JPY: 133.73, VND: 30123.5, KWD: 0.36289, BTC: 0.00000123 };
    for (const from of Object.keys(rates)) {
      for (const to of Object.keys(rates)) {
        expect([from, to, crossRate(rates, from, to)]).toEqual([from, to, referenceCrossRate(rates, from, to)]);
      }
    }
    for (const [value, r] of [
      ['999999999999.999999', 113.43625],
      ['0.0000025', 1],
      ['0.0000035', 1],
      ['0.000001', 0.5],
      ['0.50000050001', 1],
      ['1.005', 1000],
    ] as const) {
      expect(convert(value, r)).toBe(referenceConvert(value, r));
    }
  });
});

describe('decimal', () => {
  it('prints any decimal as big.js prints it plainly', () => {
    fc.assert(
      fc.property(decimalText, (text) => {
        expect(toPlain(decimal(text))).toBe(reference(text).toString());
      }),
      RUNS,
    );
  });

  it('reads a number through its shortest text, as big.js does', () => {
    for (const value of [1, 0.1, 1e-7, 1.5e-10, 123456789.123, 1e21, 2.5e25, 5e-324, Number.MAX_SAFE_INTEGER]) {
      expect(toPlain(decimal(value))).toBe(reference(value).toString());
    }
  });

  it('refuses what is not a finite decimal', () => {
    for (const value of ['', '.5', '1.', '1e', '+1', '0x10', 'NaN', ' 1', '1,5']) {
      expect(() => decimal(value)).toThrow(RangeError);
    }
    for (const value of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      expect(() => decimal(value)).toThrow(RangeError);
    }
  });

  it('multiplies exactly', () => {
    fc.assert(
      fc.property(decimalText, decimalText, (a, b) => {
        expect(toPlain(multiply(decimal(a), decimal(b)))).toBe(reference(a).times(b).toString());
      }),
      RUNS,
    );
  });

  it('divides to 40 places, rounding half to even, signs included', () => {
    fc.assert(
      fc.property(decimalText, nonZeroDecimalText, (a, b) => {
        expect(toPlain(divide(decimal(a), decimal(b)))).toBe(reference(a).div(b).toString());
      }),
      RUNS,
    );
  });

  it('refuses to divide by zero', () => {
    expect(() => divide(decimal('1'), decimal('0.000'))).toThrow(RangeError);
  });

  it('rounds half to even to places and to significant digits', () => {
    fc.assert(
      fc.property(decimalText, fc.integer({ min: 0, max: 12 }), fc.integer({ min: 1, max: 20 }), (text, dp, sd) => {
        expect(toPlain(roundToPlaces(decimal(text), dp))).toBe(reference(text).round(dp, Big.roundHalfEven).toString());
        expect(toPlain(roundToSignificant(decimal(text), sd))).toBe(
          reference(text).prec(sd, Big.roundHalfEven).toString(),
        );
      }),
      RUNS,
    );
    expect(toPlain(roundToPlaces(decimal('0.0000025'), 6))).toBe('0.000002');
    expect(toPlain(roundToPlaces(decimal('0.0000035'), 6))).toBe('0.000004');
    expect(toPlain(roundToPlaces(decimal('-0.0000025'), 6))).toBe('-0.000002');
    expect(toPlain(roundToPlaces(decimal('-0.0000001'), 6))).toBe('0');
    expect(toPlain(roundToSignificant(decimal('123456785'), 8))).toBe('123456780');
    expect(toPlain(roundToSignificant(decimal('123456795'), 8))).toBe('123456800');
    expect(toPlain(roundToSignificant(decimal('99999999.5'), 8))).toBe('100000000');
  });
});
