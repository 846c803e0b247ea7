import { BOE_PUBLISHER, BOE_SERIES, boeRequests, parseBoe } from '../../../../lambdas/core/sources/central-banks/boe';
import { bytes, expectFactsMatch, publisherError, recorded } from './recorded';

const { facts, files } = recorded('boe');
const body = files[0]?.body as Buffer;
const text = body.toString('utf8');
const days = parseBoe(body);
const NAME = 'Bank of England';

describe('the recorded Bank of England spot rates 17-20 March 2026', () => {
  it('has four days of 26 currencies priced in sterling', () => {
    expect(days.map((d) => d.date)).toEqual(['2026-03-17', '2026-03-18', '2026-03-19', '2026-03-20']);
    expect(days.every((d) => Object.keys(d.quotes).length === 26 && d.quoteCurrency === 'GBP')).toBe(true);
    expect(new Set(Object.values(BOE_SERIES)).size).toBe(26);
  });

  it('maps each series code to its currency, units per £1 as published', () => {
    const day = days[0];
    expect(day?.quotes.USD).toEqual({ amount: '1.3343', price: '1' });
    expect(day?.quotes.EUR).toEqual({ amount: '1.1577', price: '1' });
    expect(day?.quotes.JPY).toEqual({ amount: '212.1937', price: '1' });
    expect(day?.quotes.CAD).toEqual({ amount: '1.829', price: '1' });
    expect(day?.quotes.TRY).toEqual({ amount: '58.9829', price: '1' });
    expect(day?.quotes.KRW).toEqual({ amount: '1986.5526', price: '1' });
    expect(day?.quotes.RON).toEqual({ amount: '5.8963', price: '1' });
    expect(days[3]?.quotes.CNY).toEqual({ amount: '9.1865', price: '1' });
  });

  it('builds the recorded request for the recorded range, and on another origin', () => {
    expect(boeRequests('2026-03-17', '2026-03-20')).toEqual(files.map((f) => f.uri));
    expect(boeRequests('2026-01-05', '2026-12-31', 'http://127.0.0.1:9')[0]).toMatch(
      /^http:\/\/127\.0\.0\.1:9\/boeapps\/database\/_iadb-fromshowcolumns\.asp\?CSVF=TN&Datefrom=05\/Jan\/2026&Dateto=31\/Dec\/2026&/,
    );
  });

  it('states the publisher facts of the recording', () => {
    expectFactsMatch({ ...BOE_PUBLISHER }, facts);
  });

  it('skips an empty cell', () => {
    const parsed = parseBoe(bytes(text.replace('17 Mar 2026,1.3343,', '17 Mar 2026,,')));
    expect(parsed[0]?.quotes.USD).toBeUndefined();
    expect(Object.keys(parsed[0]?.quotes ?? {})).toHaveLength(25);
  });
});

describe('damaged Bank of England bodies', () => {
  it('refuses a truncated body, even one cut inside its last number', () => {
    for (const size of [0, 5, 300, body.length - 3]) publisherError(NAME, () => parseBoe(body.subarray(0, size)));
    expect(publisherError(NAME, () => parseBoe(body.subarray(0, body.length - 2)))).toMatch(/ends inside a line/);
  });

  it('refuses an HTML error page', () => {
    expect(publisherError(NAME, () => parseBoe(bytes('<html><title>Error</title></html>\r\n')))).toMatch(/HTML/);
  });

  it('refuses a garbage number', () => {
    expect(publisherError(NAME, () => parseBoe(bytes(text.replace('212.1937', '-212.1937'))))).toMatch(
      /JPY on 2026-03-17/,
    );
  });

  it('refuses a row with a missing column', () => {
    expect(publisherError(NAME, () => parseBoe(bytes(text.replace(',5.8963', ''))))).toMatch(/26 fields, expected 27/);
  });

  it('refuses an unknown series, a duplicate currency and a day twice', () => {
    expect(publisherError(NAME, () => parseBoe(bytes(text.replace('XUDLZOS4', 'XUDLZZZ'))))).toMatch(
      /unknown series 'XUDLZZZ'/,
    );
    expect(publisherError(NAME, () => parseBoe(bytes(text.replace('XUDLZOS4', 'XUDLUSS'))))).toMatch(
      /USD is quoted twice on 2026-03-17/,
    );
    expect(publisherError(NAME, () => parseBoe(bytes(text.replace('18 Mar 2026', '17 Mar 2026'))))).toMatch(
      /2026-03-17 appears twice/,
    );
  });

  it('refuses a row without any rate and a bad date', () => {
    expect(publisherError(NAME, () => parseBoe(bytes(`${text}21 Mar 2026${','.repeat(26)}\r\n`)))).toMatch(
      /2026-03-21 has no quotes/,
    );
    expect(publisherError(NAME, () => parseBoe(bytes(text.replace('18 Mar 2026', '2026-03-18'))))).toMatch(/not a day/);
  });
});
