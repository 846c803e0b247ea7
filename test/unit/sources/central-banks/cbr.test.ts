import {
  CBR_PUBLISHER,
  cbrCodesById,
  cbrLatestRequest,
  cbrRequests,
  cbrSeriesRequests,
  parseCbrDaily,
  parseCbrSeries,
} from '../../../../lambdas/core/sources/central-banks/cbr';
import { expectRecordedFacts } from './facts';
import { damaged, HTML_ERROR_PAGE, publisherError, recordedBody, recordedFiles, truncated } from './recorded';

const NAME = 'Central Bank of Russia';
const recorded = recordedFiles('cbr');
const daily = recordedBody('cbr', '01.xml');
const seriesFiles = recorded.filter((r) => r.uri.includes('XML_dynamic.asp'));
const series = seriesFiles.map((r) => recordedBody('cbr', r.file));
const usdSeries = recordedBody('cbr', '17.xml');
const codes = cbrCodesById(daily);
const USD = '<Valute ID="R01235"><NumCode>840</NumCode><CharCode>USD</CharCode><Nominal>1</Nominal>';
const failDaily = (bytes: Uint8Array) => publisherError(NAME, () => parseCbrDaily(bytes));
const failSeries = (bytes: Uint8Array) => publisherError(NAME, () => parseCbrSeries([bytes], codes));

describe('parseCbrDaily on the recorded table', () => {
  const [day, ...rest] = parseCbrDaily(daily);

  it('reads one day, 25 April 2026, with 54 currencies in RUB', () => {
    expect(rest).toHaveLength(0);
    expect(day).toMatchObject({ publisher: 'cbr', date: '2026-04-25', quoteCurrency: 'RUB', cadence: 'daily' });
    expect(Object.keys(day?.quotes ?? {})).toHaveLength(54);
  });

  it('turns decimal commas into dots and Nominal into the amount, keeping every digit', () => {
    expect(day?.quotes.USD).toEqual({ amount: '1', price: '75.5273' });
    expect(day?.quotes.BYN).toEqual({ amount: '1', price: '26.7960' });
    expect(day?.quotes.JPY).toEqual({ amount: '100', price: '47.2636' });
    expect(day?.quotes.MMK).toEqual({ amount: '1000', price: '35.9654' });
  });

  it('checks IRR against its VunitRate written in exponent form', () => {
    expect(day?.quotes.IRR).toEqual({ amount: '1000000', price: '53.9256' });
    expect(failDaily(damaged(daily, '5,39256E-05', '5,39256E-04'))).toMatch(/IRR on 2026-04-25: Value/);
  });

  it('uses Nominal 1 to 1000000', () => {
    const amounts = new Set(Object.values(day?.quotes ?? {}).map((q) => q.amount));
    expect([...amounts].sort()).toEqual(['1', '10', '100', '1000', '10000', '1000000']);
  });
});

describe('parseCbrSeries on the recorded March series', () => {
  const days = parseCbrSeries(series, codes);

  it('merges the 54 per-currency series into 3, 4 and 5 March 2026, 54 currencies each', () => {
    expect(series).toHaveLength(54);
    expect(days.map((d) => d.date)).toEqual(['2026-03-03', '2026-03-04', '2026-03-05']);
    for (const d of days) expect(Object.keys(d.quotes)).toHaveLength(54);
    expect(days[0]?.quotes.USD).toEqual({ amount: '1', price: '77.1734' });
    expect(days[2]?.quotes.USD).toEqual({ amount: '1', price: '77.8009' });
  });

  it('names every currency by the daily table’s ID map: 54 distinct codes', () => {
    expect(codes.get('R01235')).toBe('USD');
    expect(new Set(days.flatMap((d) => Object.keys(d.quotes))).size).toBe(54);
  });

  it('accepts a range without records (a holiday week)', () => {
    const empty = damaged(usdSeries, /<Record.*<\/Record>/, '');
    expect(parseCbrSeries([empty], codes)).toEqual([]);
  });
});

