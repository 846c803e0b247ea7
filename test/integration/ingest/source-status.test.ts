import { type Clock, currencyApiPublishedAt, ecbPublishedAt } from '../../../lambdas/core/domain/dates';
import type { SourceStatus } from '../../../lambdas/core/domain/source-status';
import { fetchersFor } from '../../../lambdas/core/ingest/fetchers';
import { runIngestion } from '../../../lambdas/core/ingest/ingest';
import { RatesStore } from '../../../lambdas/core/store/rates-store';
import { SOURCES_KEY } from '../../../lambdas/core/store/tables';
import { backends, freshTables } from '../../support/backends';
import { readEcbTable, startUpstreamServer, type UpstreamServer } from '../../support/upstream-server';

jest.setTimeout(60_000);

const table = readEcbTable();
const ecbNewest = table.rows[0]?.date ?? '';
const API_NEWEST = '2026-09-29';
let now = `${API_NEWEST}T12:00:00Z`;
const clock: Clock = () => new Date(now);

let upstream: UpstreamServer;
beforeAll(async () => {
  upstream = await startUpstreamServer();
});
afterAll(() => upstream.close());
afterEach(() => upstream.reset());

const status = (overrides: Partial<SourceStatus> = {}): SourceStatus => ({
  origin: 'bundled',
  fetchedAt: null,
  publishedDate: '2026-04-13',
  publishedAt: ecbPublishedAt('2026-04-13'),
  currencies: ['CHF', 'USD'],
  ...overrides,
});

/** The status item GET /v1/sources reads, written by ingestion, on both real backends. */
describe.each(backends())('the sources status item on $name', (backend) => {
  let store: RatesStore;
  beforeEach(async () => {
    const tables = await freshTables(backend);
    store = new RatesStore(tables.client, tables.ratesTable);
    now = `${API_NEWEST}T12:00:00Z`;
  });
  const run = () =>
    runIngestion({
      store,
      clock,
      fetchers: fetchersFor(['ecb', 'currency-api'], { urls: upstream.urls, timeoutMs: 2000, mode: 'scheduled' }),
    });

  it('is empty before any run', async () => {
    expect(await store.getSourceStatuses()).toEqual({});
  });

  it('records each delivering source: the fetch, its newest day with its publication and codes, EUR left out', async () => {
    await run();
    const statuses = await store.getSourceStatuses();
    const ecbDay = await store.getDay(ecbNewest);
    expect(statuses.ecb).toEqual({
      origin: 'upstream',
      fetchedAt: '2026-09-29T12:00:00Z',
      publishedDate: ecbNewest,
      publishedAt: ecbPublishedAt(ecbNewest),
      currencies: Object.keys(ecbDay?.rates ?? {})
        .filter((c) => ecbDay?.sources[c] === 'ecb' && c !== 'EUR')
        .sort(),
    });
    expect(statuses['currency-api']).toMatchObject({
      origin: 'upstream',
      fetchedAt: '2026-09-29T12:00:00Z',
      publishedDate: API_NEWEST,
      publishedAt: currencyApiPublishedAt(API_NEWEST),
    });
    expect(statuses['currency-api']?.currencies).toContain('AED');
    expect(statuses['currency-api']?.currencies).not.toContain('EUR');
  });

  it('keeps a failed source’s previous status and moves the other on', async () => {
    await run();
    const first = await store.getSourceStatuses();
    now = `${API_NEWEST}T13:00:00Z`;
    upstream.override(upstream.currencyApiPath('latest'), { status: 503 });
    upstream.override(upstream.fallbackPath('latest'), { status: 503 });
    const partial = await run();
    expect(partial.status).toBe('partial');
    const second = await store.getSourceStatuses();
    expect(second['currency-api']).toEqual(first['currency-api']);
    expect(second.ecb).toEqual({ ...first.ecb, fetchedAt: '2026-09-29T13:00:00Z' });
  });

  it('records nothing when no source delivers', async () => {
    upstream.override(upstream.ecbPath('eurofxref-daily.xml'), { status: 503 });
    upstream.override(upstream.ecbPath('eurofxref-hist-90d.xml'), { status: 503 });
    upstream.override(upstream.currencyApiPath('latest'), { status: 503 });
    upstream.override(upstream.fallbackPath('latest'), { status: 503 });
    expect((await run()).status).toBe('failed');
    expect(await store.getSourceStatuses()).toEqual({});
  });

  it('sets one source per write, and a bundled status never replaces one from a real fetch', async () => {
    expect(await store.recordSourceStatus('ecb', status(), { keepUpstream: true })).toBe(true);
    expect(await store.recordSourceStatus('ecb', status({ publishedDate: '2026-04-14' }), { keepUpstream: true })).toBe(
      true,
    );
    const upstreamStatus = status({ origin: 'upstream', fetchedAt: '2026-09-29T12:00:00Z', currencies: [] });
    await store.recordSourceStatus('currency-api', upstreamStatus);
    expect(await store.recordSourceStatus('currency-api', status(), { keepUpstream: true })).toBe(false);
    expect(await store.getSourceStatuses()).toEqual({
      ecb: status({ publishedDate: '2026-04-14' }),
      'currency-api': upstreamStatus,
    });
    // The item is not a day: it never shows up as one.
    expect(await store.getDay(SOURCES_KEY)).toBeUndefined();
  });
});
