import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import type { Clock } from '../../../lambdas/core/domain/dates';
import { SOURCE_IDS } from '../../../lambdas/core/domain/rates';
import { RatesStore } from '../../../lambdas/core/store/rates-store';
import { SERIES_META_KEY, SOURCES_KEY, seriesKey } from '../../../lambdas/core/store/tables';
import { loadRatesForLocal } from '../../../local-server/load-rates';
import { backends, freshTables } from '../../support/backends';
import {
  DATA_DIR,
  ecbZip,
  readEcbTable,
  startUpstreamServer,
  type UpstreamServer,
} from '../../support/upstream-server';

jest.setTimeout(60_000);

const clock: Clock = () => new Date('2026-09-29T12:00:00Z');
const table = readEcbTable();
const ecbRows = table.rows.filter((r) => r.date >= '2026-01-01');
const apiFiles = readdirSync(join(DATA_DIR, 'currency-api'))
  .filter((f) => f.startsWith('eur-'))
  .sort()
  .slice(-3);

let upstream: UpstreamServer;
let work: string;
beforeAll(async () => {
  upstream = await startUpstreamServer();
  work = mkdtempSync(join(tmpdir(), 'fxrates-local-'));
});
afterAll(async () => {
  await upstream.close();
  rmSync(work, { recursive: true, force: true });
});
afterEach(() => upstream.reset());

/** A small data folder in the bundled layout: 2026's ECB days as a real-format zip and three currency-api days. */
function dataDir(name: string, apiDays = apiFiles): string {
  const dir = join(work, name);
  mkdirSync(join(dir, 'ecb'), { recursive: true });
  mkdirSync(join(dir, 'currency-api'), { recursive: true });
  writeFileSync(join(dir, 'ecb', 'eurofxref-hist.zip'), ecbZip(table, ecbRows));
  for (const file of apiDays) copyFileSync(join(DATA_DIR, 'currency-api', file), join(dir, 'currency-api', file));
  return dir;
}

const unreachable = {
  ecbBaseUrl: 'http://127.0.0.1:9/ecb',
  currencyApiBaseUrl: 'http://127.0.0.1:9/npm',
  currencyApiFallbackUrl: 'http://127.0.0.1:9/{date}.json',
};

