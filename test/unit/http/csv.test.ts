import { acceptsCsv, seriesCsv } from '../../../lambdas/core/http/csv';

describe('seriesCsv', () => {
  it('writes a date,rate header and one CRLF-ended row per point, rates as plain decimals', () => {
    expect(
      seriesCsv([
        { date: '2026-09-28', rate: 150.21 },
        { date: '2026-09-29', rate: 1e-7 },
        { date: '2026-09-30', rate: 1 },
      ]),
    ).toBe('date,rate\r\n2026-09-28,150.21\r\n2026-09-29,0.0000001\r\n2026-09-30,1\r\n');
  });

  it('writes the header alone for no points', () => {
    expect(seriesCsv([])).toBe('date,rate\r\n');
  });
});

describe('acceptsCsv', () => {
  it.each([
    ['text/csv', true],
    ['TEXT/CSV; charset=utf-8', true],
    ['text/csv, */*;q=0.8', true],
    ['text/csv, */*', true],
    ['text/*', true],
    ['application/json, text/csv;q=0.5', false],
    ['text/csv;q=0.5, application/json', false],
    ['text/csv, application/json', false],
    ['text/csv;q=0', false],
    ['*/*', false],
    ['application/json', false],
    ['text/html', false],
    ['', false],
    [undefined, false],
    ['garbage', false],
  ])('%j → %s', (accept, expected) => {
    expect(acceptsCsv(accept)).toBe(expected);
  });
});
