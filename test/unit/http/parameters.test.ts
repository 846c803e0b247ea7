import fc from 'fast-check';
import { readLocaleQuery } from '../../../lambdas/core/endpoints/currencies';
import { readEnrichedInput } from '../../../lambdas/core/endpoints/enriched';
import { readHistoryInput } from '../../../lambdas/core/endpoints/history';
import { readLatestQuery } from '../../../lambdas/core/endpoints/latest';
import { readPairInput } from '../../../lambdas/core/endpoints/pair';
import { MAX_PARAMETER_LENGTH, readAmount, sameAllDay } from '../../../lambdas/core/http/parameters';
import { refusal } from '../../support/refusal';

const TODAY = '2026-11-22';
const history = (path: unknown) => readHistoryInput({ path, query: {} }, TODAY);
const pairPath = (path: unknown) => readPairInput({ path, query: {} });

const amount = (text: string) => readPairInput({ path: { from: 'USD', to: 'EUR' }, query: { amount: text } }).amount;

describe('currency codes in paths and queries', () => {
  it('upper-cases lower-case and mixed-case codes', () => {
    expect(pairPath({ from: 'usd', to: 'eUr' })).toEqual({ from: 'USD', to: 'EUR' });
    expect(readLatestQuery({ base: 'gbp' })).toEqual({ base: 'GBP' });
    expect(history({ from: 'chf', to: 'jpy', date: '2026-01-05' })).toEqual({
      from: 'CHF',
      to: 'JPY',
      date: '2026-01-05',
    });
  });

  it('refuses an unknown code with 422 unsupported-currency naming the parameter', () => {
    expect(refusal(() => pairPath({ from: 'USD', to: 'XYZ' }))).toEqual({
      status: 422,
      code: 'unsupported-currency',
      param: 'to',
      message: "Currency 'XYZ' is not supported.",
    });
    expect(refusal(() => pairPath({ from: 'abc', to: 'USD' }))).toMatchObject({
      status: 422,
      param: 'from',
      message: "Currency 'ABC' is not supported.",
    });
    expect(refusal(() => readLatestQuery({ base: 'BTC' }))).toMatchObject({
      status: 422,
      code: 'unsupported-currency',
      param: 'base',
    });
  });

  it('treats codes of the wrong length or with other characters as unsupported', () => {
    for (const code of ['US', 'USDD', '', 'U$D', '123', 'US D']) {
      expect(refusal(() => pairPath({ from: code, to: 'EUR' }))).toMatchObject({
        status: 422,
        code: 'unsupported-currency',
        param: 'from',
      });
    }
  });

  it('accepts withdrawn codes on the historical endpoint only', () => {
    expect(history({ from: 'cyp', to: 'EUR', date: '2007-12-31' })).toMatchObject({
      from: 'CYP',
    });
    expect(history({ from: 'EUR', to: 'HRK', date: '2022-12-30' })).toMatchObject({
      to: 'HRK',
    });
    expect(refusal(() => pairPath({ from: 'CYP', to: 'EUR' }))).toMatchObject({
      status: 422,
      param: 'from',
    });
    expect(refusal(() => readLatestQuery({ base: 'HRK' }))).toMatchObject({
      status: 422,
      param: 'base',
    });
  });

  it('defaults the latest base to EUR', () => {
    expect(readLatestQuery({})).toEqual({ base: 'EUR' });
    expect(readLatestQuery({ base: undefined })).toEqual({ base: 'EUR' });
  });

  it('ignores unknown query parameters', () => {
    expect(readLatestQuery({ base: 'USD', foo: 'bar' })).toEqual({ base: 'USD' });
  });

  it('refuses a missing or non-string path parameter with 400 invalid-parameter', () => {
    expect(refusal(() => pairPath({ from: 'USD' }))).toMatchObject({
      status: 400,
      code: 'invalid-parameter',
      param: 'to',
    });
    expect(refusal(() => readLatestQuery({ base: ['USD', 'GBP'] }))).toMatchObject({
      status: 400,
      code: 'invalid-parameter',
      param: 'base',
    });
    expect(refusal(() => pairPath(null))).toMatchObject({ status: 400, code: 'invalid-parameter' });
  });
});

