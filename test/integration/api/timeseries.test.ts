import Big from 'big.js';
import { addDays } from '../../../lambdas/core/domain/dates';
import { ingestDays } from '../../../lambdas/core/ingest/ingest';
import { reconcile } from '../../../lambdas/core/ingest/reconcile';
import { ensureSeries } from '../../../lambdas/core/ingest/series';
import type { RatesStore } from '../../../lambdas/core/store/rates-store';
import { bundledFiles, readBundledDays } from '../../../local-server/bundled-data';
import { type ApiReply, startTestApi, type TestApi, useTestApi } from '../../support/api-service';

jest.setTimeout(60_000);

type Point = { date: string; rate: number };
interface Series {
  base: string;
  target: string;
  start: string;
  end: string;
  rates: Point[];
  summary: { first: Point; last: Point; change: number; change_pct: number; min: Point; max: Point };
}

const t = useTestApi();
const path = (pair: string, query: string) => `/rates/timeseries/${pair}?${query}`;
const series = (reply: ApiReply): Series => reply.json().data as unknown as Series;

/** The reply is an error answer with this status and exactly this error object. */
function expectError(reply: ApiReply, status: number, error: Record<string, string>): void {
  expect(reply.status).toBe(status);
  expect(reply.json().error).toEqual(error);
}

/** `date,rate` rows back into points, checking the header and the CRLF line ends. */
function parseCsv(text: string): Point[] {
  expect(text.endsWith('\r\n')).toBe(true);
  const lines = text.slice(0, -2).split('\r\n');
  expect(lines[0]).toBe('date,rate');
  return lines.slice(1).map((line) => {
    expect(line).toMatch(/^\d{4}-\d{2}-\d{2},\d+(\.\d+)?$/);
    const [date = '', rate = ''] = line.split(',');
    return { date, rate: Number(rate) };
  });
}

