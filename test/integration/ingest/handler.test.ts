import type { Clock } from '../../../lambdas/core/domain/dates';
import { Logger, Metrics } from '../../../lambdas/core/observability';
import { RatesStore } from '../../../lambdas/core/store/rates-store';
import { createIngestHandler, handler } from '../../../lambdas/ingest/handler';
import { backends, freshTables } from '../../support/backends';
import { captureStdoutLines } from '../../support/stdout-lines';
import { readEcbTable, useUpstreamEnv } from '../../support/upstream-server';

jest.setTimeout(120_000);

const clock: Clock = () => new Date('2026-09-29T12:00:00Z');
const table = readEcbTable();
const stand = useUpstreamEnv();

afterEach(() => {
  stand.server.reset();
  delete process.env.SOURCES;
});

/** EMF lines the handler printed on stdout. */
function emfLines(lines: string[]): Record<string, unknown>[] {
  return lines.flatMap((line) => {
    try {
      const parsed = JSON.parse(line) as Record<string, unknown>;
      return '_aws' in parsed ? [parsed] : [];
    } catch {
      return [];
    }
  });
}

async function invoke(store: RatesStore, event: unknown) {
  process.env.POWERTOOLS_METRICS_DISABLED = 'false';
  const stdout = captureStdoutLines();
  try {
    const handler = createIngestHandler({
      store: () => store,
      metrics: new Metrics({ namespace: 'fxrates', serviceName: 'fxrates' }),
      logger: new Logger({ serviceName: 'fxrates', logLevel: 'SILENT' }),
      clock,
    });
    const outcome = await handler(event).then(
      (result) => ({ result, error: undefined }),
      (error: unknown) => ({ result: undefined, error: error as Error }),
    );
    return { ...outcome, metrics: emfLines(stdout.lines) };
  } finally {
    stdout.restore();
    process.env.POWERTOOLS_METRICS_DISABLED = 'true';
  }
}

describe.each(backends())('ingestion handler on $name', (backend) => {
  let store: RatesStore;
  beforeEach(async () => {
    const tables = await freshTables(backend);
    store = new RatesStore(tables.client, tables.ratesTable);
  });

  it('ingests on a scheduled event and emits the freshness metrics', async () => {
    const { result, metrics } = await invoke(store, { source: 'aws.events', 'detail-type': 'Scheduled Event' });
    expect(result?.status).toBe('ok');
    const latest = await store.getLatest();
    const run = metrics.find((m) => 'DaysWritten' in m);
    expect(run).toMatchObject({
      DaysWritten: result?.daysWritten,
      Rejections: 0,
      CurrenciesServed: Object.keys(latest?.rates ?? {}).length,
      SnapshotAgeSeconds: (clock().getTime() - Date.parse(latest?.publishedAt ?? '')) / 1000,
      service: 'fxrates',
    });
    expect(metrics.filter((m) => 'SourceFailures' in m).map((m) => [m.source, m.SourceFailures])).toEqual(
      expect.arrayContaining([
        ['ecb', 0],
        ['currency-api', 0],
      ]),
    );
  });

  it('fails the invocation when no source delivers, after counting each source failure', async () => {
    for (const path of [
      stand.server.ecbPath('eurofxref-daily.xml'),
      stand.server.ecbPath('eurofxref-hist-90d.xml'),
      stand.server.currencyApiPath('latest'),
      stand.server.fallbackPath('latest'),
    ]) {
      stand.server.override(path, { status: 500 });
    }
    const { error, metrics } = await invoke(store, { mode: 'scheduled', sources: ['ecb', 'currency-api'] });
    expect(error?.message).toMatch(/no source delivered/);
    expect(metrics.filter((m) => 'SourceFailures' in m).map((m) => [m.source, m.SourceFailures])).toEqual(
      expect.arrayContaining([
        ['ecb', 1],
        ['currency-api', 1],
      ]),
    );
    expect(await store.getLatest()).toBeUndefined();
  });

  it('fetches only the sources the event names: a publisher after its window', async () => {
    const { result } = await invoke(store, { mode: 'scheduled', sources: ['cnb'] });
    expect(Object.keys(result?.sources ?? {})).toEqual(['cnb']);
    expect(result?.sources.cnb?.status).toBe('ok');
    expect(stand.server.requests.every((p) => p.startsWith('/cnbapi/'))).toBe(true);
  });

  it('refuses an event naming a source that is not configured, fetching nothing', async () => {
    process.env.SOURCES = 'ecb,currency-api';
    const { error } = await invoke(store, { mode: 'scheduled', sources: ['ecb', 'nbp'] });
    expect(error?.message).toMatch(/not configured: nbp/);
    expect(stand.server.requests).toEqual([]);
  });

  it('fetches only the sources listed in SOURCES', async () => {
    process.env.SOURCES = 'currency-api';
    const { result } = await invoke(store, {});
    expect(Object.keys(result?.sources ?? {})).toEqual(['currency-api']);
    expect(stand.server.requests.some((p) => p.startsWith('/ecb/'))).toBe(false);
  });
});

describe('ingestion handler history mode', () => {
  const [dynalite] = backends();

  it('backfills the whole ECB history from the zip in one invocation (dynalite)', async () => {
    if (!dynalite) throw new Error('no dynalite backend');
    const tables = await freshTables(dynalite);
    const store = new RatesStore(tables.client, tables.ratesTable);
    const { result } = await invoke(store, { mode: 'history', sources: ['ecb', 'currency-api'] });
    expect(stand.server.requests).toContain(stand.server.ecbPath('eurofxref-hist.zip'));
    expect(stand.server.requests).not.toContain(stand.server.ecbPath('eurofxref-hist-90d.xml'));
    expect(result?.sources.ecb?.days).toBe(table.rows.length);
    expect(result?.daysWritten).toBe(table.rows.length + 4);
    expect(result?.rejections).toEqual([]);
    const first = table.rows[table.rows.length - 1];
    expect((await store.getDay(first?.date ?? ''))?.rates.USD).toBe(Number(first?.values[table.codes.indexOf('USD')]));
  });
});

describe('the exported handler', () => {
  const [dynalite] = backends();

  it('writes to the table named by RATES_TABLE_NAME (dynalite)', async () => {
    if (!dynalite) throw new Error('no dynalite backend');
    const tables = await freshTables(dynalite);
    process.env.RATES_TABLE_NAME = tables.ratesTable;
    process.env.DYNAMODB_ENDPOINT = dynalite.endpoint;
    process.env.SOURCES = 'currency-api';
    const result = await handler({});
    expect(result.daysWritten).toBe(4);
    expect((await new RatesStore(tables.client, tables.ratesTable).getLatest())?.date).toBe(result.latest?.date);
  });
});