describe.each(backends())('loadRatesForLocal on $name', (backend) => {
  let tables: Awaited<ReturnType<typeof freshTables>>;
  beforeEach(async () => {
    tables = await freshTables(backend);
  });
  const load = (options: Partial<Parameters<typeof loadRatesForLocal>[0]>) =>
    loadRatesForLocal({ client: tables.client, tableName: tables.ratesTable, live: false, clock, ...options });

  it('loads the bundled data on a first start and skips it on a restart', async () => {
    const dir = dataDir(`first-${backend.name}`);
    const first = await load({ dataDir: dir });
    expect(first.used).toBe('bundled');
    const apiDates = apiFiles.map((file) => file.slice(4, 14)).sort();
    const ecbDates = ecbRows.map((row) => row.date).sort();
    const coverage = {
      ecb: { first: ecbDates[0], last: ecbDates.at(-1), days: ecbRows.length },
      currencyApi: { first: apiDates[0], last: apiDates.at(-1), days: apiFiles.length },
    };
    expect(first.bundled).toEqual({
      loaded: true,
      daysWritten: ecbRows.length + apiFiles.length,
      rejections: 0,
      coverage,
    });
    expect(first.latest?.date).toBe(apiFiles[apiFiles.length - 1]?.slice(4, 14));
    const restart = await load({ dataDir: dir });
    expect(restart.bundled.loaded).toBe(false);
    expect(restart.bundled.coverage).toEqual(coverage);
    expect(restart.itemsWritten).toBe(0);
    expect(restart.latest).toEqual(first.latest);
  });

  it('builds the time series along a first load, and rebuilds them on a restart over a store an earlier version loaded', async () => {
    const dir = dataDir(`series-${backend.name}`);
    const first = await load({ dataDir: dir });
    expect(first.seriesBackfill).toBeUndefined();
    const store = new RatesStore(tables.client, tables.ratesTable);
    const usd = await store.getSeriesItem('USD', 2026);
    // USD on every ECB day and every currency-api day.
    expect(Object.keys(usd ?? {}).filter((name) => name.startsWith('d'))).toHaveLength(
      ecbRows.length + apiFiles.length,
    );
    expect(await load({ dataDir: dir })).not.toHaveProperty('seriesBackfill');

    // What an earlier version left: the same days, no series items and no marker.
    for (const pk of [seriesKey('USD', 2026), seriesKey('EUR', 2026), SERIES_META_KEY]) {
      await tables.client.send(new DeleteCommand({ TableName: tables.ratesTable, Key: { pk } }));
    }
    const restart = await load({ dataDir: dir });
    expect(restart.bundled.loaded).toBe(false);
    expect(restart.seriesBackfill?.days).toBe(ecbRows.length + apiFiles.length);
    expect(await store.getSeriesItem('USD', 2026)).toEqual(usd);
    expect((await store.getSeriesMeta())?.pendingRuns).toBe(0);
  });

  it('reloads when the bundled data changes, writing only the new days', async () => {
    const dir = dataDir(`changed-${backend.name}`, apiFiles.slice(0, 2));
    await load({ dataDir: dir });
    const added = apiFiles[2] ?? '';
    copyFileSync(join(DATA_DIR, 'currency-api', added), join(dir, 'currency-api', added));
    const again = await load({ dataDir: dir });
    expect(again.bundled).toMatchObject({ loaded: true, daysWritten: 1 });
    expect(again.latest?.date).toBe(added.slice(4, 14));
  });

  it('uses the live sources when they answer, with no warning printed for their shared deadline', async () => {
    // Node prints its warnings on the worker's stderr; the test environment's `process` does not see them emitted.
    const written: string[] = [];
    const write = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    const result = await load({ dataDir: dataDir(`live-${backend.name}`), live: true, urls: upstream.urls }).finally(
      () => write.mockRestore(),
    );
    expect(written.filter((text) => text.includes('Warning'))).toEqual([]);
    expect(result.used).toBe('live');
    expect(result.live?.status).toBe('ok');
    expect(upstream.requests).toContain(upstream.currencyApiPath('latest'));
    const store = new RatesStore(tables.client, tables.ratesTable);
    expect(await store.getDay(ecbRows[0]?.date ?? '')).toBeDefined();
  });

  it('falls back to the bundled data within the live budget when the sources are unreachable or hang', async () => {
    const dir = dataDir(`offline-${backend.name}`);
    await load({ dataDir: dir });
    upstream.override(upstream.ecbPath('eurofxref-daily.xml'), { stall: true });
    upstream.override(upstream.ecbPath('eurofxref-hist-90d.xml'), { stall: true });
    const hanging = { ...unreachable, ecbBaseUrl: upstream.urls.ecbBaseUrl };
    const started = Date.now();
    const result = await load({ dataDir: dir, live: true, urls: hanging, timeoutMs: 500 });
    expect(Date.now() - started).toBeLessThan(500 + 2500);
    expect(result.used).toBe('bundled');
    expect(result.live?.status).toBe('failed');
    expect(result.live?.sources.ecb?.error).toMatch(/within 500 ms/);
    expect(result.latest?.date).toBe(apiFiles[apiFiles.length - 1]?.slice(4, 14));
  });

  it('records the bundled load as bundled (never fetched), and a live fetch as upstream, which a reload keeps', async () => {
    const store = new RatesStore(tables.client, tables.ratesTable);
    const dir = dataDir(`status-${backend.name}`, apiFiles.slice(0, 2));
    await load({ dataDir: dir });
    const bundled = await store.getSourceStatuses();
    const ecbNewest = ecbRows
      .map((row) => row.date)
      .sort()
      .at(-1);
    expect(bundled.ecb).toMatchObject({ origin: 'bundled', fetchedAt: null, publishedDate: ecbNewest });
    expect(bundled['currency-api']).toMatchObject({
      origin: 'bundled',
      fetchedAt: null,
      publishedDate: apiFiles[1]?.slice(4, 14),
    });
    await load({ dataDir: dir, live: true, urls: upstream.urls });
    const live = await store.getSourceStatuses();
    expect(live.ecb).toMatchObject({ origin: 'upstream', fetchedAt: '2026-09-29T12:00:00Z' });
    expect(live['currency-api']).toMatchObject({ origin: 'upstream', fetchedAt: '2026-09-29T12:00:00Z' });
    // New bundled files reload the days, but do not hide the real fetch.
    const added = apiFiles[2] ?? '';
    copyFileSync(join(DATA_DIR, 'currency-api', added), join(dir, 'currency-api', added));
    expect((await load({ dataDir: dir })).bundled.loaded).toBe(true);
    expect(await store.getSourceStatuses()).toEqual(live);
  });

  it('loads and fetches only the configured sources, as the ingest function does with the same SOURCES', async () => {
    const store = new RatesStore(tables.client, tables.ratesTable);
    const result = await load({ dataDir: dataDir(`ecb-only-${backend.name}`), sources: ['ecb'] });
    expect(result.bundled).toMatchObject({ loaded: true, daysWritten: ecbRows.length });
    expect(Object.keys(result.bundled.coverage ?? {})).toEqual(['ecb']);
    expect(Object.keys(await store.getSourceStatuses())).toEqual(['ecb']);
    const newestEcb = ecbRows
      .map((row) => row.date)
      .sort()
      .at(-1);
    expect(result.latest?.date).toBe(newestEcb);
    const live = await load({
      dataDir: dataDir(`ecb-only-live-${backend.name}`),
      sources: ['ecb'],
      live: true,
      urls: upstream.urls,
    });
    expect(Object.keys(live.live?.sources ?? {})).toEqual(['ecb']);
    expect(upstream.requests).toContain(upstream.ecbPath('eurofxref-daily.xml'));
    // ECB's own files only: no currency-api day, no central bank.
    expect(upstream.requests.filter((path) => !path.startsWith('/ecb/'))).toEqual([]);
  });

  it('loads the bundled days again when the sources or the cross-check settings change, not when they stay', async () => {
    const dir = dataDir(`settings-${backend.name}`);
    expect((await load({ dataDir: dir })).bundled.loaded).toBe(true);
    // The defaults spelled out are the defaults: a store loaded before the settings were read stays loaded.
    const defaults = { sources: SOURCE_IDS, crossCheckTolerance: 0.05, crossCheckExempt: ['CUP', 'LBP'] };
    expect((await load({ dataDir: dir, ...defaults })).bundled.loaded).toBe(false);
    expect((await load({ dataDir: dir, sources: ['ecb'] })).bundled.loaded).toBe(true);
    expect((await load({ dataDir: dir, sources: ['ecb'] })).bundled.loaded).toBe(false);
    expect((await load({ dataDir: dir, sources: ['currency-api', 'ecb'] })).bundled.loaded).toBe(true);
    expect(
      (await load({ dataDir: dir, sources: ['currency-api', 'ecb'], crossCheckTolerance: 0.2 })).bundled.loaded,
    ).toBe(true);
    expect(
      (await load({ dataDir: dir, sources: ['currency-api', 'ecb'], crossCheckTolerance: 0.2 })).bundled.loaded,
    ).toBe(false);
    expect(
      (await load({ dataDir: dir, sources: ['currency-api', 'ecb'], crossCheckTolerance: 0.2, crossCheckExempt: [] }))
        .bundled.loaded,
    ).toBe(true);
  });

  it("cross-checks a central bank's bundled quotes with the tolerance and exempt currencies it is given", async () => {
    const dir = dataDir(`cross-check-${backend.name}`);
    cpSync(join(DATA_DIR, 'central-banks', 'nbp'), join(dir, 'central-banks', 'nbp'), { recursive: true });
    const store = new RatesStore(tables.client, tables.ratesTable);
    const nbpCheck = async (options: Partial<Parameters<typeof loadRatesForLocal>[0]>) => {
      await load({ dataDir: dir, sources: ['ecb', 'nbp'], ...options });
      return (await store.getSourceStatuses()).nbp?.crossCheck;
    };
    const loose = await nbpCheck({ crossCheckTolerance: 1 });
    expect(loose).toMatchObject({ tolerance: 1, overTolerance: 0 });
    expect(loose?.compared).toBeGreaterThan(10);
    const strict = await nbpCheck({ crossCheckTolerance: 0.000001, crossCheckExempt: [] });
    expect(strict).toMatchObject({ tolerance: 0.000001, compared: loose?.compared });
    expect(strict?.overTolerance).toBeGreaterThan(0);
    // The status keeps no exempt count (only the deployment's metric does); the log says which quotes are exempt.
    const worst = strict?.worst?.code ?? '';
    const warned: { message: string; exempt?: unknown; code?: unknown }[] = [];
    const log = {
      info: () => undefined,
      warn: (message: string, details?: object) => warned.push({ message, ...details }),
    };
    await nbpCheck({ crossCheckTolerance: 0.000001, crossCheckExempt: [worst], log });
    const over = warned.filter((w) => w.message.startsWith('cross-check over tolerance'));
    expect(over).toHaveLength(strict?.overTolerance ?? -1);
    expect(over.filter((w) => w.exempt === true).map((w) => w.code)).toEqual([worst]);
  });

  it('records the bundled status on a restart over a store loaded before the status existed', async () => {
    const store = new RatesStore(tables.client, tables.ratesTable);
    const dir = dataDir(`restart-status-${backend.name}`);
    await load({ dataDir: dir });
    const first = await store.getSourceStatuses();
    await tables.client.send(new DeleteCommand({ TableName: tables.ratesTable, Key: { pk: SOURCES_KEY } }));
    expect(await store.getSourceStatuses()).toEqual({});
    const restart = await load({ dataDir: dir });
    expect(restart.bundled.loaded).toBe(false);
    // The same facts as the first load recorded, read back from the marker and the stored days.
    expect(await store.getSourceStatuses()).toEqual(first);
  });
});
