import { addDays, type Clock } from '../../../lambdas/core/domain/dates';
import type { RateSnapshot } from '../../../lambdas/core/domain/rates';
import type { CurrencyYear } from '../../../lambdas/core/domain/series';
import { ingestDays } from '../../../lambdas/core/ingest/ingest';
import {
  backfillSeries,
  ensureSeries,
  SERIES_RUN_STALE_MS,
  SERIES_VERSION,
  seriesOfDays,
} from '../../../lambdas/core/ingest/series';
import { Logger, Metrics } from '../../../lambdas/core/observability';
import type { SourceDay } from '../../../lambdas/core/sources/source-day';
import { seriesFromItem } from '../../../lambdas/core/store/rates-read-store';
import { RatesStore } from '../../../lambdas/core/store/rates-store';
import { createIngestHandler } from '../../../lambdas/ingest/handler';
import { bundledFiles, readBundledDays } from '../../../local-server/bundled-data';
import { backends, freshTables } from '../../support/backends';
import { useUpstreamEnv } from '../../support/upstream-server';

jest.setTimeout(180_000);

const clock: Clock = () => new Date('2026-09-30T12:00:00Z');
const files = bundledFiles();
/** Real bundled days: the ECB from mid-2025 (a year read in part) and the currency-api days of September 2026. */
const bundled = readBundledDays(files, { from: '2025-06-01', to: '2026-09-30' });
const ecb = bundled.ecb;
const currencyApi = bundled.currencyApi;
const ok = (days: readonly SourceDay[]) => ({ status: 'ok' as const, days: days.length, warnings: [] });

/** Every stored day from 2025 on, read back consistently. */
async function storedDays(store: RatesStore): Promise<RateSnapshot[]> {
  const dates: string[] = [];
  for (let day = '2025-01-01'; day <= '2026-10-01'; day = addDays(day, 1)) dates.push(day);
  return [...(await store.getDays(dates)).values()];
}

/** The series items of these codes and years, as stored, by `code#year`. */
async function storedSeries(store: RatesStore, wanted: readonly CurrencyYear[]): Promise<Map<string, CurrencyYear>> {
  const found = new Map<string, CurrencyYear>();
  for (const { code, year } of wanted) {
    const item = await store.getSeriesItem(code, year);
    if (item) found.set(`${code}#${year}`, seriesFromItem(code, year, item));
  }
  return found;
}

/** The series every stored day implies, against what the store holds. */
async function expectSeriesMatchDays(store: RatesStore): Promise<CurrencyYear[]> {
  const expected = seriesOfDays(await storedDays(store));
  expect(expected.length).toBeGreaterThan(150);
  const stored = await storedSeries(store, expected);
  for (const series of expected) expect(stored.get(`${series.code}#${series.year}`)).toEqual(series);
  return expected;
}