describe('GET /v1/rates/timeseries: the series and its summary', () => {
  it('answers one ascending entry per day on which both currencies have a rate, and no invented weekend rows', async () => {
    const reply = await t.api.get(path('USD/JPY', 'start=2026-03-01&end=2026-03-31'), t.key);
    expect(reply.status).toBe(200);
    expect(reply.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const data = series(reply);
    expect([data.base, data.target, data.start, data.end]).toEqual(['USD', 'JPY', '2026-03-01', '2026-03-31']);
    const dates = data.rates.map((p) => p.date);
    expect(dates).toEqual([...dates].sort());
    expect(new Set(dates).size).toBe(dates.length);
    // The ECB publishes on TARGET business days: March 2026 has 22, no Saturday or Sunday among them.
    expect(dates).toHaveLength(22);
    for (const date of dates) expect([0, 6]).not.toContain(new Date(`${date}T00:00:00Z`).getUTCDay());
  });

  it('summarizes with the exact change, the percentage rounded half-even to 4 places, and min/max with their days', async () => {
    const data = series(await t.api.get(path('USD/JPY', 'start=2025-10-01&end=2026-04-13'), t.key));
    const { rates, summary } = data;
    const first = rates[0] as Point;
    const last = rates.at(-1) as Point;
    expect(summary.first).toEqual(first);
    expect(summary.last).toEqual(last);
    const change = new Big(last.rate).minus(first.rate);
    expect(summary.change).toBe(Number(change.toString()));
    expect(summary.change_pct).toBe(Number(change.times(100).div(first.rate).round(4, Big.roundHalfEven).toString()));
    const lowest = Math.min(...rates.map((p) => p.rate));
    const highest = Math.max(...rates.map((p) => p.rate));
    expect(summary.min).toEqual(rates.find((p) => p.rate === lowest));
    expect(summary.max).toEqual(rates.find((p) => p.rate === highest));
  });

  it('writes change as the exact decimal difference of the rates shown, and 0 over a same-currency pair', async () => {
    // Over a same-currency pair every rate is 1: the change is 0 and so is its percentage.
    const same = series(await t.api.get(path('CHF/CHF', 'start=2026-04-01&end=2026-04-13'), t.key));
    expect(same.rates.every((p) => p.rate === 1)).toBe(true);
    expect([same.summary.change, same.summary.change_pct]).toEqual([0, 0]);
    const reply = await t.api.get(path('EUR/GBP', 'start=2026-04-01&end=2026-04-13'), t.key);
    const data = series(reply);
    const text = /"change":(-?[\d.]+)/.exec(reply.text)?.[1];
    expect(text).toBe(new Big(data.summary.last.rate).minus(data.summary.first.rate).toString());
  });

  it('accepts 366 days (a leap year) and refuses 367 with the count and the limit, naming end', async () => {
    const year = await t.api.get(path('USD/CHF', 'start=2024-02-01&end=2025-01-31'), t.key);
    expect(year.status).toBe(200);
    const leap = await t.api.get(path('USD/CHF', 'start=2024-01-01&end=2024-12-31'), t.key);
    expect(leap.status).toBe(200);
    const tooLong = await t.api.get(path('USD/CHF', 'start=2024-01-01&end=2025-01-01'), t.key);
    expectError(tooLong, 400, {
      code: 'invalid-parameter',
      message: 'The range from 2024-01-01 to 2025-01-01 covers 367 days; at most 366 are allowed.',
      param: 'end',
    });
  });

  it('answers 404 no-data-available for a range without any rate for the pair', async () => {
    // Offline, the bundled data has no day between the ECB's last (2026-04-13) and currency-api's first (09-01).
    const reply = await t.api.get(path('USD/JPY', 'start=2026-05-01&end=2026-05-31'), t.key);
    expectError(reply, 404, {
      code: 'no-data-available',
      message: 'No rate is available for USD/JPY between 2026-05-01 and 2026-05-31.',
    });
    expect(reply.headers.get('cache-control')).toBe('no-store');
  });

  it('takes withdrawn codes for the days they have data, and 404 where they have none', async () => {
    const cyp = await t.api.get(path('CYP/EUR', 'start=1999-01-01&end=1999-01-31'), t.key);
    expect(cyp.status).toBe(200);
    expect(series(cyp).rates.length).toBeGreaterThan(15);
    const later = await t.api.get(path('CYP/EUR', 'start=2025-01-01&end=2025-01-31'), t.key);
    expect(later.status).toBe(404);
    expect(later.json().error?.code).toBe('no-data-available');
  });
});

describe('GET /v1/rates/timeseries: each value is what history answers', () => {
  const pairs = [
    ['USD', 'JPY'],
    ['EUR', 'USD'],
    ['GBP', 'EUR'],
    ['CHF', 'CHF'],
    // Only currency-api quotes AED, from 2026-09-01 in the bundled data.
    ['AED', 'JPY'],
    ['USD', 'AED'],
  ] as const;

  it.each(pairs)('%s/%s over the Pro window years, the currency-api days and January 1999', async (from, to) => {
    const ranges: [string, string][] = [
      ['1999-01-01', '1999-01-31'],
      ['2025-04-14', '2026-04-13'],
      ['2026-09-01', '2026-09-29'],
    ];
    for (const [start, end] of ranges) {
      const reply = await t.api.get(path(`${from}/${to}`, `start=${start}&end=${end}`), t.key);
      if (from === 'AED' || to === 'AED') {
        if (start < '2026-09-01') {
          expect(reply.status).toBe(404);
          continue;
        }
      }
      expect([from, to, start, reply.status]).toEqual([from, to, start, 200]);
      const points = series(reply).rates;
      // Every 9th day, and the ends: each entry equals history's rate, and each day left out has no history rate.
      const inSeries = new Map(points.map((p) => [p.date, p.rate]));
      const sampled: string[] = [];
      for (let day = start, i = 0; day <= end; day = addDays(day, 1), i++)
        if (i % 9 === 0 || day === end) sampled.push(day);
      const histories = await Promise.all(
        sampled.map((day) => t.api.get(`/rates/history/${from}/${to}/${day}`, t.key)),
      );
      histories.forEach((history, i) => {
        const day = sampled[i] as string;
        const rate = history.status === 200 ? (history.json().data?.rate as number) : undefined;
        expect([day, inSeries.get(day)]).toEqual([day, rate]);
      });
    }
  });
});

describe('GET /v1/rates/timeseries over the whole bundled history, loaded by ingestion as npm start loads it', () => {
  let api: TestApi;
  let key: string;
  beforeAll(async () => {
    api = await startTestApi({
      loadRates: async ({ store }) => {
        const all = readBundledDays(bundledFiles());
        const days = [...all.ecb, ...all.currencyApi];
        await ensureSeries(store, { clock: () => new Date('2026-09-30T12:00:00Z') });
        await ingestDays(store, { days, reports: {}, clock: () => new Date('2026-09-30T12:00:00Z') });
        return 'all bundled days';
      },
    });
    key = (await api.newKey('business')).key;
  }, 120_000);
  afterAll(() => api?.close());

  /** One pair per year, in turn: ECB pairs, EUR pairs, a withdrawn code in its years, the same currency twice. */
  const PAIRS = [
    ['USD', 'JPY'],
    ['EUR', 'GBP'],
    ['CHF', 'EUR'],
    ['GBP', 'AUD'],
    ['CYP', 'USD'],
    ['SEK', 'SEK'],
    ['CAD', 'NOK'],
  ] as const;

  it('equals history on sampled days of every year from 1999 to 2026, and the currency-api days', async () => {
    const checked: string[] = [];
    for (let year = 1999; year <= 2026; year++) {
      const [from, to] = PAIRS[year % PAIRS.length] as readonly [string, string];
      // The Cyprus pound (withdrawn) has ECB rates until 2007; after that, another pair takes its turn.
      const pair = from === 'CYP' && year > 2007 ? ['USD', 'CHF'] : [from, to];
      const start = `${year}-01-01`;
      const end = year === 2026 ? '2026-09-29' : `${year}-12-31`;
      const reply = await api.get(path(`${pair[0]}/${pair[1]}`, `start=${start}&end=${end}`), key);
      expect([year, reply.status]).toEqual([year, 200]);
      const inSeries = new Map(series(reply).rates.map((p) => [p.date, p.rate]));
      const sampled: string[] = [];
      for (let day = start, i = 0; day <= end; day = addDays(day, 1), i++) if (i % 23 === year % 23) sampled.push(day);
      const histories = await Promise.all(
        sampled.map((day) => api.get(`/rates/history/${pair[0]}/${pair[1]}/${day}`, key)),
      );
      histories.forEach((history, i) => {
        const day = sampled[i] as string;
        const rate = history.status === 200 ? (history.json().data?.rate as number) : undefined;
        expect([day, inSeries.get(day)]).toEqual([day, rate]);
        if (rate !== undefined) checked.push(day);
      });
    }
    expect(checked.length).toBeGreaterThan(250);
    // A currency only currency-api quotes, on every bundled currency-api day, against an ECB one and EUR.
    for (const pair of ['AED/JPY', 'EUR/AED', 'ISK/AED']) {
      const reply = await api.get(path(pair, 'start=2026-09-01&end=2026-09-29'), key);
      const points = series(reply).rates;
      expect(points).toHaveLength(29);
      const histories = await Promise.all(points.map((p) => api.get(`/rates/history/${pair}/${p.date}`, key)));
      expect(histories.map((h) => h.json().data?.rate)).toEqual(points.map((p) => p.rate));
    }
  });
});

describe('GET /v1/rates/timeseries on a table whose series are not built yet (upgraded from a version without them)', () => {
  let api: TestApi;
  let key: string;
  let store: RatesStore | undefined;
  beforeAll(async () => {
    api = await startTestApi({
      loadRates: async (target) => {
        store = target.store;
        // An earlier version's writes: days and LATEST, no series items and no marker.
        const all = readBundledDays(bundledFiles(), { from: '2026-03-01', to: '2026-09-30' });
        const days = [...all.ecb, ...all.currencyApi];
        const planned = reconcile({ fetched: days, stored: new Map(), today: '2026-09-30' });
        await target.store.putDays(planned.writes);
        if (planned.latest) await target.store.putLatest(planned.latest);
        return 'days without series';
      },
    });
    key = (await api.newKey('business')).key;
  });
  afterAll(() => api?.close());

  it('answers 503 service-unavailable until the rebuild records the series, then serves them', async () => {
    const query = path('USD/JPY', 'start=2026-03-01&end=2026-03-31');
    const before = await api.get(query, key);
    expectError(before, 503, {
      code: 'service-unavailable',
      message: 'The time series are being built from the stored days; please retry in a few minutes.',
    });
    if (!store) throw new Error('the loader keeps the store');
    const rebuilt = await ensureSeries(store, { clock: api.clock.now });
    expect(rebuilt?.recorded).toBe(true);
    // The marker is read again after the LATEST TTL (60 s); from then on it is remembered.
    expect((await api.get(query, key)).status).toBe(503);
    api.clock.advance(61_000);
    const after = await api.get(query, key);
    expect(after.status).toBe(200);
    expect(series(after).rates.length).toBeGreaterThan(15);
  });
});

describe('GET /v1/rates/timeseries as CSV', () => {
  const query = 'start=2026-03-02&end=2026-04-13';

  it('answers date,rate rows with CRLF for format=csv, the same days and rates as the JSON, as an attachment', async () => {
    const json = await t.api.get(path('USD/JPY', query), t.key);
    const csv = await t.api.get(path('USD/JPY', `${query}&format=csv`), t.key);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toBe('attachment; filename="USD-JPY-2026-03-02-2026-04-13.csv"');
    expect(csv.headers.get('vary')).toBe('Accept');
    expect(json.headers.get('vary')).toBe('Accept');
    expect(parseCsv(csv.text)).toEqual(series(json).rates);
    expect(csv.headers.get('etag')).toMatch(/^"/);
    expect(csv.headers.get('etag')).not.toBe(json.headers.get('etag'));
    expect(csv.headers.get('x-ratelimit-remaining-month')).not.toBeNull();
  });

  it('answers CSV for Accept: text/csv, and an explicit format wins over Accept', async () => {
    const byAccept = await t.api.get(path('USD/JPY', query), t.key, { Accept: 'text/csv' });
    expect(byAccept.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const preferred = await t.api.get(path('USD/JPY', query), t.key, { Accept: 'text/csv, */*;q=0.8' });
    expect(preferred.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const json = await t.api.get(path('USD/JPY', `${query}&format=json`), t.key, { Accept: 'text/csv' });
    expect(json.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const csv = await t.api.get(path('USD/JPY', `${query}&format=csv`), t.key, { Accept: 'application/json' });
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const jsonPreferred = await t.api.get(path('USD/JPY', query), t.key, {
      Accept: 'application/json, text/csv;q=0.5',
    });
    expect(jsonPreferred.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  it('keeps errors in JSON when CSV is asked for', async () => {
    const reply = await t.api.get(path('USD/JPY', 'start=2026-05-01&end=2026-05-31&format=csv'), t.key, {
      Accept: 'text/csv',
    });
    expect(reply.status).toBe(404);
    expect(reply.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(reply.json().error?.code).toBe('no-data-available');
  });

  it('refuses any other format with 400 invalid-parameter naming format', async () => {
    for (const format of ['xml', 'CSV', '']) {
      const reply = await t.api.get(path('USD/JPY', `${query}&format=${format}`), t.key);
      expect([format, reply.status, reply.json().error?.code, reply.json().error?.param]).toEqual([
        format,
        400,
        'invalid-parameter',
        'format',
      ]);
    }
  });

  it('answers 304 to a matching If-None-Match for each variant, with its own ETag', async () => {
    const csv = await t.api.get(path('USD/JPY', `${query}&format=csv`), t.key);
    const json = await t.api.get(path('USD/JPY', query), t.key);
    const again = await t.api.get(path('USD/JPY', `${query}&format=csv`), t.key, {
      'If-None-Match': csv.headers.get('etag') ?? '',
    });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.get('vary')).toBe('Accept');
    const crossed = await t.api.get(path('USD/JPY', query), t.key, { 'If-None-Match': csv.headers.get('etag') ?? '' });
    expect(crossed.status).toBe(200);
    const jsonAgain = await t.api.get(path('USD/JPY', query), t.key, {
      'If-None-Match': json.headers.get('etag') ?? '',
    });
    expect(jsonAgain.status).toBe(304);
  });
});

describe('GET /v1/rates/timeseries: refusals, each with its parameter', () => {
  // Every row has a message; an empty one is not compared (it.each passes `done` to a row shorter than the test).
  // The status each error code answers with.
  const STATUS: Record<string, number> = { 'invalid-parameter': 400, 'invalid-date': 400, 'unsupported-currency': 422 };
  const LONG = '2'.repeat(65);
  // Every row has a message; an empty one is not compared (it.each passes `done` to a row shorter than the test).
  const cases: [string, string, string, string][] = [
    ['USD/JPY?end=2026-04-13', 'invalid-parameter', 'start', "The parameter 'start' is required."],
    ['USD/JPY?start=2026-04-01', 'invalid-parameter', 'end', "The parameter 'end' is required."],
    ['USD/JPY?start=2026-4-1&end=2026-04-13', 'invalid-date', 'start', 'The date must be in the format YYYY-MM-DD.'],
    ['USD/JPY?start=2026-04-01&end=2026-02-30', 'invalid-date', 'end', 'The date is not a real calendar day.'],
    ['USD/JPY?start=2026-09-01&end=2026-10-01', 'invalid-date', 'end', 'The date must not be in the future.'],
    [
      'USD/JPY?start=2026-04-13&end=2026-04-01',
      'invalid-parameter',
      'start',
      'The start 2026-04-13 is after the end 2026-04-01.',
    ],
    [`USD/JPY?start=${LONG}&end=2026-04-13`, 'invalid-parameter', 'start', "The parameter 'start' is too long."],
    ['XYZ/JPY?start=2026-04-01&end=2026-04-13', 'unsupported-currency', 'from', "Currency 'XYZ' is not supported."],
    ['USD/xyz?start=2026-04-01&end=2026-04-13', 'unsupported-currency', 'to', ''],
    // A 400 outranks a 422, the range's own checks included.
    ['XYZ/JPY?start=2026-04-13&end=2026-04-01', 'invalid-parameter', 'start', ''],
    ['XYZ/JPY?start=2026-04-01', 'invalid-parameter', 'end', ''],
  ];

  it.each(cases.map(([request, code, param, message]) => [request, STATUS[code], code, param, message] as const))(
    '%s → %i %s (%s)',
    async (request, status, code, param, message) => {
      const reply = await t.api.get(`/rates/timeseries/${request}`, t.key);
      expect(reply.status).toBe(status);
      const error = reply.json().error;
      expect([error?.code, error?.param]).toEqual([code, param]);
      if (message) expect(error?.message).toBe(message);
      expect(reply.headers.get('cache-control')).toBe('no-store');
    },
  );

  it('refuses a parameter given twice', async () => {
    const reply = await t.api.get(path('USD/JPY', 'start=2026-04-01&start=2026-04-02&end=2026-04-13'), t.key);
    expect([reply.status, reply.json().error?.param]).toEqual([400, 'start']);
  });
});

describe('GET /v1/rates/timeseries: plans, at the Pro window edges (today 2026-09-30)', () => {
  it('refuses Free with 403 plan-upgrade-required, after the input checks', async () => {
    const { key } = await t.api.newKey('free');
    const reply = await t.api.get(path('USD/JPY', 'start=2026-09-01&end=2026-09-29'), key);
    expect(reply.status).toBe(403);
    expect(reply.json().error?.code).toBe('plan-upgrade-required');
    expect((await t.api.get(path('XYZ/JPY', 'start=2026-09-01&end=2026-09-29'), key)).status).toBe(422);
    expect((await t.api.get(path('USD/JPY', 'start=2026-09-29&end=2026-09-01'), key)).status).toBe(400);
  });

  it('serves Pro a range that starts exactly one year back, and refuses one that starts a day earlier, naming start', async () => {
    const { key } = await t.api.newKey('pro');
    const edge = await t.api.get(path('USD/JPY', 'start=2025-09-30&end=2026-04-13'), key);
    expect(edge.status).toBe(200);
    expect(series(edge).rates[0]?.date).toBe('2025-09-30');
    const before = await t.api.get(path('USD/JPY', 'start=2025-09-29&end=2026-04-13'), key);
    expectError(before, 403, {
      code: 'plan-upgrade-required',
      message: 'Your plan includes history back to 2025-09-30; upgrade to Business for the full history since 1999.',
      param: 'start',
    });
  });

  it('moves the Pro window with the clock', async () => {
    const { key } = await t.api.newKey('pro');
    t.api.clock.set('2026-10-01T00:00:01Z');
    try {
      expect((await t.api.get(path('USD/JPY', 'start=2025-09-30&end=2026-04-13'), key)).status).toBe(403);
      expect((await t.api.get(path('USD/JPY', 'start=2025-10-01&end=2026-04-13'), key)).status).toBe(200);
    } finally {
      t.api.clock.set('2026-09-30T12:00:00Z');
    }
  });

  it('serves Business back to 1999', async () => {
    const reply = await t.api.get(path('USD/JPY', 'start=1999-01-01&end=1999-01-31'), t.key);
    expect(reply.status).toBe(200);
    expect(series(reply).rates[0]?.date).toBe('1999-01-04');
  });
});

describe('GET /v1/rates/timeseries: caching and metering', () => {
  it('caches a range that ended more than a week ago as immutable, a more recent one for an hour', async () => {
    const cacheControl = async (end: string) =>
      (await t.api.get(path('EUR/USD', `start=2026-09-01&end=${end}`), t.key)).headers.get('cache-control');
    expect(await cacheControl('2026-09-22')).toBe('private, max-age=604800, immutable');
    expect(await cacheControl('2026-09-23')).toBe('private, max-age=3600');
    expect(await cacheControl('2026-09-29')).toBe('private, max-age=3600');
  });

  it('counts one request toward the month, whatever the format', async () => {
    const { key } = await t.api.newKey('business');
    const remaining = async (query: string) =>
      Number((await t.api.get(path('USD/JPY', query), key)).headers.get('x-ratelimit-remaining-month'));
    const first = await remaining('start=2026-03-01&end=2026-03-31');
    expect(await remaining('start=2026-03-01&end=2026-03-31&format=csv')).toBe(first - 1);
    expect(await remaining('start=2026-03-31&end=2026-03-01')).toBe(first - 2);
  });
});
