import { BOC_PUBLISHER, bocRequests, parseBoc } from '../../../../lambdas/core/sources/central-banks/boc';
import { expectRecordedFacts } from './facts';
import { damaged, HTML_ERROR_PAGE, publisherError, recordedBody, recordedFiles, truncated } from './recorded';

const body = recordedBody('boc', '01.json');
const fail = (bytes: Uint8Array) => publisherError('Bank of Canada', () => parseBoc(bytes));

describe('parseBoc on the recorded observations', () => {
  const days = parseBoc(body);

  it('reads the five business days from 12 to 18 March 2026, 23 currencies each', () => {
    expect(days.map((d) => d.date)).toEqual(['2026-03-12', '2026-03-13', '2026-03-16', '2026-03-17', '2026-03-18']);
    for (const day of days) {
      expect(Object.keys(day.quotes)).toHaveLength(23);
      expect(day).toMatchObject({ publisher: 'boc', quoteCurrency: 'CAD', cadence: 'daily' });
    }
  });

  it('reads FXUSDCAD as the CAD price of one US dollar, digits as published', () => {
    expect(days[0]?.quotes.USD).toEqual({ amount: '1', price: '1.3617' });
    expect(days[4]?.quotes.USD).toEqual({ amount: '1', price: '1.3706' });
    expect(days[0]?.quotes.JPY).toEqual({ amount: '1', price: '0.008550' });
  });

  it('leaves out the series listed but no longer observed (MYR, THB, VND)', () => {
    const codes = new Set(days.flatMap((d) => Object.keys(d.quotes)));
    expect(codes.size).toBe(23);
    for (const code of ['MYR', 'THB', 'VND', 'CAD']) expect(codes.has(code)).toBe(false);
  });

  it('skips an empty value but keeps the rest of the day', () => {
    const [first] = parseBoc(damaged(body, '"FXAUDCAD": {\n                "v": "0.9661"', '"FXAUDCAD": {"v": ""'));
    expect(first?.quotes.AUD).toBeUndefined();
    expect(Object.keys(first?.quotes ?? {})).toHaveLength(22);
  });
});

describe('parseBoc on damaged bodies', () => {
  it('refuses a truncated body', () => expect(fail(truncated(body))).toMatch(/not JSON/));
  it('refuses an HTML error page', () => expect(fail(HTML_ERROR_PAGE)).toMatch(/not JSON/));
  it('refuses a value that is not a decimal', () =>
    expect(fail(damaged(body, '"v": "1.3617"', '"v": "1,3617x"'))).toMatch(/USD on 2026-03-12/));
  it('refuses a value given as a number', () =>
    expect(fail(damaged(body, '"v": "1.3617"', '"v": 1.3617'))).toMatch(/FXUSDCAD on 2026-03-12 is not a string/));
  it('refuses an observation without its date', () =>
    expect(fail(damaged(body, '"d": "2026-03-13"', '"date": "2026-03-13"'))).toMatch(/has no 'd'/));
  it('refuses a series that is not an FX…CAD series of the group', () =>
    expect(fail(damaged(body, '"FXUSDCAD": {\n                "v": "1.3617"', '"FXUSDCHF": {"v": "1.3617"'))).toMatch(
      /unexpected series 'FXUSDCHF'/,
    ));
  it('refuses the same day twice and a day without any value', () => {
    expect(fail(damaged(body, '"d": "2026-03-13"', '"d": "2026-03-12"'))).toMatch(/2026-03-12 appears twice/);
    expect(fail(new TextEncoder().encode('{"seriesDetail":{},"observations":[{"d":"2026-03-12"}]}'))).toMatch(
      /2026-03-12 has no quotes/,
    );
  });
  it('refuses a body without observations', () =>
    expect(fail(new TextEncoder().encode('{"seriesDetail":{}}'))).toMatch(/has no 'observations'/));
});

describe('BoC requests and facts', () => {
  it('asks for the recorded range exactly as recorded', () =>
    expect(bocRequests('2026-03-12', '2026-03-18')).toEqual(recordedFiles('boc').map((r) => r.uri)));
  it('takes a test origin', () =>
    expect(bocRequests('2026-03-12', '2026-03-18', 'http://127.0.0.1:9')).toEqual([
      'http://127.0.0.1:9/valet/observations/group/FX_RATES_DAILY/json?start_date=2026-03-12',
    ]));
  it('states the facts the publisher states', () => expectRecordedFacts(BOC_PUBLISHER));
});