describe.each(backends())('time series items on $name', (backend) => {
  let store: RatesStore;
  beforeEach(async () => {
    const tables = await freshTables(backend);
    store = new RatesStore(tables.client, tables.ratesTable);
  });

  it('are written by ingestion along the days, and a second identical run writes nothing and changes nothing', async () => {
    const days = [...ecb, ...currencyApi];
    const reports = { ecb: ok(ecb), 'currency-api': ok(currencyApi) };
    const first = await ingestDays(store, { days, reports, clock });
    expect(first.daysWritten).toBeGreaterThan(200);
    expect(first.seriesWrites).toBeGreaterThan(0);
    const expected = await expectSeriesMatchDays(store);
    const before = await storedSeries(store, expected);

    const second = await ingestDays(store, { days, reports, clock });
    expect([second.daysWritten, second.seriesWrites]).toEqual([0, 0]);
    expect(await storedSeries(store, expected)).toEqual(before);
    // EUR has a series too: 1 on every day with data, so EUR pairs answer as history does.
    const eur = before.get('EUR#2026');
    expect(eur?.rates.every((rate) => rate === 1)).toBe(true);
    expect(eur?.dates).toContain('2026-09-29');
  });

  it('gain the currencies of a late source on a day already stored, and keep the others', async () => {
    // The ECB's last bundled day, then currency-api's rates for the same day arriving late.
    const ecbDay = ecb.find((d) => d.date === '2026-04-13') as SourceDay;
    await ingestDays(store, { days: [ecbDay], reports: { ecb: ok([ecbDay]) }, clock });
    expect(Object.keys((await store.getSeriesItem('USD', 2026)) ?? {}).sort()).toEqual(['d0413', 'pk']);
    expect(await store.getSeriesItem('AED', 2026)).toBeUndefined();

    const september = currencyApi.find((d) => d.date === '2026-09-29') as SourceDay;
    const late: SourceDay = { ...september, date: '2026-04-13', publishedAt: '2026-04-13T00:00:00Z' };
    const result = await ingestDays(store, { days: [late], reports: { 'currency-api': ok([late]) }, clock });
    expect(result.daysWritten).toBe(1);
    const stored = (await store.getDay('2026-04-13')) as RateSnapshot;
    expect((await store.getSeriesItem('AED', 2026))?.d0413).toBe(stored.rates.AED);
    // The ECB's values win over currency-api's for its currencies: USD keeps its value.
    expect((await store.getSeriesItem('USD', 2026))?.d0413).toBe(ecbDay.rates.USD);
    expect(stored.rates.USD).toBe(ecbDay.rates.USD);
  });

  it('are rebuilt by backfillSeries exactly as ingestion maintains them, with the marker written last', async () => {
    const days = [...ecb, ...currencyApi];
    await ingestDays(store, { days, reports: { ecb: ok(ecb), 'currency-api': ok(currencyApi) }, clock });
    const expected = seriesOfDays(await storedDays(store));
    const incremental = await storedSeries(store, expected);

    // The same days in a second table, written without their series (as an earlier version did).
    const second = await freshTables(backend);
    const other = new RatesStore(second.client, second.ratesTable);
    await other.putDays(await storedDays(store));
    expect(await other.getSeriesItem('USD', 2026)).toBeUndefined();
    const rebuilt = await backfillSeries(other, { clock });
    expect(rebuilt.items).toBe(expected.length);
    expect(rebuilt.days).toBe((await storedDays(store)).length);
    expect(await storedSeries(other, expected)).toEqual(incremental);
    expect(await other.getSeriesMeta()).toEqual({
      version: SERIES_VERSION,
      builtAt: '2026-09-30T12:00:00Z',
      pendingRuns: 0,
      runsStarted: 0,
      rebuildNeeded: false,
    });
    expect(rebuilt.recorded).toBe(true);
    // Again: the same items.
    await backfillSeries(other, { clock });
    expect(await storedSeries(other, expected)).toEqual(incremental);
  });

  it('take a whole leap year through UpdateItem, split so each expression stays under 4 KB', async () => {
    const set: Record<string, number> = {};
    for (let day = '2024-01-01'; day <= '2024-12-31'; day = addDays(day, 1)) {
      set[`d${day.slice(5, 7)}${day.slice(8, 10)}`] = 1 + Number(day.slice(8, 10)) / 1000;
    }
    expect(Object.keys(set)).toHaveLength(366);
    expect(await store.updateSeries([{ code: 'USD', year: 2024, set, remove: [] }])).toBe(2);
    const item = await store.getSeriesItem('USD', 2024);
    expect(seriesFromItem('USD', 2024, item ?? {}).dates).toHaveLength(366);
    expect(await store.updateSeries([{ code: 'USD', year: 2024, set: {}, remove: ['d0229'] }])).toBe(1);
    expect((await store.getSeriesItem('USD', 2024))?.d0229).toBeUndefined();
  });

  it('stay marked pending while any run that changes days is under way', async () => {
    await ensureSeries(store, { clock });
    await store.beginSeriesRun('2026-09-30T12:00:00Z');
    await store.beginSeriesRun('2026-09-30T12:00:01Z');
    await store.endSeriesRun();
    expect((await store.getSeriesMeta())?.pendingRuns).toBe(1);
    await store.endSeriesRun();
    expect(await store.getSeriesMeta()).toMatchObject({ version: SERIES_VERSION, pendingRuns: 0, runsStarted: 2 });
  });

  it('are rebuilt when a run stopped between its day writes and its series writes', async () => {
    // A new table is only marked; ingestion then writes the series along the days.
    expect(await ensureSeries(store, { clock })).toBeUndefined();
    await ingestDays(store, { days: ecb.slice(-5), reports: { ecb: ok(ecb.slice(-5)) }, clock });
    expect(await ensureSeries(store, { clock })).toBeUndefined();
    // A run that stops after marking and writing its days leaves the mark behind.
    const lost = ecb.find((d) => d.date === '2026-04-01') as SourceDay;
    await store.beginSeriesRun('2026-09-30T12:00:00Z');
    await store.putDay({
      date: lost.date,
      rates: { ...lost.rates, EUR: 1 },
      sources: {},
      publishedAt: lost.publishedAt,
    });
    expect((await store.getSeriesMeta())?.pendingRuns).toBe(1);
    // Counted in just now, the run may still be writing: no rebuild under it.
    expect(await ensureSeries(store, { clock })).toBeUndefined();
    expect((await store.getSeriesItem('USD', 2026))?.d0401).toBeUndefined();
    // Past the time any run can take, it has stopped.
    const later = () => new Date(Date.parse('2026-09-30T12:00:00Z') + SERIES_RUN_STALE_MS);
    const rebuilt = await ensureSeries(store, { clock: later });
    expect(rebuilt?.days).toBe(6);
    expect(rebuilt?.recorded).toBe(true);
    expect((await store.getSeriesItem('USD', 2026))?.d0401).toBe(lost.rates.USD);
    expect((await store.getSeriesMeta())?.pendingRuns).toBe(0);
  });

  it('do not count as rebuilt when a run started while the rebuild read and wrote, and are rebuilt at the next start', async () => {
    await ingestDays(store, { days: ecb.slice(-5), reports: { ecb: ok(ecb.slice(-5)) }, clock });
    const seen = (await store.getSeriesMeta())?.runsStarted ?? 0;
    // A run counted in between the rebuild's first read of the marker and its last write.
    await store.beginSeriesRun('2026-09-30T12:00:00Z');
    await store.endSeriesRun();
    expect(await store.recordSeriesRebuild(SERIES_VERSION, '2026-09-30T12:00:00Z', seen)).toBe(false);
    expect(await store.getSeriesMeta()).toMatchObject({ pendingRuns: 0, rebuildNeeded: true });
    const again = await ensureSeries(store, { clock });
    expect(again?.recorded).toBe(true);
    expect(await store.getSeriesMeta()).toMatchObject({ pendingRuns: 0, rebuildNeeded: false });
    expect(await ensureSeries(store, { clock })).toBeUndefined();
  });

  it('are rebuilt when a forced rebuild reset the count under a run that then ended (a count below 0)', async () => {
    await ingestDays(store, { days: ecb.slice(-5), reports: { ecb: ok(ecb.slice(-5)) }, clock });
    await store.beginSeriesRun('2026-09-30T12:00:00Z');
    expect((await ensureSeries(store, { clock, force: true }))?.recorded).toBe(true);
    await store.endSeriesRun();
    expect((await store.getSeriesMeta())?.pendingRuns).toBe(-1);
    expect((await ensureSeries(store, { clock }))?.recorded).toBe(true);
    expect(await store.getSeriesMeta()).toMatchObject({ version: SERIES_VERSION, pendingRuns: 0 });
  });
});

