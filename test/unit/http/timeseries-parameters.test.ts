import { ApiError } from '../../../lambdas/core/domain/errors';
import { readTimeseriesInput } from '../../../lambdas/core/endpoints/timeseries';
import { readDay } from '../../../lambdas/core/http/parameters';

const TODAY = '2026-09-30';
const read = (path: Record<string, string>, query: Record<string, string>) =>
  readTimeseriesInput({ path, query }, TODAY);

/** The refusal of a call, as `[status, code, param, message]`. */
function refusal(call: () => unknown): [number, string, string | undefined, string] {
  try {
    call();
  } catch (error) {
    if (error instanceof ApiError) return [error.status, error.code, error.param, error.message];
    throw error;
  }
  throw new Error('not refused');
}

describe('readTimeseriesInput', () => {
  const pair = { from: 'usd', to: 'JPY' };

  it('reads the codes upper-cased, withdrawn ones included, the range and the optional format', () => {
    expect(read(pair, { start: '2026-01-01', end: '2026-09-30' })).toEqual({
      from: 'USD',
      to: 'JPY',
      start: '2026-01-01',
      end: '2026-09-30',
      format: undefined,
    });
    expect(read({ from: 'cyp', to: 'EUR' }, { start: '1999-01-04', end: '1999-01-04', format: 'csv' })).toMatchObject({
      from: 'CYP',
      format: 'csv',
    });
  });

  it("judges the range against each call's own today when today changes between calls", () => {
    const query = { start: '2026-09-30', end: '2026-10-01' };
    const at = (today: string) => () => readTimeseriesInput({ path: pair, query }, today);
    expect(refusal(at(TODAY))).toEqual([400, 'invalid-date', 'end', expect.any(String)]);
    expect(at('2026-10-01')()).toMatchObject({ start: '2026-09-30', end: '2026-10-01' });
    expect(refusal(at(TODAY))).toEqual([400, 'invalid-date', 'end', expect.any(String)]);
  });

  it.each([
    [{}, 'start', "The parameter 'start' is required."],
    [{ start: '2026-01-01' }, 'end', "The parameter 'end' is required."],
    [{ end: '2026-01-01' }, 'start', "The parameter 'start' is required."],
  ])('refuses a missing day with 400 invalid-parameter naming it (%j)', (query, param, message) => {
    expect(refusal(() => read(pair, query))).toEqual([400, 'invalid-parameter', param, message]);
  });

  it.each([
    ['start', { start: '2026-1-01', end: '2026-02-01' }, 'The date must be in the format YYYY-MM-DD.'],
    ['start', { start: '2026-02-29', end: '2026-03-01' }, 'The date is not a real calendar day.'],
    ['end', { start: '2026-02-01', end: '2026-13-01' }, 'The date is not a real calendar day.'],
    ['end', { start: '2026-09-30', end: '2026-10-01' }, 'The date must not be in the future.'],
    ['start', { start: '2026-10-01', end: '2026-10-02' }, 'The date must not be in the future.'],
  ])('refuses a bad %s with 400 invalid-date naming it', (param, query, message) => {
    expect(refusal(() => read(pair, query))).toEqual([400, 'invalid-date', param, message]);
  });

  it('refuses start after end naming start, and more than 366 days naming end with the count and the limit', () => {
    expect(refusal(() => read(pair, { start: '2026-02-02', end: '2026-02-01' }))).toEqual([
      400,
      'invalid-parameter',
      'start',
      'The start 2026-02-02 is after the end 2026-02-01.',
    ]);
    expect(read(pair, { start: '2024-01-01', end: '2024-12-31' }).end).toBe('2024-12-31');
    // 2023 is not a leap year: 2023-01-01 to 2024-01-01 is 366 days, the most allowed.
    expect(read(pair, { start: '2023-01-01', end: '2024-01-01' }).start).toBe('2023-01-01');
    expect(refusal(() => read(pair, { start: '2024-01-01', end: '2025-01-01' }))[3]).toBe(
      'The range from 2024-01-01 to 2025-01-01 covers 367 days; at most 366 are allowed.',
    );
  });

  it('refuses a format other than json or csv, naming format', () => {
    for (const format of ['xml', 'CSV', '', 'json ']) {
      expect(refusal(() => read(pair, { start: '2026-01-01', end: '2026-01-02', format }))).toEqual([
        400,
        'invalid-parameter',
        'format',
        "The parameter 'format' must be 'json' or 'csv'.",
      ]);
    }
  });

  it('lets a 400 outrank a 422, the range checks included', () => {
    expect(refusal(() => read({ from: 'XYZ', to: 'JPY' }, { start: '2026-01-01', end: '2026-01-02' }))).toEqual([
      422,
      'unsupported-currency',
      'from',
      "Currency 'XYZ' is not supported.",
    ]);
    expect(refusal(() => read({ from: 'XYZ', to: 'JPY' }, { start: '2026-01-02', end: '2026-01-01' }))[2]).toBe(
      'start',
    );
    expect(refusal(() => read({ from: 'XYZ', to: 'JPY' }, { start: '2020-01-02', end: '2026-01-01' }))[2]).toBe('end');
    expect(refusal(() => read({ from: 'XYZ', to: 'JPY' }, { start: 'x', end: '2026-01-01' }))[1]).toBe('invalid-date');
  });
});

describe('readDay', () => {
  it("names history's date by default, and the given parameter otherwise", () => {
    expect(refusal(() => readDay('2026-02-30', TODAY))[2]).toBe('date');
    expect(refusal(() => readDay('2026-02-30', TODAY, 'end'))[2]).toBe('end');
  });
});
