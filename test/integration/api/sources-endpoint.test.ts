import { PUBLISHERS } from '../../../lambdas/core/domain/publishers';
import type { SourceId } from '../../../lambdas/core/domain/rates';
import { SOURCE_FACTS, SOURCE_SCHEDULES } from '../../../lambdas/core/domain/source-facts';
import { fetchersFor } from '../../../lambdas/core/ingest/fetchers';
import { runIngestion } from '../../../lambdas/core/ingest/ingest';
import { useTestApi } from '../../support/api-service';
import { readEcbTable, startUpstreamServer, type UpstreamServer } from '../../support/upstream-server';

jest.setTimeout(60_000);

/** 24 weeks: moves the ECB history's last Monday (2026-04-13) onto 2026-09-28, keeping weekdays. */
const ECB_SHIFT_DAYS = 168;
const table = readEcbTable();

interface SourceEntry {
  id: string;
  name: string;
  schedule: string;
  origin: string | null;
  last_fetch_at: string | null;
  last_published_date: string | null;
  last_published_at: string | null;
  currencies: string[];
  feeds_latest: boolean;
  country: string | null;
  rate_kind: string;
  terms_url: string | null;
  data_url: string;
  serving: string[];
  cross_check: {
    date: string;
    tolerance: number;
    compared: number;
    over_tolerance: number;
    max_spread: number;
    worst: { code: string; spread: number; served_by: string } | null;
  } | null;
}

/** The fields a source's facts give it, whatever was ingested. */
const factsOf = (id: SourceId) => ({
  country: SOURCE_FACTS[id].country,
  rate_kind: SOURCE_FACTS[id].rateKind,
  terms_url: SOURCE_FACTS[id].termsUrl,
  data_url: SOURCE_FACTS[id].dataUrl,
});

/** Each source's codes in a LATEST's `sources`, sorted, as `serving` should list them. */
function servingOf(sources: Readonly<Record<string, string>>, id: string): string[] {
  return Object.entries(sources)
    .filter(([code, source]) => source === id && code !== 'EUR')
    .map(([code]) => code)
    .sort();
}

/**
 * GET /v1/sources over real HTTP, before and after real ingestion runs against the local upstream stand-ins, and
 * what the runs change in latest (expand=sources, next_update_at).
 */