describe('absurdly long values', () => {
  const long = 'A'.repeat(MAX_PARAMETER_LENGTH + 1);

  it(`refuse values over ${MAX_PARAMETER_LENGTH} characters with 400 invalid-parameter before any other check`, () => {
    expect(refusal(() => pairPath({ from: long, to: 'EUR' }))).toMatchObject({
      status: 400,
      code: 'invalid-parameter',
      param: 'from',
    });
    expect(refusal(() => readLatestQuery({ base: long }))).toMatchObject({
      status: 400,
      param: 'base',
    });
    expect(refusal(() => readLocaleQuery({ locale: long }))).toMatchObject({
      status: 400,
      code: 'invalid-parameter',
      param: 'locale',
    });
    expect(refusal(() => amount(`1.${'0'.repeat(MAX_PARAMETER_LENGTH)}`))).toMatchObject({
      status: 400,
      code: 'invalid-parameter',
      param: 'amount',
    });
    expect(refusal(() => history({ from: 'USD', to: 'EUR', date: `2026-01-01${' '.repeat(60)}` }))).toMatchObject({
      status: 400,
      code: 'invalid-parameter',
      param: 'date',
    });
  });

  it(`judge values of exactly ${MAX_PARAMETER_LENGTH} characters on their content`, () => {
    const limit = 'A'.repeat(MAX_PARAMETER_LENGTH);
    expect(refusal(() => pairPath({ from: limit, to: 'EUR' }))).toMatchObject({
      status: 422,
      code: 'unsupported-currency',
    });
    expect(amount(`1.${'0'.repeat(MAX_PARAMETER_LENGTH - 3)}1`)).toBe(`1.${'0'.repeat(MAX_PARAMETER_LENGTH - 3)}1`);
  });

  it('do not echo the long value in the message', () => {
    const { message } = refusal(() => pairPath({ from: long, to: 'EUR' }));
    expect(message).not.toContain(long.slice(0, 20));
  });
});

