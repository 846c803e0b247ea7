import { NBU_PUBLISHER, nbuRequests, parseNbu } from '../../../../lambdas/core/sources/central-banks/nbu';
import { expectRecordedFacts } from './facts';
import * as recorded from './recorded';

const body = recorded.recordedBody('nbu', '01.json');
const fail = (bytes: Uint8Array) => recorded.publisherError('Natsionalnyi Bank Ukrainy', () => parseNbu(bytes));
const SECOND = '"exchangedate":"02.03.2026","r030":840,"cc":"USD"';

describe('parseNbu on the recorded range', () => {
  const days = parseNbu(body);

  it('reads the weekdays of 1-16 March 2026, 45 currencies each', () => {
    expect(days.map((d) => d.date)).toEqual([
      '2026-03-02',
      '2026-03-03',
      '2026-03-04',
      '2026-03-05',
      '2026-03-06',
      '2026-03-09',
      '2026-03-10',
      '2026-03-11',
      '2026-03-12',
      '2026-03-13',
      '2026-03-16',
    ]);
    for (const day of days) {
      expect(Object.keys(day.quotes)).toHaveLength(45);
      expect(day).toMatchObject({ publisher: 'nbu', quoteCurrency: 'UAH', cadence: 'daily' });
    }
  });

  it('drops the weekend days the body holds, which repeat Friday’s rates', () => {
    const text = new TextDecoder().decode(body);
    // The recording does publish them: Sunday 1 March and Saturday 7 March are in the body.
    expect(text).toContain('"exchangedate":"01.03.2026"');
    expect(text).toContain('"exchangedate":"07.03.2026"');
    for (const day of days) expect([0, 6]).not.toContain(new Date(`${day.date}T00:00:00Z`).getUTCDay());
    const friday = days.find((d) => d.date === '2026-03-06');
    const monday = days.find((d) => d.date === '2026-03-09');
    expect(friday?.quotes.USD).toBeDefined();
    expect(monday?.quotes.USD).toBeDefined();
  });

  it('reads a weekend-only body to no days, still checking its records', () => {
    const records = JSON.parse(new TextDecoder().decode(body)) as { exchangedate: string }[];
    const weekend = records.filter((r) => r.exchangedate === '07.03.2026' || r.exchangedate === '08.03.2026');
    expect(weekend.length).toBe(90);
    expect(parseNbu(new TextEncoder().encode(JSON.stringify(weekend)))).toEqual([]);
    const broken = weekend.map((r, i) => (i === 3 ? { ...r, units: 'x' } : r));
    expect(fail(new TextEncoder().encode(JSON.stringify(broken)))).toMatch(/units/);
  });

  it('prices the published units, not the per-unit figure', () => {
    const march2 = days.find((d) => d.date === '2026-03-02');
    expect(march2?.quotes.USD).toEqual({ amount: '1', price: '43.0996' });
    expect(march2?.quotes.JPY).toEqual({ amount: '10', price: '2.7646' });
    expect(march2?.quotes.VND).toEqual({ amount: '1000', price: '1.6541' });
  });

  it('keeps the units 1, 10, 100 and 1000 the bank uses, and 45 distinct codes', () => {
    const amounts = new Set(days.flatMap((d) => Object.values(d.quotes).map((q) => q.amount)));
    expect([...amounts].sort()).toEqual(['1', '10', '100', '1000']);
    expect(new Set(days.flatMap((d) => Object.keys(d.quotes))).size).toBe(45);
  });
});

describe('parseNbu on damaged bodies', () => {
  it('refuses a truncated body', () => expect(fail(recorded.truncated(body))).toMatch(/not (JSON|valid utf-8)/));
  it('refuses an HTML error page', () => expect(fail(recorded.HTML_ERROR_PAGE)).toMatch(/not JSON/));
  it('refuses a rate that disagrees with units × rate_per_unit', () =>
    expect(fail(recorded.damaged(body, '"rate":2.7646', '"rate":0.27646'))).toMatch(
      /JPY on 2026-03-02: rate 0.27646 is not/,
    ));
  it('refuses garbage in a rate', () =>
    expect(fail(recorded.damaged(body, '"rate":43.0996', '"rate":"n/a"'))).toMatch(/rate of USD on 2026-03-02/));
  it('refuses fractional units', () =>
    expect(fail(recorded.damaged(body, '"units":10,', '"units":2.5,'))).toMatch(/units '2.5'/));
  it('refuses a record without its units', () =>
    expect(fail(recorded.damaged(body, '"units":1,', '"unit":1,'))).toMatch(/has no 'units'/));
  it('refuses a bad date', () =>
    expect(fail(recorded.damaged(body, '"exchangedate":"01.03.2026"', '"exchangedate":"2026-03-01"'))).toMatch(
      /not a calendar day/,
    ));
  it('refuses a currency twice in one day', () =>
    expect(fail(recorded.damaged(body, SECOND, SECOND.replace('USD', 'EUR')))).toMatch(
      /EUR is quoted twice on 2026-03-02/,
    ));
  it('refuses a quote of the hryvnia itself and a code that is not ISO-looking', () => {
    expect(fail(recorded.damaged(body, SECOND, SECOND.replace('USD', 'UAH')))).toMatch(/quoted against itself/);
    expect(fail(recorded.damaged(body, SECOND, SECOND.replace('USD', 'US$')))).toMatch(/not an ISO code/);
  });
  it('refuses an empty list and a body in a single-byte code page', () => {
    expect(fail(new TextEncoder().encode('[]'))).toMatch(/no days/);
    expect(fail(recorded.singleByte(body))).toMatch(/not valid utf-8/);
  });
});

describe('NBU requests and facts', () => {
  it('asks for the recorded range exactly as recorded', () =>
    expect(nbuRequests('2026-03-01', '2026-03-16')).toEqual(recorded.recordedFiles('nbu').map((r) => r.uri)));
  it('splits a long range into months and takes a test origin', () =>
    expect(nbuRequests('2026-01-01', '2026-02-10', 'http://127.0.0.1:9')).toEqual([
      'http://127.0.0.1:9/NBU_Exchange/exchange_site?end=20260131&json=&order=asc&sort=exchangedate&start=20260101',
      'http://127.0.0.1:9/NBU_Exchange/exchange_site?end=20260210&json=&order=asc&sort=exchangedate&start=20260201',
    ]));
  it('states the facts the publisher states', () => expectRecordedFacts(NBU_PUBLISHER));
});
