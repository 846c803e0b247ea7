import fc from 'fast-check';
import { ApiError } from '../../../lambdas/core/domain/errors';
import {
  AmountSchema,
  historyPathSchema,
  LatestQuerySchema,
  LocaleQuerySchema,
  MAX_PARAMETER_LENGTH,
  PairPathSchema,
  PairQuerySchema,
  parseOrThrow,
} from '../../../lambdas/core/http/schemas';

const TODAY = '2026-11-22';
const HistoryPathSchema = historyPathSchema(() => TODAY);

/** The ApiError a parse throws, as plain fields. */
function refusal(run: () => unknown): { status: number; code: string; param: string | undefined; message: string } {
  try {
    run();
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { status: error.status, code: error.code, param: error.param, message: error.message };
  }
  throw new Error('expected the parse to be refused');
}

const amount = (text: string) => parseOrThrow(PairQuerySchema, { amount: text }).amount;

describe('currency codes in paths and queries', () => {
  it('upper-cases lower-case and mixed-case codes', () => {
    expect(parseOrThrow(PairPathSchema, { from: 'usd', to: 'eUr' })).toEqual({ from: 'USD', to: 'EUR' });
    expect(parseOrThrow(LatestQuerySchema, { base: 'gbp' })).toEqual({ base: 'GBP' });
    expect(parseOrThrow(HistoryPathSchema, { from: 'chf', to: 'jpy', date: '2026-01-05' })).toEqual({
      from: 'CHF',
      to: 'JPY',
      date: '2026-01-05',
    });
  });

  it('refuses an unknown code with 422 unsupported-currency naming the parameter', () => {
    expect(refusal(() => parseOrThrow(PairPathSchema, { from: 'USD', to: 'XYZ' }))).toEqual({
      status: 422,
      code: 'unsupported-currency',
      param: 'to',
      message: "Currency 'XYZ' is not supported.",
    });
    expect(refusal(() => parseOrThrow(PairPathSchema, { from: 'abc', to: 'USD' }))).toMatchObject({
      status: 422,
      param: 'from',
      message: "Currency 'ABC' is not supported.",
    });
    expect(refusal(() => parseOrThrow(LatestQuerySchema, { base: 'BTC' }))).toMatchObject({
      status: 422,
      code: 'unsupported-currency',
      param: 'base',
    });
  });

  it('treats codes of the wrong length or with other characters as unsupported', () => {
    for (const code of ['US', 'USDD', '', 'U$D', '123', 'US D']) {
      expect(refusal(() => parseOrThrow(PairPathSchema, { from: code, to: 'EUR' }))).toMatchObject({
        status: 422,
        code: 'unsupported-currency',
        param: 'from',
      });
    }
  });

  it('accepts withdrawn codes on the historical endpoint only', () => {
    expect(parseOrThrow(HistoryPathSchema, { from: 'cyp', to: 'EUR', date: '2007-12-31' })).toMatchObject({
      from: 'CYP',
    });
    expect(parseOrThrow(HistoryPathSchema, { from: 'EUR', to: 'HRK', date: '2022-12-30' })).toMatchObject({
      to: 'HRK',
    });
    expect(refusal(() => parseOrThrow(PairPathSchema, { from: 'CYP', to: 'EUR' }))).toMatchObject({
      status: 422,
      param: 'from',
    });
    expect(refusal(() => parseOrThrow(LatestQuerySchema, { base: 'HRK' }))).toMatchObject({
      status: 422,
      param: 'base',
    });
  });

  it('defaults the latest base to EUR', () => {
    expect(parseOrThrow(LatestQuerySchema, {})).toEqual({ base: 'EUR' });
    expect(parseOrThrow(LatestQuerySchema, { base: undefined })).toEqual({ base: 'EUR' });
  });

  it('ignores unknown query parameters', () => {
    expect(parseOrThrow(LatestQuerySchema, { base: 'USD', foo: 'bar' })).toEqual({ base: 'USD' });
  });

  it('refuses a missing or non-string path parameter with 400 invalid-parameter', () => {
    expect(refusal(() => parseOrThrow(PairPathSchema, { from: 'USD' }))).toMatchObject({
      status: 400,
      code: 'invalid-parameter',
      param: 'to',
    });
    expect(refusal(() => parseOrThrow(LatestQuerySchema, { base: ['USD', 'GBP'] }))).toMatchObject({
      status: 400,
      code: 'invalid-parameter',
      param: 'base',
    });
    expect(refusal(() => parseOrThrow(PairPathSchema, null))).toMatchObject({ status: 400, code: 'invalid-parameter' });
  });
});