describe('CBR parsers on damaged bodies', () => {
  it('refuses a truncated body', () => {
    expect(failDaily(truncated(daily))).toMatch(/malformed XML: truncated/);
    expect(failSeries(truncated(usdSeries))).toMatch(/malformed XML/);
  });
  it('refuses an HTML error page', () => expect(failDaily(HTML_ERROR_PAGE)).toMatch(/XML declaration|DOCTYPE/));
  it('refuses a value that is garbage', () =>
    expect(failDaily(damaged(daily, '<Value>75,5273', '<Value>75.52,73'))).toMatch(/USD on 2026-04-25/));
  it('refuses a Value that disagrees with Nominal × VunitRate', () =>
    expect(failDaily(damaged(daily, '<Value>47,2636', '<Value>0,472636'))).toMatch(/JPY on 2026-04-25: Value/));
  it('refuses a currency without Nominal', () =>
    expect(failDaily(damaged(daily, USD, USD.replace('<Nominal>1</Nominal>', '')))).toMatch(/exactly one <Nominal>/));
  it('refuses a bad date', () => {
    expect(failDaily(damaged(daily, 'Date="25.04.2026"', 'Date="31.04.2026"'))).toMatch(/not a calendar day/);
    expect(failSeries(damaged(usdSeries, 'Date="04.03.2026"', 'Date="2026-03-04"'))).toMatch(/not a calendar day/);
  });
  it('refuses a currency twice in one day', () => {
    expect(failDaily(damaged(daily, '<CharCode>EUR', '<CharCode>USD'))).toMatch(/USD is quoted twice on 2026-04-25/);
    expect(publisherError(NAME, () => parseCbrSeries([usdSeries, usdSeries], codes))).toMatch(/USD is quoted twice/);
  });
  it('refuses a code that is not ISO-looking and a table without currencies', () => {
    expect(failDaily(damaged(daily, '<CharCode>USD', '<CharCode>US'))).toMatch(/not an ISO code/);
    expect(failDaily(damaged(daily, /<Valute.*<\/Valute>/, ''))).toMatch(/2026-04-25 has no quotes/);
  });
  it('refuses a series of an unknown ID or with a stray record', () => {
    expect(failSeries(damaged(usdSeries, '<ValCurs ID="R01235"', '<ValCurs ID="R99999"'))).toMatch(/unknown currency/);
    expect(failSeries(damaged(usdSeries, 'Id="R01235"', 'Id="R01239"'))).toMatch(/names another ID/);
  });
  it('refuses another declared encoding and a wrong root', () => {
    expect(failDaily(damaged(daily, 'encoding="windows-1251"', 'encoding="utf-8"'))).toMatch(/XML declaration/);
    expect(failDaily(damaged(daily, /ValCurs/g, 'Metall'))).toMatch(/expected a ValCurs root/);
  });
});

describe('CBR requests and facts', () => {
  it('asks for the daily table of each day, the canonical fetch', () =>
    expect(cbrRequests('2026-02-28', '2026-03-02', 'http://127.0.0.1:9')).toEqual([
      'http://127.0.0.1:9/scripts/XML_daily.asp?date_req=28/02/2026',
      'http://127.0.0.1:9/scripts/XML_daily.asp?date_req=01/03/2026',
      'http://127.0.0.1:9/scripts/XML_daily.asp?date_req=02/03/2026',
    ]));
  it('reproduces the recorded requests: the newest table, then one series per ID, never the metals', () => {
    const uris = [cbrLatestRequest(), ...cbrSeriesRequests('2026-03-01', '2026-03-05', codes.keys())];
    expect(uris).toEqual(recorded.filter((r) => !r.uri.includes('xml_metall')).map((r) => r.uri));
  });
  it('states the facts the publisher states', () => expectRecordedFacts(CBR_PUBLISHER));
});
