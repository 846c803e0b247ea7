/**
 * Ingestion of the twelve central banks over real HTTP: a stand-in serves each publisher's recorded answers at its
 * own paths (one origin for all), beside the ECB's real history cut at the same day.
 */
import { CENTRAL_BANK_IDS } from '../../../lambdas/core/domain/publishers';
import { AGGREGATOR, SOURCE_IDS, type SourceId } from '../../../lambdas/core/domain/rates';
import { fetchersFor } from '../../../lambdas/core/ingest/fetchers';
import { runIngestion } from '../../../lambdas/core/ingest/ingest';
import { RatesStore } from '../../../lambdas/core/store/rates-store';
import { backends, freshTables } from '../../support/backends';
import { startUpstreamServer, type UpstreamServer } from '../../support/upstream-server';

jest.setTimeout(60_000);

const TODAY = '2026-03-06';
const clock = () => new Date(`${TODAY}T23:00:00Z`);
const OFFICIAL: SourceId[] = SOURCE_IDS.filter((id) => id !== AGGREGATOR);

let upstream: UpstreamServer;
beforeAll(async () => {
  upstream = await startUpstreamServer({ ecbUntil: TODAY });
});
afterAll(async () => {
  await upstream.close();
});
afterEach(() => upstream.reset());

describe.each(backends())('central-bank ingestion on $name', (backend) => {
  let store: RatesStore;
  beforeEach(async () => {
    const tables = await freshTables(backend);
    store = new RatesStore(tables.client, tables.ratesTable);
  });

  const run = () =>
    runIngestion({
      store,
      clock,
      order: OFFICIAL,
      fetchers: fetchersFor(OFFICIAL, { urls: upstream.urls, timeoutMs: 5000, mode: 'scheduled', today: TODAY }),
    });
  const nbpCodes = async () => {
    const days = await Promise.all(
      ['2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05'].map((d) => store.getDay(d)),
    );
    return days.flatMap((day) => Object.entries(day?.sources ?? {}).filter(([, source]) => source === 'nbp'));
  };

  it("fetches every publisher at the one origin and stores the rule's choice per currency", async () => {
    const result = await run();
    expect(result.status).toBe('ok');
    for (const id of CENTRAL_BANK_IDS) expect(result.sources[id]?.status).toBe('ok');
    // Their recordings lie outside the last 8 days for these three; the others delivered.
    expect(CENTRAL_BANK_IDS.filter((id) => (result.sources[id]?.days ?? 0) === 0).sort()).toEqual([
      'boc',
      'boe',
      'cbr',
    ]);
    const day = await store.getDay('2026-03-04');
    expect(day?.sources).toMatchObject({ USD: 'ecb', PLN: 'ecb', UAH: 'nbu', KZT: 'nbu', BRL: 'ecb', XDR: 'nbp' });
    expect(day?.rates.UAH).toBe(50.4597);
    expect(Object.keys(day?.rates ?? {}).length).toBeGreaterThanOrEqual(140);
    const statuses = await store.getSourceStatuses();
    expect(statuses.nbp).toMatchObject({ origin: 'upstream', publishedDate: '2026-03-05' });
    expect(statuses.nbp?.crossCheck).toMatchObject({ date: '2026-03-05', tolerance: 0.05 });
    expect(statuses.nbp?.crossCheck?.compared).toBeGreaterThan(0);
  });

  it('fails only the publisher whose body is damaged, and writes none of its days', async () => {
    upstream.overrideMatching(/\/api\/exchangerates\/tables\/B\//, { body: '[{"table":"B","no":"009/B/NBP/2026",' });
    const result = await run();
    expect(result.status).toBe('partial');
    expect(result.sources.nbp?.status).toBe('failed');
    expect(result.sources.nbp?.error).toMatch(/^Narodowy Bank Polski: /);
    for (const id of CENTRAL_BANK_IDS.filter((id) => id !== 'nbp')) expect(result.sources[id]?.status).toBe('ok');
    // Table A was fine, but the run failed as a whole: no NBP quote of any day was stored.
    expect(await nbpCodes()).toEqual([]);
    expect((await store.getDay('2026-03-04'))?.sources.UAH).toBe('nbu');
  });

  it("fails BCB when one currency's answer fails, rather than storing a day without it", async () => {
    upstream.overrideMatching(/@moeda='USD'/, { status: 500 });
    const result = await run();
    expect(result.sources.bcb).toMatchObject({ status: 'failed' });
    expect(result.sources.bcb?.error).toMatch(/HTTP 500/);
    const day = await store.getDay('2026-03-04');
    expect(Object.values(day?.sources ?? {})).not.toContain('bcb');
  });

  it("takes NBP's 404 for a span without tables as no days, not as a failure", async () => {
    upstream.overrideMatching(/\/api\/exchangerates\/tables\//, {
      status: 404,
      body: '404 NotFound - Not Found - Brak danych',
    });
    const result = await run();
    expect(result.sources.nbp).toMatchObject({ status: 'ok', days: 0 });
    expect(await nbpCodes()).toEqual([]);
  });
  it('counts an exempt currency apart in the cross-check, and marks its log lines', async () => {
    const overLines = async (crossCheckExempt: string[]) => {
      const warned: Record<string, unknown>[] = [];
      const result = await runIngestion({
        store,
        clock,
        order: OFFICIAL,
        crossCheckTolerance: 0.01,
        crossCheckExempt,
        log: {
          info: () => {},
          warn: (message, details) => message.startsWith('cross-check') && warned.push({ ...details }),
        },
        fetchers: fetchersFor(OFFICIAL, { urls: upstream.urls, timeoutMs: 5000, mode: 'scheduled', today: TODAY }),
      });
      return { result, warned };
    };
    // At 1 % some ordinary spreads are over tolerance; exempt the code of the first one and run again.
    const plain = await overLines([]);
    const first = plain.warned[0];
    if (!first) throw new Error('no quote over 1 % on the recorded days');
    const [code, source] = [String(first.code), first.source as SourceId];
    expect(plain.result.crossChecks[source]).not.toHaveProperty('exempt');
    const exempted = await overLines([code]);
    const ofCode = exempted.warned.filter((line) => line.source === source && line.code === code);
    expect(ofCode.length).toBeGreaterThan(0);
    expect(ofCode.every((line) => line.exempt === true)).toBe(true);
    expect(exempted.warned.filter((line) => line.code !== code).every((line) => line.exempt === false)).toBe(true);
    const summary = exempted.result.crossChecks[source];
    expect(summary?.exempt).toBe(ofCode.length);
    expect(summary?.overTolerance).toBe(plain.result.crossChecks[source]?.overTolerance);
  });
});