describe('absurdly long values', () => {
  const long = 'A'.repeat(MAX_PARAMETER_LENGTH + 1);

  it(`refuse values over ${MAX_PARAMETER_LENGTH} characters with 400 invalid-parameter before any other check`, () => {
    expect(refusal(() => parseOrThrow(PairPathSchema, { from: long, to: 'EUR' }))).toMatchObject({
      status: 400,
      code: 'invalid-parameter',
      param: 'from',
    });
    expect(refusal(() => parseOrThrow(LatestQuerySchema, { base: long }))).toMatchObject({
      status: 400,
      param: 'base',
    });
    expect(refusal(() => parseOrThrow(LocaleQuerySchema, { locale: long }))).toMatchObject({
      status: 400,
      code: 'invalid-parameter',
      param: 'locale',
    });
    expect(refusal(() => amount(`1.${'0'.repeat(MAX_PARAMETER_LENGTH)}`))).toMatchObject({
      status: 400,
      code: 'invalid-parameter',
      param: 'amount',
    });
    expect(
      refusal(() => parseOrThrow(HistoryPathSchema, { from: 'USD', to: 'EUR', date: `2026-01-01${' '.repeat(60)}` })),
    ).toMatchObject({ status: 400, code: 'invalid-parameter', param: 'date' });
  });

  it(`judge values of exactly ${MAX_PARAMETER_LENGTH} characters on their content`, () => {
    const limit = 'A'.repeat(MAX_PARAMETER_LENGTH);
    expect(refusal(() => parseOrThrow(PairPathSchema, { from: limit, to: 'EUR' }))).toMatchObject({
      status: 422,
      code: 'unsupported-currency',
    });
    expect(amount(`1.${'0'.repeat(MAX_PARAMETER_LENGTH - 3)}1`)).toBe(`1.${'0'.repeat(MAX_PARAMETER_LENGTH - 3)}1`);
  });

  it('do not echo the long value in the message', () => {
    const { message } = refusal(() => parseOrThrow(PairPathSchema, { from: long, to: 'EUR' }));
    expect(message).not.toContain(long.slice(0, 20));
  });
});

describe('amount', () => {
  it('is optional', () => {
    expect(parseOrThrow(PairQuerySchema, {})).toEqual({});
  });

  it('accepts the extremes 0.000001 and 999999999999.999999 unchanged', () => {
    expect(amount('0.000001')).toBe('0.000001');
    expect(amount('999999999999.999999')).toBe('999999999999.999999');
    expect(amount('999999999999')).toBe('999999999999');
    expect(amount('1')).toBe('1');
  });

  it('normalizes leading zeros of the whole part and trailing zeros of the fraction', () => {
    expect(amount('007.50')).toBe('7.5');
    expect(amount('0001')).toBe('1');
    expect(amount('00.5')).toBe('0.5');
    expect(amount('1.000')).toBe('1');
    expect(amount('10')).toBe('10');
    expect(amount('100.0100')).toBe('100.01');
    expect(amount('0999999999999.9')).toBe('999999999999.9');
  });

  it('refuses zero in every spelling', () => {
    for (const text of ['0', '0.0', '000', '0.000000', '00.00']) {
      expect([text, refusal(() => amount(text))]).toEqual([
        text,
        expect.objectContaining({ status: 400, code: 'invalid-amount', param: 'amount' }),
      ]);
    }
  });

  it('refuses 10^12 and more', () => {
    for (const text of [
      '1000000000000',
      '1000000000000.0',
      '1000000000000.000001',
      '9999999999999',
      '00001000000000000',
    ]) {
      expect([text, refusal(() => amount(text)).code]).toEqual([text, 'invalid-amount']);
    }
  });

  it('refuses signs, exponents, separators, spaces, hex, words and non-ASCII digits', () => {
    const malformed = [
      '-1',
      '+1',
      '1e3',
      '1E3',
      '1e-3',
      '1,000',
      '1,5',
      '1_000',
      '1 000',
      ' 1',
      '1 ',
      '\t1',
      '0x10',
      'Infinity',
      '-Infinity',
      'NaN',
      '',
      '.5',
      '1.',
      '1..5',
      '1.2.3',
      '１',
      '١٢',
      '1\n',
      'abc',
    ];
    for (const text of malformed) {
      expect([text, refusal(() => amount(text))]).toEqual([
        text,
        expect.objectContaining({ status: 400, code: 'invalid-amount', param: 'amount' }),
      ]);
    }
  });

  it('accepts every plain decimal in range and returns the same value in canonical form (property)', () => {
    const digits = (max: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 1, maxLength: max });
    fc.assert(
      fc.property(digits(14), fc.option(digits(20), { nil: undefined }), (whole, fraction) => {
        const text = fraction === undefined ? whole : `${whole}.${fraction}`;
        const wholeValue = BigInt(whole);
        const isZero = wholeValue === 0n && !/[1-9]/.test(fraction ?? '');
        if (text.length > MAX_PARAMETER_LENGTH) return;
        if (isZero || wholeValue >= 1_000_000_000_000n) {
          expect(refusal(() => amount(text)).code).toBe('invalid-amount');
          return;
        }
        const result = amount(text);
        expect(result).toMatch(/^(0|[1-9]\d*)(\.\d*[1-9])?$/);
        // Same value: compare as scaled integers.
        const scale = 40;
        const scaled = (t: string) => {
          const [w = '', f = ''] = t.split('.');
          return BigInt(w) * 10n ** BigInt(scale) + BigInt(f.padEnd(scale, '0') || '0');
        };
        expect(scaled(result ?? '')).toBe(scaled(text));
      }),
    );
  });

  it('is usable alone as AmountSchema', () => {
    expect(parseOrThrow(AmountSchema, '2.50')).toBe('2.5');
  });
});

