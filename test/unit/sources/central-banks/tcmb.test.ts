import { midpoint } from '../../../../lambdas/core/sources/central-banks/helpers';
import { parseTcmb, TCMB_PUBLISHER, tcmbRequests } from '../../../../lambdas/core/sources/central-banks/tcmb';
import { bytes, expectFactsMatch, publisherError, recorded } from './recorded';

const { facts, files } = recorded('tcmb');
const body = files[0]?.body as Buffer;
const text = body.toString('utf8');
const days = parseTcmb(body);
const NAME = 'Türkiye Cumhuriyet Merkez Bankası';

describe('the recorded TCMB range 2026-03-01..22', () => {
  it('has the 14 days with rates, weekends and the 20 March holiday skipped, each with all 21 currencies', () => {
    expect(days).toHaveLength(14);
    expect(days.map((d) => d.date)).not.toContain('2026-03-20');
    expect(days.map((d) => d.date)).not.toContain('2026-03-01');
    expect(days.map((d) => d.date)).not.toContain('2026-03-07');
    expect(days[0]?.date).toBe('2026-03-02');
    expect(days[days.length - 1]?.date).toBe('2026-03-19');
    expect(days.every((d) => Object.keys(d.quotes).length === 21)).toBe(true);
    expect(days.every((d) => d.quoteCurrency === 'TRY' && d.publisher === 'tcmb' && d.cadence === 'daily')).toBe(true);
  });

  it('takes the exact mid of the buying and selling rates', () => {
    const day = days[0];
    // USD buying 43.80000000, selling 43.87890000
    expect(day?.quotes.USD).toEqual({ amount: '1', price: '43.83945000' });
    // EUR 51.70080000 / 51.79390000, KRW 0.03025000 / 0.03064000: all eight published decimals kept
    expect(day?.quotes.EUR).toEqual({ amount: '1', price: '51.74735000' });
    expect(day?.quotes.KRW).toEqual({ amount: '1', price: '0.03044500' });
  });

  it('prices the yen per 100 units', () => {
    expect(days[0]?.quotes.JPY).toEqual({ amount: '100', price: '28.09995000' });
  });

  it('builds the recorded request for the recorded range, and on another origin', () => {
    expect(tcmbRequests('2026-03-01', '2026-03-22')).toEqual(files.map((f) => f.uri));
    expect(tcmbRequests('2026-03-01', '2026-03-22', 'http://127.0.0.1:9')[0]).toMatch(
      /^http:\/\/127\.0\.0\.1:9\/igmevdsms-dis\/series=TP\.DK\.AED\.A\.YTL-/,
    );
  });

  it('states the publisher facts of the recording', () => {
    expectFactsMatch({ ...TCMB_PUBLISHER }, facts);
  });
});

describe('exact midpoints', () => {
  it('halves decimal sums without rounding', () => {
    expect(midpoint('1', '2')).toBe('1.5');
    expect(midpoint('0.1', '0.2')).toBe('0.15');
    expect(midpoint('0.00001', '0.00002')).toBe('0.000015');
    expect(midpoint('43.8', '43.87890000')).toBe('43.83945000');
    expect(midpoint('10', '10')).toBe('10');
  });
});

describe('damaged TCMB bodies', () => {
  it('refuses a truncated body', () => {
    for (const size of [0, 10, Math.floor(body.length / 2), body.length - 2]) {
      publisherError(NAME, () => parseTcmb(body.subarray(0, size)));
    }
  });

  it('refuses an HTML error page', () => {
    expect(publisherError(NAME, () => parseTcmb(bytes('<html><body>Service Unavailable</body></html>')))).toMatch(
      /HTML/,
    );
  });

  it('refuses a garbage number', () => {
    const damaged = text.replace('"43.87890000"', '"43,8789x"');
    expect(publisherError(NAME, () => parseTcmb(bytes(damaged)))).toMatch(/USD selling on 2026-03-02.*43,8789x/);
  });

  it('refuses a missing series', () => {
    const damaged = text.replace('"TP_DK_GBP_S_YTL":"59.25030000",', '');
    expect(publisherError(NAME, () => parseTcmb(bytes(damaged)))).toMatch(/GBP is missing on 2026-03-02/);
  });

  it('refuses a currency with only its buying rate', () => {
    const damaged = text.replace('"TP_DK_GBP_S_YTL":"59.25030000"', '"TP_DK_GBP_S_YTL":null');
    expect(publisherError(NAME, () => parseTcmb(bytes(damaged)))).toMatch(/GBP on 2026-03-02 has only one/);
  });

  it('refuses a series written twice in one day', () => {
    const damaged = text.replace(
      '"TP_DK_GBP_S_YTL":"59.25030000"',
      '"TP_DK_GBP_S_YTL":"59.25030000","TP_DK_GBP_S_YTL":"1"',
    );
    expect(publisherError(NAME, () => parseTcmb(bytes(damaged)))).toMatch(/twice/);
  });

  it('refuses a day written twice, a bad date and an unknown field', () => {
    expect(publisherError(NAME, () => parseTcmb(bytes(text.replace('"03-03-2026"', '"02-03-2026"'))))).toMatch(
      /2026-03-02 appears twice/,
    );
    expect(publisherError(NAME, () => parseTcmb(bytes(text.replace('"03-03-2026"', '"31-02-2026"'))))).toMatch(
      /not a day/,
    );
    expect(publisherError(NAME, () => parseTcmb(bytes(text.replace('"TP_DK_AED_A_YTL"', '"XX"'))))).toMatch(
      /unexpected field/,
    );
  });

  it('refuses a count that does not match the items', () => {
    expect(publisherError(NAME, () => parseTcmb(bytes(text.replace('"totalCount":22', '"totalCount":23'))))).toMatch(
      /totalCount/,
    );
  });
});
