import { CNB_PUBLISHER, cnbRequests, parseCnb } from '../../../../lambdas/core/sources/central-banks/cnb';
import { expectRecordedFacts } from './facts';
import { damaged, HTML_ERROR_PAGE, publisherError, recordedBody, recordedFiles, truncated } from './recorded';

const body = recordedBody('cnb', '01.json');
const fail = (bytes: Uint8Array) => publisherError('Czech National Bank', () => parseCnb(bytes));
const USD = '{"currencyCode":"USD","amount":1,"validFor":"2026-03-02","rate":20.737}';

describe('parseCnb on the recorded year', () => {
  const days = parseCnb(body);

  it('reads the 65 fixing days from 2 January to 2 April 2026, 30 currencies each', () => {
    expect(days).toHaveLength(65);
    expect(days[0]?.date).toBe('2026-01-02');
    expect(days[64]?.date).toBe('2026-04-02');
    for (const day of days) {
      expect(Object.keys(day.quotes)).toHaveLength(30);
      expect(day).toMatchObject({ publisher: 'cnb', quoteCurrency: 'CZK', cadence: 'daily' });
    }
  });

  it('keeps the amount each rate is for and every published digit', () => {
    const march2 = days.find((d) => d.date === '2026-03-02');
    expect(march2?.quotes.USD).toEqual({ amount: '1', price: '20.737' });
    expect(march2?.quotes.HUF).toEqual({ amount: '100', price: '6.374' });
    expect(march2?.quotes.IDR).toEqual({ amount: '1000', price: '1.230' });
    expect(days[0]?.quotes.EUR?.price).toBe('24.170');
  });

  it('quotes 30 distinct codes', () => expect(new Set(days.flatMap((d) => Object.keys(d.quotes))).size).toBe(30));
});

describe('parseCnb on damaged bodies', () => {
  it('refuses a truncated body', () => expect(fail(truncated(body))).toMatch(/not JSON/));
  it('refuses an HTML error page', () => expect(fail(HTML_ERROR_PAGE)).toMatch(/not JSON/));
  it('refuses a rate that is garbage, zero or in exponent form', () => {
    expect(fail(damaged(body, USD, USD.replace('20.737', '"x"')))).toMatch(/rate of USD on 2026-03-02/);
    expect(fail(damaged(body, USD, USD.replace('20.737', '0')))).toMatch(/not a positive decimal/);
    expect(fail(damaged(body, USD, USD.replace('20.737', '2.0737e1')))).toMatch(/not a positive decimal/);
  });
  it('refuses a record without its amount', () =>
    expect(fail(damaged(body, USD, USD.replace('"amount":1,', '')))).toMatch(/has no 'amount'/));
  it('refuses a bad date', () =>
    expect(fail(damaged(body, USD, USD.replace('2026-03-02', '2026-13-02')))).toMatch(/not a calendar day/));
  it('refuses a currency twice in one day', () =>
    expect(fail(damaged(body, USD, USD.replace('USD', 'EUR')))).toMatch(/EUR is quoted twice on 2026-03-02/));
  it('refuses a body without rates, a wrong root and a single-byte code page', () => {
    expect(fail(new TextEncoder().encode('{"rates":[]}'))).toMatch(/no days/);
    expect(fail(new TextEncoder().encode('[{"rates":[]}]'))).toMatch(/the body is not an object/);
    expect(fail(damaged(body, /^/, '\xff'))).toMatch(/not valid utf-8/);
  });
});

describe('CNB requests and facts', () => {
  it('asks for the recorded year exactly as recorded', () =>
    expect(cnbRequests('2026-01-01', '2026-04-02')).toEqual(recordedFiles('cnb').map((r) => r.uri)));
  it('asks for one body per calendar year of a range', () =>
    expect(cnbRequests('2025-12-30', '2026-01-02', 'http://127.0.0.1:9')).toEqual([
      'http://127.0.0.1:9/cnbapi/exrates/daily-year?lang=EN&year=2025',
      'http://127.0.0.1:9/cnbapi/exrates/daily-year?lang=EN&year=2026',
    ]));
  it('states the facts the publisher states', () => expectRecordedFacts(CNB_PUBLISHER));
});