describe('the ingest handler and the series marker', () => {
  const [dynalite] = backends();
  useUpstreamEnv();

  const handlerFor = (store: RatesStore) =>
    createIngestHandler({
      store: () => store,
      metrics: new Metrics({ namespace: 'fxrates', serviceName: 'fxrates' }),
      logger: new Logger({ serviceName: 'fxrates', logLevel: 'SILENT' }),
      clock,
    });

  it('rebuilds the series of a table written by an earlier version before its run, once, and on {"mode": "series"}', async () => {
    if (!dynalite) throw new Error('no dynalite backend');
    const tables = await freshTables(dynalite);
    const store = new RatesStore(tables.client, tables.ratesTable);
    // An earlier version's table: days and LATEST, no series and no marker.
    const old = ecb.filter((d) => d.date >= '2026-03-01');
    await ingestDays(store, { days: old, reports: { ecb: ok(old) }, clock });
    await store.recordSeriesRebuild(0, '2026-01-01T00:00:00Z', (await store.getSeriesMeta())?.runsStarted ?? 0);
    const handler = handlerFor(store);
    const first = await handler({ source: 'aws.events', 'detail-type': 'Scheduled Event' });
    expect(first.seriesBackfill?.days).toBeGreaterThanOrEqual(old.length);
    expect((await store.getSeriesMeta())?.version).toBe(SERIES_VERSION);
    const second = await handler({});
    expect(second.seriesBackfill).toBeUndefined();
    const forced = await handler({ mode: 'series' });
    expect(forced.seriesBackfill?.items).toBeGreaterThan(0);
    await expectSeriesMatchDays(store);
    await expect(handler({ mode: 'everything' })).rejects.toThrow(/"series"/);
  });

  it('only marks a new table, whose series ingestion writes from its first day', async () => {
    if (!dynalite) throw new Error('no dynalite backend');
    const tables = await freshTables(dynalite);
    const store = new RatesStore(tables.client, tables.ratesTable);
    const result = await handlerFor(store)({});
    expect(result.seriesBackfill).toBeUndefined();
    expect((await store.getSeriesMeta())?.version).toBe(SERIES_VERSION);
    expect(result.seriesWrites).toBeGreaterThan(0);
    await expectSeriesMatchDays(store);
  });
});
