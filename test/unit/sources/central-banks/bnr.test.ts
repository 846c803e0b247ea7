import { BNR_PUBLISHER, bnrRequests, parseBnr } from '../../../../lambdas/core/sources/central-banks/bnr';
import { expectRecordedFacts } from './facts';
import { damaged, HTML_ERROR_PAGE, publisherError, recordedBody, recordedFiles, truncated } from './recorded';

const body = recordedBody('bnr', '01.xml');
const fail = (bytes: Uint8Array) => publisherError('Banca Națională a României', () => parseBnr(bytes));
const MARCH_2 = '<Cube date="2026-03-02"><Rate currency="AED">';

describe('parseBnr on the recorded year', () => {
  const days = parseBnr(body);

  it('reads the 157 business days from 5 January to 19 August 2026, 37 rates each', () => {
    expect(days).toHaveLength(157);
    expect(days[0]?.date).toBe('2026-01-05');
    expect(days[156]?.date).toBe('2026-08-19');
    for (const day of days) {
      expect(Object.keys(day.quotes)).toHaveLength(37);
      expect(day).toMatchObject({ publisher: 'bnr', quoteCurrency: 'RON', cadence: 'daily' });
    }
  });

  it('reads the multiplier as the amount the rate is for', () => {
    const march2 = days.find((d) => d.date === '2026-03-02');
    expect(march2?.quotes.USD).toEqual({ amount: '1', price: '4.3430' });
    expect(march2?.quotes.EUR).toEqual({ amount: '1', price: '5.0972' });
    expect(march2?.quotes.HUF).toEqual({ amount: '100', price: '1.3459' });
    expect(march2?.quotes.JPY).toEqual({ amount: '100', price: '2.7674' });
  });

  it('keeps gold and the SDR for the merge to filter, 37 distinct codes in all', () => {
    const codes = new Set(days.flatMap((d) => Object.keys(d.quotes)));
    expect(codes.size).toBe(37);
    expect(codes.has('XAU')).toBe(true);
    expect(codes.has('XDR')).toBe(true);
  });
});

describe('parseBnr on damaged bodies', () => {
  it('refuses a truncated body', () => expect(fail(truncated(body))).toMatch(/malformed XML: truncated/));
  it('refuses an HTML error page', () => expect(fail(HTML_ERROR_PAGE)).toMatch(/DOCTYPE/));
  it('refuses a rate that is garbage', () =>
    expect(fail(damaged(body, '<Rate currency="USD">4.3430', '<Rate currency="USD">4.3x30'))).toMatch(
      /USD on 2026-03-02: '4.3x30' is not a positive decimal/,
    ));
  it('refuses a multiplier that is not a whole number', () =>
    expect(fail(damaged(body, 'multiplier="100"', 'multiplier="1e2"'))).toMatch(/HUF on 2026-01-05: units '1e2'/));
  it('refuses a Cube without its date and an impossible date', () => {
    expect(fail(damaged(body, '<Cube date="2026-03-02">', '<Cube>'))).toMatch(/a Cube date/);
    expect(fail(damaged(body, '<Cube date="2026-03-02">', '<Cube date="2026-02-30">'))).toMatch(/not a calendar day/);
  });
  it('refuses a Rate without its currency', () =>
    expect(fail(damaged(body, '<Rate currency="USD">4.3430', '<Rate>4.3430'))).toMatch(/not an ISO code/));
  it('refuses a currency twice in one day', () =>
    expect(fail(damaged(body, MARCH_2, MARCH_2.replace('AED', 'AUD')))).toMatch(/AUD is quoted twice on 2026-03-02/));
  it('refuses the same day twice', () =>
    expect(fail(damaged(body, '<Cube date="2026-03-03">', '<Cube date="2026-03-02">'))).toMatch(
      /2026-03-02 appears twice/,
    ));
  it('refuses a day without rates', () =>
    expect(fail(damaged(body, /<Cube date="2026-03-02">.*?<\/Cube>/, '<Cube date="2026-03-02"></Cube>'))).toMatch(
      /2026-03-02 has no quotes/,
    ));
  it('refuses a wrong root and another base currency', () => {
    expect(fail(damaged(body, /DataSet/g, 'Envelope'))).toMatch(/expected a DataSet root/);
    expect(fail(damaged(body, '<OrigCurrency>RON', '<OrigCurrency>EUR'))).toMatch(/OrigCurrency is not RON/);
  });
  it('refuses another encoding, declared or not', () => {
    expect(fail(damaged(body, 'encoding="utf-8"', 'encoding="iso-8859-2"'))).toMatch(/XML declaration/);
    expect(fail(damaged(body, 'National Bank of Romania', 'Banca Na\xfeional\xe3'))).toMatch(/not valid utf-8/);
  });
});

describe('BNR requests and facts', () => {
  it('asks for the recorded year exactly as recorded', () =>
    expect(bnrRequests('2026-01-01', '2026-08-19')).toEqual(recordedFiles('bnr').map((r) => r.uri)));
  it('asks for one file per calendar year of a range', () =>
    expect(bnrRequests('2025-12-30', '2026-01-02', 'http://127.0.0.1:9')).toEqual([
      'http://127.0.0.1:9/files/xml/years/nbrfxrates2025.xml',
      'http://127.0.0.1:9/files/xml/years/nbrfxrates2026.xml',
    ]));
  it('states the facts the publisher states', () => expectRecordedFacts(BNR_PUBLISHER));
});
