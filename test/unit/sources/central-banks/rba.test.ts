import { parseRba, RBA_PUBLISHER, rbaRequests } from '../../../../lambdas/core/sources/central-banks/rba';
import { bytes, expectFactsMatch, publisherError, recorded } from './recorded';

const { facts, files } = recorded('rba');
const body = files[0]?.body as Buffer;
const text = body.toString('utf8');
const days = parseRba(body);
const NAME = 'Reserve Bank of Australia';
const LAST_ROW =
  '20-Mar-2026,0.7088,66.10,4.8870,112.27,0.6132,1061.60,0.5288,0.9073,66.10,23.18,1.2052,22.66,2.7900,12039,18650,,3.0565,5.5530,0.9733,,0.5595,42.59,0.5217';

describe('the recorded RBA table F11.1', () => {
  it('has every business day from 2023-01-03 to 2026-03-20, oldest first', () => {
    expect(days).toHaveLength(808);
    expect(days[0]?.date).toBe('2023-01-03');
    expect(days[days.length - 1]?.date).toBe('2026-03-20');
    expect(days.every((d) => d.quoteCurrency === 'AUD' && d.publisher === 'rba')).toBe(true);
  });

  it('keeps 18 to 20 currencies a day, the SDR as XDR, never the trade-weighted index', () => {
    const counts = new Set(days.map((d) => Object.keys(d.quotes).length));
    expect([...counts].sort()).toEqual([18, 19, 20]);
    const codes = new Set(days.flatMap((d) => Object.keys(d.quotes)));
    expect(codes.size).toBe(20);
    expect(codes.has('XDR')).toBe(true);
    expect([...codes].every((c) => /^[A-Z]{3}$/.test(c))).toBe(true);
    // AED and ZAR are empty columns throughout; PGK starts in 2026
    expect(codes.has('AED')).toBe(false);
    expect(codes.has('ZAR')).toBe(false);
    expect(days[0]?.quotes.PGK).toBeUndefined();
  });

  it('turns rates per A$1 into quotes priced at one Australian dollar, digits as published', () => {
    const last = days[days.length - 1];
    expect(last?.quotes.USD).toEqual({ amount: '0.7088', price: '1' });
    expect(last?.quotes.JPY).toEqual({ amount: '112.27', price: '1' });
    expect(last?.quotes.IDR).toEqual({ amount: '12039', price: '1' });
    expect(last?.quotes.XDR).toEqual({ amount: '0.5217', price: '1' });
    expect(Object.keys(last?.quotes ?? {})).toHaveLength(20);
    expect(days[0]?.quotes.EUR).toEqual({ amount: '0.6400', price: '1' });
  });

  it('requests the one table for any range, on any origin', () => {
    expect(rbaRequests('2023-01-03', '2026-03-20')).toEqual(files.map((f) => f.uri));
    expect(rbaRequests('2026-03-01', '2026-03-02', 'http://127.0.0.1:9')).toEqual([
      'http://127.0.0.1:9/statistics/tables/csv/f11.1-data.csv',
    ]);
  });

  it('states the publisher facts of the recording', () => {
    expectFactsMatch({ ...RBA_PUBLISHER }, facts);
  });
});

describe('damaged RBA tables', () => {
  it('refuses a body cut inside a row or inside the header', () => {
    publisherError(NAME, () => parseRba(bytes(text.slice(0, text.indexOf(LAST_ROW) + 40))));
    publisherError(NAME, () => parseRba(bytes(text.slice(0, 600))));
    publisherError(NAME, () => parseRba(new Uint8Array(0)));
    const lastNumberCut = text.slice(0, text.indexOf(LAST_ROW) + LAST_ROW.length - 2);
    expect(publisherError(NAME, () => parseRba(bytes(lastNumberCut)))).toMatch(/ends inside a line/);
  });

  it('refuses an HTML error page', () => {
    expect(publisherError(NAME, () => parseRba(bytes('<!DOCTYPE html><html>Not found</html>')))).toMatch(/HTML/);
  });

  it('refuses a garbage number, also in the index column', () => {
    expect(
      publisherError(NAME, () => parseRba(bytes(text.replace(LAST_ROW, LAST_ROW.replace('112.27', '112.2x'))))),
    ).toMatch(/JPY on 2026-03-20/);
    expect(
      publisherError(NAME, () => parseRba(bytes(text.replace(LAST_ROW, LAST_ROW.replace('66.10', 'n/a'))))),
    ).toMatch(/index on 2026-03-20/);
  });

  it('refuses a row with a missing column', () => {
    expect(
      publisherError(NAME, () => parseRba(bytes(text.replace(LAST_ROW, LAST_ROW.replace(',0.5217', ''))))),
    ).toMatch(/23 fields, expected 24/);
  });

  it('refuses a duplicated currency column, a day twice, a bad date and a day without rates', () => {
    const twoUsd = text.replace('A$1=CNY', 'A$1=USD').replace(/,CNY,/, ',USD,');
    expect(publisherError(NAME, () => parseRba(bytes(twoUsd)))).toMatch(/two columns/);
    expect(publisherError(NAME, () => parseRba(bytes(text.replace('19-Mar-2026', '18-Mar-2026'))))).toMatch(
      /2026-03-18 appears twice/,
    );
    expect(publisherError(NAME, () => parseRba(bytes(text.replace('19-Mar-2026', '31-Feb-2026'))))).toMatch(
      /not a day/,
    );
    const empty = `20-Mar-2026${','.repeat(23)}`;
    expect(publisherError(NAME, () => parseRba(bytes(text.replace(LAST_ROW, empty))))).toMatch(
      /2026-03-20 has no quotes/,
    );
  });

  it('refuses another table and a column not quoted per A$1', () => {
    expect(publisherError(NAME, () => parseRba(bytes(text.replace('F11.1', 'F11.2'))))).toMatch(/not table F11.1/);
    expect(publisherError(NAME, () => parseRba(bytes(text.replace('A$1=CNY', 'CNY1=A$'))))).toMatch(/per A\$1/);
  });
});
