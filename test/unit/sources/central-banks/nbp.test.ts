import { NBP_PUBLISHER, nbpRequests, parseNbp } from '../../../../lambdas/core/sources/central-banks/nbp';
import { expectRecordedFacts } from './facts';
import * as recorded from './recorded';

const tableA = recorded.recordedBody('nbp', '01.json');
const tableB = recorded.recordedBody('nbp', '02.json');
const fail = (body: Uint8Array) => recorded.publisherError('Narodowy Bank Polski', () => parseNbp(body));

describe('parseNbp on the recorded tables', () => {
  it('reads table A as four daily days of 32 currencies in PLN', () => {
    const days = parseNbp(tableA);
    expect(days.map((d) => d.date)).toEqual(['2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05']);
    for (const day of days) {
      expect(Object.keys(day.quotes)).toHaveLength(32);
      expect(day).toMatchObject({ publisher: 'nbp', quoteCurrency: 'PLN', cadence: 'daily' });
    }
    expect(days[0]?.quotes.USD).toEqual({ amount: '1', price: '3.6056' });
    expect(days[0]?.quotes.EUR).toEqual({ amount: '1', price: '4.2304' });
  });

  it('keeps every published digit, trailing zeros included', () => {
    const [first] = parseNbp(tableA);
    expect(first?.quotes.CAD?.price).toBe('2.6410');
    expect(first?.quotes.HUF?.price).toBe('0.011155');
  });

  it('reads table B as one weekly day of 116 currencies', () => {
    const days = parseNbp(tableB);
    expect(days).toHaveLength(1);
    expect(days[0]).toMatchObject({ date: '2026-03-04', cadence: 'weekly', quoteCurrency: 'PLN' });
    expect(Object.keys(days[0]?.quotes ?? {})).toHaveLength(116);
    expect(days[0]?.quotes.AFN).toEqual({ amount: '1', price: '0.056626' });
    expect(days[0]?.quotes.PAB?.price).toBe('3.6770');
  });

  it('quotes 148 distinct codes across both tables, none of them PLN', () => {
    const codes = new Set([...parseNbp(tableA), ...parseNbp(tableB)].flatMap((d) => Object.keys(d.quotes)));
    expect(codes.size).toBe(148);
    expect(codes.has('PLN')).toBe(false);
    expect([...codes].every((c) => /^[A-Z]{3}$/.test(c))).toBe(true);
  });
});

describe('parseNbp on damaged bodies', () => {
  it('refuses a truncated body', () => expect(fail(recorded.truncated(tableA))).toMatch(/not JSON/));
  it('refuses an HTML error page', () => expect(fail(recorded.HTML_ERROR_PAGE)).toMatch(/not JSON/));
  it('refuses a rate that is not a number', () =>
    expect(fail(recorded.damaged(tableA, '"mid":3.6056', '"mid":"3,6056"'))).toMatch(/mid of USD on 2026-03-02/));
  it('refuses a zero or negative rate', () => {
    expect(fail(recorded.damaged(tableA, '"mid":3.6056', '"mid":0.0000'))).toMatch(/USD on 2026-03-02/);
    expect(fail(recorded.damaged(tableA, '"mid":3.6056', '"mid":-3.6056'))).toMatch(/not a positive decimal/);
  });
  it('refuses a rate without its mid', () =>
    expect(fail(recorded.damaged(tableA, '"mid":3.6056', '"bid":3.6056'))).toMatch(/'mid'/));
  it('refuses a table without its date', () =>
    expect(fail(recorded.damaged(tableA, '"effectiveDate":"2026-03-03"', '"date":"2026-03-03"'))).toMatch(
      /effectiveDate/,
    ));
  it('refuses an impossible date', () =>
    expect(fail(recorded.damaged(tableA, '2026-03-03', '2026-02-30'))).toMatch(/not a calendar day/));
  it('refuses a currency twice in one table', () =>
    expect(fail(recorded.damaged(tableA, '"code":"AUD"', '"code":"USD"'))).toMatch(
      /USD is quoted twice on 2026-03-02/,
    ));
  it('refuses a code that is not ISO-looking', () =>
    expect(fail(recorded.damaged(tableA, '"code":"AUD"', '"code":"aud"'))).toMatch(/not an ISO code/));
  it('refuses a table without rates', () =>
    expect(fail(new TextEncoder().encode('[{"table":"A","no":"1","effectiveDate":"2026-03-02","rates":[]}]'))).toMatch(
      /2026-03-02 has no quotes/,
    ));
  it('refuses table C (buying and selling) and an empty list', () => {
    expect(fail(recorded.damaged(tableA, '"table":"A"', '"table":"C"'))).toMatch(/not A or B/);
    expect(fail(new TextEncoder().encode('[]'))).toMatch(/no days/);
  });
  it('refuses a body in a single-byte code page', () =>
    expect(fail(recorded.singleByte(tableA))).toMatch(/not valid utf-8/));
});

describe('NBP requests and facts', () => {
  it('asks for tables A and B of the recorded range exactly as recorded, never the gold prices', () => {
    const [a, b] = recorded.recordedFiles('nbp');
    expect(nbpRequests('2026-03-01', '2026-03-05')).toEqual([a?.uri, b?.uri]);
  });

  it('splits a long range into spans of 93 days and takes a test origin', () => {
    const uris = nbpRequests('2026-01-01', '2026-04-10', 'http://127.0.0.1:9');
    expect(uris).toEqual([
      'http://127.0.0.1:9/api/exchangerates/tables/A/2026-01-01/2026-04-03/?format=json',
      'http://127.0.0.1:9/api/exchangerates/tables/B/2026-01-01/2026-04-03/?format=json',
      'http://127.0.0.1:9/api/exchangerates/tables/A/2026-04-04/2026-04-10/?format=json',
      'http://127.0.0.1:9/api/exchangerates/tables/B/2026-04-04/2026-04-10/?format=json',
    ]);
  });

  it('states the facts the publisher states', () => expectRecordedFacts(NBP_PUBLISHER));
});