describe('GET /v1/sources', () => {
  // Configured for the two sources these runs ingest (every source, the central banks among them, is the default);
  // set before the service starts, which reads it once.
  const saved = process.env.SOURCES;
  let upstream: UpstreamServer;
  beforeAll(async () => {
    process.env.SOURCES = 'ecb,currency-api';
    upstream = await startUpstreamServer({ ecbShiftDays: ECB_SHIFT_DAYS });
  });
  afterAll(async () => {
    if (saved === undefined) delete process.env.SOURCES;
    else process.env.SOURCES = saved;
    await upstream.close();
  });
  const ctx = useTestApi();

  const sources = async (key = ctx.key) => {
    const r = await ctx.api.get('sources', key);
    expect(r.status).toBe(200);
    return { reply: r, list: (r.json().data as { sources: SourceEntry[] }).sources };
  };
  const ingest = () =>
    runIngestion({
      store: ctx.api.service.ratesStore,
      clock: ctx.api.clock.now,
      fetchers: fetchersFor(['ecb', 'currency-api'], { urls: upstream.urls, timeoutMs: 5000, mode: 'scheduled' }),
    });
  /** Past the 60 s the endpoints keep LATEST and the status item in memory. */
  const pastCache = () => ctx.api.clock.advance(61_000);

  it('lists every configured source, with nothing recorded before any ingestion run', async () => {
    const { reply, list } = await sources();
    const latest = await ctx.api.service.ratesStore.getLatest();
    expect(list).toEqual([
      {
        id: 'ecb',
        name: SOURCE_SCHEDULES.ecb.name,
        schedule: SOURCE_SCHEDULES.ecb.schedule,
        origin: null,
        last_fetch_at: null,
        last_published_date: null,
        last_published_at: null,
        currencies: [],
        // The test data's latest rates are currency-api's alone.
        feeds_latest: false,
        ...factsOf('ecb'),
        serving: [],
        cross_check: null,
      },
      {
        id: 'currency-api',
        name: SOURCE_SCHEDULES['currency-api'].name,
        schedule: SOURCE_SCHEDULES['currency-api'].schedule,
        origin: null,
        last_fetch_at: null,
        last_published_date: null,
        last_published_at: null,
        currencies: [],
        feeds_latest: true,
        ...factsOf('currency-api'),
        serving: servingOf(latest?.sources ?? {}, 'currency-api'),
        cross_check: null,
      },
    ]);
    expect(list[1]?.serving.length).toBeGreaterThan(100);
    expect(list[1]?.serving).not.toContain('EUR');
    expect(reply.headers.get('cache-control')).toBe('private, max-age=60');
    const etag = reply.headers.get('etag') ?? '';
    expect(etag).not.toBe('');
    expect((await ctx.api.get('sources', ctx.key, { 'If-None-Match': etag })).status).toBe(304);
  });

  it('records each source after a run: its fetch, newest day, publication and currencies; both feed latest', async () => {
    ctx.api.clock.set('2026-09-30T12:30:00Z');
    const run = await ingest();
    expect(run.status).toBe('ok');
    pastCache();
    const { list } = await sources();
    const [ecb, api] = list;
    expect(ecb).toMatchObject({
      id: 'ecb',
      origin: 'upstream',
      last_fetch_at: '2026-09-30T12:30:00Z',
      last_published_date: '2026-09-28',
      last_published_at: '2026-09-28T14:00:00Z',
      feeds_latest: true,
    });
    expect(ecb?.currencies).toEqual([...table.codes].filter((c) => ecb?.currencies.includes(c)).sort());
    expect(ecb?.currencies).toContain('USD');
    expect(ecb?.currencies).not.toContain('EUR');
    expect(ecb?.currencies).not.toContain('AED');
    expect(api).toMatchObject({
      id: 'currency-api',
      origin: 'upstream',
      last_fetch_at: '2026-09-30T12:30:00Z',
      last_published_date: '2026-09-29',
      last_published_at: '2026-09-29T00:00:00Z',
      feeds_latest: true,
    });
    expect(api?.currencies).toContain('AED');
    expect(api?.currencies).not.toContain('EUR');
    expect(api?.currencies.length).toBeGreaterThan(100);
  });

  it('shows in `serving` exactly the codes latest takes from each source', async () => {
    const latest = await ctx.api.service.ratesStore.getLatest();
    const { list } = await sources();
    const [ecb, api] = list;
    expect(ecb?.serving).toEqual(servingOf(latest?.sources ?? {}, 'ecb'));
    expect(api?.serving).toEqual(servingOf(latest?.sources ?? {}, 'currency-api'));
    expect(ecb?.serving).toContain('USD');
    expect(api?.serving).toContain('AED');
    expect(api?.serving).not.toContain('USD');
    expect([...(ecb?.serving ?? []), ...(api?.serving ?? [])].sort()).toEqual(
      Object.keys(latest?.rates ?? {})
        .filter((code) => code !== 'EUR')
        .sort(),
    );
    // Neither quote was compared with another publisher's: no figures.
    expect(list.map((entry) => entry.cross_check)).toEqual([null, null]);
  });

  it('then names ECB and currency-api quotes apart in latest, and expects the ECB’s next publication', async () => {
    const latest = await ctx.api.get('rates/latest?base=JPY&expand=sources', ctx.key);
    const data = latest.json().data as { sources: Record<string, string>; next_update_at: string; base: string };
    expect(data.sources.USD).toBe('ecb');
    expect(data.sources.JPY).toBe('ecb');
    expect(data.sources.AED).toBe('currency-api');
    expect(data.sources.EUR).toBeUndefined();
    const stored = await ctx.api.service.ratesStore.getLatest();
    for (const [code, source] of Object.entries(data.sources))
      expect([code, source]).toEqual([code, stored?.sources[code]]);
    // Wednesday 12:31 UTC: the ECB publishes at 16:00 Berlin time (14:00 UTC in summer), before currency-api's midnight.
    expect(data.next_update_at).toBe('2026-09-30T14:00:00Z');
    ctx.api.clock.set('2026-09-30T14:00:00Z');
    expect((await ctx.api.get('rates/latest', ctx.key)).json().data?.next_update_at).toBe('2026-10-01T00:00:00Z');
    expect((await ctx.api.get('rates/pair/USD/AED?expand=sources', ctx.key)).json().data?.sources).toEqual({
      USD: 'ecb',
      AED: 'currency-api',
    });
    expect((await ctx.api.get('rates/enriched/AED/EUR?expand=sources', ctx.key)).json().data?.sources).toEqual({
      AED: 'currency-api',
    });
    // The day both delivered, in history too.
    expect(
      (await ctx.api.get('rates/history/USD/AED/2026-09-28?expand=sources', ctx.key)).json().data?.sources,
    ).toEqual({ USD: 'ecb', AED: 'currency-api' });
  });

  it('keeps the status of a source that fails, and updates the one that delivers', async () => {
    const before = (await sources()).list;
    ctx.api.clock.set('2026-09-30T15:00:00Z');
    upstream.override(upstream.ecbPath('eurofxref-daily.xml'), { status: 503 });
    upstream.override(upstream.ecbPath('eurofxref-hist-90d.xml'), { status: 503 });
    try {
      const run = await ingest();
      expect(run.status).toBe('partial');
    } finally {
      upstream.reset();
      upstream.configure({ ecbShiftDays: ECB_SHIFT_DAYS });
    }
    pastCache();
    const after = (await sources()).list;
    expect(after[0]).toEqual(before[0]);
    expect(after[1]).toEqual({ ...before[1], last_fetch_at: '2026-09-30T15:00:00Z' });
  });

  it('is answered on every plan and counts toward the minute and the month', async () => {
    const free = await ctx.api.newKey('free', { perMinute: 100, monthlyLimit: 100 });
    const first = await sources(free.key);
    expect(first.reply.headers.get('x-ratelimit-remaining-month')).toBe('99');
    const second = await sources(free.key);
    expect(second.reply.headers.get('x-ratelimit-remaining-month')).toBe('98');
    const quota = (await ctx.api.get('quota', free.key)).json().data as { quota: { used: number } };
    expect(quota.quota.used).toBe(2);
    for (const plan of ['pro', 'business'] as const) await sources((await ctx.api.newKey(plan)).key);
  });

  it('ignores unknown query parameters', async () => {
    expect((await ctx.api.get('sources?expand=sources&x=1', ctx.key)).status).toBe(200);
  });
});