describe('date', () => {
  it('accepts a real day up to and including today', () => {
    expect(parseOrThrow(HistoryPathSchema, { from: 'USD', to: 'EUR', date: TODAY }).date).toBe(TODAY);
    expect(parseOrThrow(HistoryPathSchema, { from: 'USD', to: 'EUR', date: '1999-01-04' }).date).toBe('1999-01-04');
    expect(parseOrThrow(HistoryPathSchema, { from: 'USD', to: 'EUR', date: '2024-02-29' }).date).toBe('2024-02-29');
  });

  it('refuses a wrong format with 400 invalid-date', () => {
    for (const date of ['2026-1-05', '20260105', '2026/01/05', '05-01-2026', '2026-01-05T00:00:00Z', 'today', '']) {
      expect([date, refusal(() => parseOrThrow(HistoryPathSchema, { from: 'USD', to: 'EUR', date }))]).toEqual([
        date,
        expect.objectContaining({ status: 400, code: 'invalid-date', param: 'date' }),
      ]);
    }
  });

  it('refuses days that do not exist with 400 invalid-date', () => {
    for (const date of ['2023-02-30', '2023-13-01', '2023-02-29', '2100-02-29', '2023-00-01', '2023-04-31']) {
      expect([date, refusal(() => parseOrThrow(HistoryPathSchema, { from: 'USD', to: 'EUR', date }))]).toEqual([
        date,
        expect.objectContaining({ status: 400, code: 'invalid-date', param: 'date' }),
      ]);
    }
  });

  it('refuses days after today (UTC) with 400 invalid-date, judged by the injected clock', () => {
    const refusedTomorrow = refusal(() =>
      parseOrThrow(HistoryPathSchema, { from: 'USD', to: 'EUR', date: '2026-11-23' }),
    );
    expect(refusedTomorrow).toMatchObject({ status: 400, code: 'invalid-date', param: 'date' });
    expect(refusal(() => parseOrThrow(HistoryPathSchema, { from: 'USD', to: 'EUR', date: '2027-01-01' })).code).toBe(
      'invalid-date',
    );
    const later = historyPathSchema(() => '2026-11-23');
    expect(parseOrThrow(later, { from: 'USD', to: 'EUR', date: '2026-11-23' }).date).toBe('2026-11-23');
  });

  it('explains which rule the date broke', () => {
    const message = (date: string) =>
      refusal(() => parseOrThrow(HistoryPathSchema, { from: 'USD', to: 'EUR', date })).message;
    const messages = new Set([message('2026-1-1'), message('2023-02-30'), message('2026-12-01')]);
    expect(messages.size).toBe(3);
  });
});

describe('locale', () => {
  it('defaults to en and accepts en and de', () => {
    expect(parseOrThrow(LocaleQuerySchema, {})).toEqual({ locale: 'en' });
    expect(parseOrThrow(LocaleQuerySchema, { locale: 'en' })).toEqual({ locale: 'en' });
    expect(parseOrThrow(LocaleQuerySchema, { locale: 'de' })).toEqual({ locale: 'de' });
  });

  it('refuses anything else, case-sensitively, with 422 unsupported-locale', () => {
    for (const locale of ['fr', 'DE', 'En', 'de-DE', 'en_US', '', ' en']) {
      expect([locale, refusal(() => parseOrThrow(LocaleQuerySchema, { locale }))]).toEqual([
        locale,
        expect.objectContaining({ status: 422, code: 'unsupported-locale', param: 'locale' }),
      ]);
    }
  });
});

describe('several faults at once', () => {
  it('report a 400 before a 422', () => {
    expect(
      refusal(() => parseOrThrow(HistoryPathSchema, { from: 'XYZ', to: 'ABC', date: '2023-02-30' })),
    ).toMatchObject({ status: 400, code: 'invalid-date' });
    expect(refusal(() => parseOrThrow(PairPathSchema, { from: 'XYZ', to: 'A'.repeat(65) }))).toMatchObject({
      status: 400,
      code: 'invalid-parameter',
      param: 'to',
    });
    expect(
      refusal(() => parseOrThrow(HistoryPathSchema, { from: 'XYZ', to: 'USD', date: '2099-01-01' })),
    ).toMatchObject({ status: 400, code: 'invalid-date' });
  });

  it('report the first fault in schema order among faults of the same status', () => {
    expect(refusal(() => parseOrThrow(PairPathSchema, { from: 'XYZ', to: 'ABC' }))).toMatchObject({
      status: 422,
      param: 'from',
    });
    expect(refusal(() => parseOrThrow(PairPathSchema, { from: 'A'.repeat(65), to: 'B'.repeat(65) }))).toMatchObject({
      status: 400,
      param: 'from',
    });
  });
});