describe('amount', () => {
  it('is optional', () => {
    expect(readPairInput({ path: { from: 'usd', to: 'eur' }, query: {} })).toEqual({ from: 'USD', to: 'EUR' });
    expect(readPairInput({ path: { from: 'usd', to: 'eur' }, query: { amount: undefined } })).not.toHaveProperty(
      'amount',
    );
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

  it('is readable alone', () => {
    expect(readAmount('2.50')).toBe('2.5');
    expect(refusal(() => readAmount('2,50'))).toMatchObject({ status: 400, code: 'invalid-amount' });
  });
});

describe('date', () => {
  it('accepts a real day up to and including today', () => {
    expect(history({ from: 'USD', to: 'EUR', date: TODAY }).date).toBe(TODAY);
    expect(history({ from: 'USD', to: 'EUR', date: '1999-01-04' }).date).toBe('1999-01-04');
    expect(history({ from: 'USD', to: 'EUR', date: '2024-02-29' }).date).toBe('2024-02-29');
  });

  it('refuses a wrong format with 400 invalid-date', () => {
    for (const date of ['2026-1-05', '20260105', '2026/01/05', '05-01-2026', '2026-01-05T00:00:00Z', 'today', '']) {
      expect([date, refusal(() => history({ from: 'USD', to: 'EUR', date }))]).toEqual([
        date,
        expect.objectContaining({ status: 400, code: 'invalid-date', param: 'date' }),
      ]);
    }
  });

  it('refuses days that do not exist with 400 invalid-date', () => {
    for (const date of ['2023-02-30', '2023-13-01', '2023-02-29', '2100-02-29', '2023-00-01', '2023-04-31']) {
      expect([date, refusal(() => history({ from: 'USD', to: 'EUR', date }))]).toEqual([
        date,
        expect.objectContaining({ status: 400, code: 'invalid-date', param: 'date' }),
      ]);
    }
  });

  it('refuses days after today (UTC) with 400 invalid-date, judged by the injected clock', () => {
    const refusedTomorrow = refusal(() => history({ from: 'USD', to: 'EUR', date: '2026-11-23' }));
    expect(refusedTomorrow).toMatchObject({ status: 400, code: 'invalid-date', param: 'date' });
    expect(refusal(() => history({ from: 'USD', to: 'EUR', date: '2027-01-01' })).code).toBe('invalid-date');
    expect(
      readHistoryInput({ path: { from: 'USD', to: 'EUR', date: '2026-11-23' }, query: {} }, '2026-11-23').date,
    ).toBe('2026-11-23');
  });

  it('judges each call against its own today when today changes between calls', () => {
    const next = '2026-11-23';
    const read = (today: string) => () =>
      readHistoryInput({ path: { from: 'USD', to: 'EUR', date: next }, query: {} }, today);
    expect(refusal(read(TODAY))).toMatchObject({ code: 'invalid-date' });
    expect(read(next)().date).toBe(next);
    expect(refusal(read(TODAY))).toMatchObject({ code: 'invalid-date' });
  });

  it('explains which rule the date broke', () => {
    const message = (date: string) => refusal(() => history({ from: 'USD', to: 'EUR', date })).message;
    const messages = new Set([message('2026-1-1'), message('2023-02-30'), message('2026-12-01')]);
    expect(messages.size).toBe(3);
  });
});

describe('locale', () => {
  it('defaults to en and accepts en and de', () => {
    expect(readLocaleQuery({})).toEqual({ locale: 'en' });
    expect(readLocaleQuery({ locale: 'en' })).toEqual({ locale: 'en' });
    expect(readLocaleQuery({ locale: 'de' })).toEqual({ locale: 'de' });
  });

  it('refuses anything else, case-sensitively, with 422 unsupported-locale', () => {
    for (const locale of ['fr', 'DE', 'En', 'de-DE', 'en_US', '', ' en']) {
      expect([locale, refusal(() => readLocaleQuery({ locale }))]).toEqual([
        locale,
        expect.objectContaining({ status: 422, code: 'unsupported-locale', param: 'locale' }),
      ]);
    }
  });
});

describe('several faults at once', () => {
  it('report a 400 before a 422', () => {
    expect(refusal(() => history({ from: 'XYZ', to: 'ABC', date: '2023-02-30' }))).toMatchObject({
      status: 400,
      code: 'invalid-date',
    });
    expect(refusal(() => pairPath({ from: 'XYZ', to: 'A'.repeat(65) }))).toMatchObject({
      status: 400,
      code: 'invalid-parameter',
      param: 'to',
    });
    expect(refusal(() => history({ from: 'XYZ', to: 'USD', date: '2099-01-01' }))).toMatchObject({
      status: 400,
      code: 'invalid-date',
    });
  });

  it('report the first fault in parameter order among faults of the same status', () => {
    expect(refusal(() => pairPath({ from: 'XYZ', to: 'ABC' }))).toMatchObject({
      status: 422,
      param: 'from',
    });
    expect(refusal(() => pairPath({ from: 'A'.repeat(65), to: 'B'.repeat(65) }))).toMatchObject({
      status: 400,
      param: 'from',
    });
  });
});

describe('path and query read together', () => {
  it('report a malformed amount (400) before an unsupported currency in the path (422)', () => {
    expect(refusal(() => readPairInput({ path: { from: 'XYZ', to: 'EUR' }, query: { amount: '1e3' } }))).toMatchObject({
      status: 400,
      code: 'invalid-amount',
      param: 'amount',
    });
  });

  it('report the path before the query among faults of the same status', () => {
    expect(
      refusal(() => readPairInput({ path: { from: 'USD', to: 'A'.repeat(65) }, query: { amount: '-1' } })),
    ).toMatchObject({ status: 400, param: 'to' });
    expect(refusal(() => readEnrichedInput({ path: { from: 'USD', to: 'XYZ' }, query: { locale: 'fr' } }))).toEqual({
      status: 422,
      code: 'unsupported-currency',
      param: 'to',
      message: "Currency 'XYZ' is not supported.",
    });
  });

  it('read the enriched pair with its locale, en by default', () => {
    expect(readEnrichedInput({ path: { from: 'usd', to: 'jpy' }, query: {} })).toEqual({
      from: 'USD',
      to: 'JPY',
      locale: 'en',
    });
    expect(readEnrichedInput({ path: { from: 'USD', to: 'JPY' }, query: { locale: 'de' } })).toMatchObject({
      locale: 'de',
    });
    expect(refusal(() => readEnrichedInput({ path: { from: 'USD', to: 'JPY' }, query: { locale: 'DE' } }))).toEqual({
      status: 422,
      code: 'unsupported-locale',
      param: 'locale',
      message: "Locale 'DE' is not supported; use 'en' or 'de'.",
    });
  });

  it('refuse parameters that are not strings, or input that is not an object, as malformed', () => {
    expect(refusal(() => readPairInput({ path: { from: 'USD', to: 'EUR' }, query: { amount: 5 } }))).toEqual({
      status: 400,
      code: 'invalid-parameter',
      param: 'amount',
      message: "The parameter 'amount' is malformed.",
    });
    expect(refusal(() => readLocaleQuery({ locale: null }))).toMatchObject({ status: 400, param: 'locale' });
    expect(refusal(() => readHistoryInput({ path: undefined, query: {} }, TODAY))).toMatchObject({
      status: 400,
      code: 'invalid-parameter',
      message: "The parameter 'parameter' is malformed.",
    });
  });

  it('say which parameter is too long without echoing it', () => {
    expect(refusal(() => readLatestQuery({ base: 'X'.repeat(65) }))).toEqual({
      status: 400,
      code: 'invalid-parameter',
      param: 'base',
      message: "The parameter 'base' is too long.",
    });
  });

  it('ignore inherited property names', () => {
    expect(readLatestQuery(Object.create({ base: 'GBP' }))).toEqual({ base: 'EUR' });
  });
});

describe('sameAllDay', () => {
  it('builds once per day, and again whenever the day changes', () => {
    const built: string[] = [];
    const perDay = sameAllDay((today) => {
      built.push(today);
      return { today };
    });
    const first = perDay('2026-11-22');
    expect(perDay('2026-11-22')).toBe(first);
    expect(perDay('2026-11-23')).toEqual({ today: '2026-11-23' });
    expect(perDay('2026-11-22')).toEqual({ today: '2026-11-22' });
    expect(built).toEqual(['2026-11-22', '2026-11-23', '2026-11-22']);
  });
});
