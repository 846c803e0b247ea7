import { addDays, type Clock, currencyApiPublishedAt } from '../../../lambdas/core/domain/dates';
import { fetchersFor, type IngestMode } from '../../../lambdas/core/ingest/fetchers';
import { runIngestion } from '../../../lambdas/core/ingest/ingest';
import { RatesStore } from '../../../lambdas/core/store/rates-store';
import { backends, freshTables } from '../../support/backends';
import { HOSTILE, last90Rows, readEcbTable, useUpstreamServer } from '../../support/upstream-server';

jest.setTimeout(60_000);

const table = readEcbTable();
const ecbNewest = table.rows[0]?.date ?? '';
const ecbWindow = last90Rows(table);
const API_NEWEST = '2026-09-29';
const clock: Clock = () => new Date(`${API_NEWEST}T12:00:00Z`);
/** 24 weeks: moves the ECB history's last Monday (2026-04-13) onto 2026-09-28, keeping weekdays. */
const ECB_SHIFT_DAYS = 168;

const upstream = useUpstreamServer();

describe.each(backends())('ingestion on $name', (backend) => {
  let store: RatesStore;
  beforeEach(async () => {
    const tables = await freshTables(backend);
    store = new RatesStore(tables.client, tables.ratesTable);
  });

  const run = (mode: IngestMode = 'scheduled', timeoutMs = 2000) =>
    runIngestion({
      store,
      clock,
      fetchers: fetchersFor(['ecb', 'currency-api'], { urls: upstream.server.urls, timeoutMs, mode }),
    });

  it('writes the ECB 90-day window and the recent currency-api days, and LATEST from currency-api alone while ECB is months behind', async () => {
    const result = await run();
    expect(result.status).toBe('ok');
    expect(result.sources.ecb).toMatchObject({ status: 'ok', days: ecbWindow.length, newest: ecbNewest });
    expect(result.sources['currency-api']).toMatchObject({ status: 'ok', days: 4, newest: API_NEWEST });
    expect(result.daysWritten).toBe(ecbWindow.length + 4);
    expect(result.rejections).toEqual([]);

    const ecbDay = await store.getDay(ecbNewest);
    expect(ecbDay?.rates.USD).toBe(Number(table.rows[0]?.values[table.codes.indexOf('USD')]));
    expect(ecbDay?.sources.USD).toBe('ecb');
    expect(await store.getDay(addDays(API_NEWEST, -3))).toBeDefined();
    expect(await store.getDay(addDays(API_NEWEST, -4))).toBeUndefined();

    const latest = await store.getLatest();
    expect(latest?.date).toBe(API_NEWEST);
    expect(latest?.publishedAt).toBe(currencyApiPublishedAt(API_NEWEST));
    expect(new Set(Object.values(latest?.sources ?? {}))).toEqual(new Set(['currency-api']));
    expect(result.latest).toEqual({
      date: API_NEWEST,
      publishedAt: latest?.publishedAt,
      currencies: Object.keys(latest?.rates ?? {}).length,
    });
  });

  it('writes 0 items on a second identical run', async () => {
    const first = await run();
    expect(first.itemsWritten).toBeGreaterThan(0);
    const second = await run();
    expect(second.itemsWritten).toBe(0);
    expect(second.daysUnchanged).toBe(first.daysWritten);
  });

  it('takes ECB currencies from ECB and the rest from currency-api once ECB is current', async () => {
    upstream.server.configure({ ecbShiftDays: ECB_SHIFT_DAYS });
    await run();
    const latest = await store.getLatest();
    expect(latest?.date).toBe(API_NEWEST);
    expect(latest?.sources.USD).toBe('ecb');
    expect(latest?.rates.USD).toBe(Number(table.rows[0]?.values[table.codes.indexOf('USD')]));
    expect(latest?.sources.AED).toBe('currency-api');
    const shared = await store.getDay(addDays(ecbNewest, ECB_SHIFT_DAYS));
    expect(shared?.sources.USD).toBe('ecb');
    expect(shared?.sources.AED).toBe('currency-api');
  });

  it('runs partially from currency-api when ECB answers 503', async () => {
    upstream.server.override(upstream.server.ecbPath('eurofxref-daily.xml'), { status: 503 });
    upstream.server.override(upstream.server.ecbPath('eurofxref-hist-90d.xml'), { status: 503 });
    const result = await run();
    expect(result.status).toBe('partial');
    expect(result.sources.ecb).toMatchObject({ status: 'failed', days: 0 });
    expect(result.sources.ecb?.error).toMatch(/HTTP 503/);
    expect(result.daysWritten).toBe(4);
    expect((await store.getLatest())?.date).toBe(API_NEWEST);
    expect(await store.getDay(ecbNewest)).toBeUndefined();
  });

  it('runs partially from ECB when currency-api times out on both URLs', async () => {
    upstream.server.override(upstream.server.currencyApiPath('latest'), { stall: true });
    upstream.server.override(upstream.server.fallbackPath('latest'), { delayMs: 10_000 });
    // A deadline far short of the stall and the delay: the test waits out two of 1 s rather than two of 2 s.
    const result = await run('scheduled', 1000);
    expect(result.status).toBe('partial');
    expect(result.sources['currency-api']?.error).toMatch(/within 1000 ms/);
    expect(result.daysWritten).toBe(ecbWindow.length);
    expect((await store.getLatest())?.date).toBe(ecbNewest);
  });

  it('uses the currency-api fallback URL when the primary is down', async () => {
    upstream.server.override(upstream.server.currencyApiPath('latest'), { status: 502 });
    const result = await run();
    expect(result.sources['currency-api']?.status).toBe('ok');
    expect(upstream.server.requests).toContain(upstream.server.fallbackPath('latest'));
  });

  it('rejects hostile bodies and keeps the last good data', async () => {
    await run();
    const before = await store.getLatest();
    upstream.server.override(upstream.server.ecbPath('eurofxref-daily.xml'), { body: HOSTILE.entityExpansion });
    upstream.server.override(upstream.server.ecbPath('eurofxref-hist-90d.xml'), { body: HOSTILE.htmlErrorPage });
    for (const path of [upstream.server.currencyApiPath('latest'), upstream.server.fallbackPath('latest')]) {
      upstream.server.override(path, { body: (upstream.server.currencyApiBody(API_NEWEST) ?? '').slice(0, 500) });
    }
    const result = await run();
    expect(result.status).toBe('failed');
    expect(result.sources.ecb?.error).toMatch(/not ECB XML/);
    expect(result.sources['currency-api']?.error).toMatch(/does not parse/);
    expect(result.itemsWritten).toBe(0);
    expect(await store.getLatest()).toEqual(before);
    expect(result.latest?.date).toBe(before?.date);
  });

  it('rejects a day on which USD jumps 40 % in one source, and LATEST stays on the last good day', async () => {
    upstream.server.configure({ currencyApiUntil: addDays(API_NEWEST, -1) });
    await run();
    const good = await store.getLatest();
    expect(good?.date).toBe(addDays(API_NEWEST, -1));
    upstream.server.configure({});
    const real = JSON.parse(upstream.server.currencyApiBody(API_NEWEST) ?? '{}') as { eur: Record<string, number> };
    const jumped = JSON.stringify({ ...real, eur: { ...real.eur, usd: (real.eur.usd ?? 1) * 1.4 } });
    upstream.server.override(upstream.server.currencyApiPath('latest'), { body: jumped });
    const result = await run();
    expect(result.rejections.map((r) => `${r.date} ${r.reason} ${r.code ?? ''}`.trim()).sort()).toEqual([
      `${API_NEWEST} jump USD`,
      `${API_NEWEST} missing-majors`,
    ]);
    expect(result.daysWritten).toBe(0);
    expect(await store.getDay(API_NEWEST)).toBeUndefined();
    expect(await store.getLatest()).toEqual(good);
  });
});