describe('GET /v1/sources with ingestion configured for the ECB only', () => {
  const saved = process.env.SOURCES;
  // The endpoint reads the configuration once, when the service builds it: set before the server starts.
  beforeAll(() => {
    process.env.SOURCES = 'ecb';
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.SOURCES;
    else process.env.SOURCES = saved;
  });
  const ctx = useTestApi();

  it('lists only the configured source, not every source the service knows', async () => {
    const r = await ctx.api.get('sources', ctx.key);
    expect(r.status).toBe(200);
    const list = (r.json().data as { sources: SourceEntry[] }).sources;
    expect(list.map((entry) => entry.id)).toEqual(['ecb']);
  });
});

describe('GET /v1/sources with a central bank configured', () => {
  const saved = process.env.SOURCES;
  beforeAll(() => {
    // Configured out of precedence order: the listing puts the ECB first and the aggregator last all the same.
    process.env.SOURCES = 'currency-api,nbp,ecb';
  });
  afterAll(() => {
    if (saved === undefined) delete process.env.SOURCES;
    else process.env.SOURCES = saved;
  });
  const ctx = useTestApi();

  it('names the publisher and shows its cross-check figures and the codes it serves in latest', async () => {
    const store = ctx.api.service.ratesStore;
    await store.recordSourceStatus('nbp', {
      origin: 'upstream',
      fetchedAt: '2026-09-30T11:30:02Z',
      publishedDate: '2026-09-30',
      publishedAt: '2026-09-30T11:00:00Z',
      currencies: ['CLP', 'UAH', 'USD'],
      crossCheck: {
        date: '2026-09-30',
        tolerance: 0.05,
        compared: 2,
        overTolerance: 1,
        maxSpread: 0.0712,
        worst: { code: 'USD', spread: 0.0712, servedBy: 'ecb' },
      },
    });
    await store.putLatest({
      date: '2026-09-30',
      rates: { EUR: 1, USD: 1.16, UAH: 48.1, CLP: 1090.5, AED: 4.26 },
      sources: { USD: 'ecb', UAH: 'nbp', CLP: 'nbp', AED: 'currency-api' },
      publishedAt: '2026-09-30T11:00:00Z',
    });
    const r = await ctx.api.get('sources', ctx.key);
    expect(r.status).toBe(200);
    const list = (r.json().data as { sources: SourceEntry[] }).sources;
    expect(list.map((entry) => entry.id)).toEqual(['ecb', 'nbp', 'currency-api']);
    expect(list[1]).toEqual({
      id: 'nbp',
      name: 'Narodowy Bank Polski',
      schedule: SOURCE_SCHEDULES.nbp.schedule,
      origin: 'upstream',
      last_fetch_at: '2026-09-30T11:30:02Z',
      last_published_date: '2026-09-30',
      last_published_at: '2026-09-30T11:00:00Z',
      currencies: ['CLP', 'UAH', 'USD'],
      feeds_latest: true,
      country: 'PL',
      rate_kind: PUBLISHERS.nbp.rateKind,
      terms_url: null,
      data_url: PUBLISHERS.nbp.dataUrl,
      serving: ['CLP', 'UAH'],
      cross_check: {
        date: '2026-09-30',
        tolerance: 0.05,
        compared: 2,
        over_tolerance: 1,
        max_spread: 0.0712,
        worst: { code: 'USD', spread: 0.0712, served_by: 'ecb' },
      },
    });
    expect(list.map((entry) => entry.serving)).toEqual([['USD'], ['CLP', 'UAH'], ['AED']]);
    expect(list[0]).toMatchObject({
      country: null,
      rate_kind: 'euro foreign exchange reference rate',
      cross_check: null,
    });
  });
});
