import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERIES_VERSION } from '../../../lambdas/core/ingest/series';
import { createDocumentClient } from '../../../lambdas/core/store/clients';
import { RatesStore } from '../../../lambdas/core/store/rates-store';
import { type RunningDynalite, startDynalite } from '../../../local-server/dynalite-server';
import { readEcbTable, startUpstreamServer, type UpstreamServer } from '../../support/upstream-server';

jest.setTimeout(90_000);

const ROOT = join(__dirname, '..', '..', '..');
const table = readEcbTable();

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function backfill(args: string[], env: Record<string, string>): Promise<Run> {
  const clean = { ...process.env };
  delete clean.RATES_TABLE_NAME;
  delete clean.DYNAMODB_ENDPOINT;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'bin/backfill.ts', ...args],
      { cwd: ROOT, env: { ...clean, ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

let work: string;
let upstream: UpstreamServer;
beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'fxrates-backfill-'));
  upstream = await startUpstreamServer();
});
afterAll(async () => {
  await upstream.close();
  rmSync(work, { recursive: true, force: true });
});

describe('npm run backfill', () => {
  it('refuses bad arguments with a reason and the usage', async () => {
    const env = { FXRATES_DATA_DIR: join(work, 'unused') };
    const cases: [string[], RegExp][] = [
      [['--from', '2024-02-30'], /--from must be a calendar day/],
      [['--from', '2024-03-02', '--to', '2024-03-01'], /is after --to/],
      [['--source', 'fed'], /--source must be one of ecb, nbp, .*, currency-api, got 'fed'/],
      [['--offline', 'extra'], /Unexpected argument|positional/i],
      [['--fast'], /Unknown option '--fast'/],
    ];
    const runs = await Promise.all(cases.map(([args]) => backfill(args, env)));
    runs.forEach((run, i) => {
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(cases[i]?.[1] ?? /never/);
      expect(run.stderr).toMatch(/usage: npm run backfill/);
    });
  });

  it('refuses a SOURCES the ingest function would refuse, and a --source that SOURCES does not name, but helps', async () => {
    const dataDir = join(work, 'bad-sources');
    const [bad, outside, help] = await Promise.all([
      backfill([], { FXRATES_DATA_DIR: dataDir, SOURCES: 'ecb,fed' }),
      backfill(['--source', 'nbp'], { FXRATES_DATA_DIR: dataDir, SOURCES: 'ecb,cnb' }),
      backfill(['--help'], { FXRATES_DATA_DIR: dataDir, SOURCES: 'ecb,fed' }),
    ]);
    expect([bad.code, outside.code, help.code]).toEqual([2, 2, 0]);
    expect(help.stdout).toMatch(/^usage: npm run backfill/);
    expect(bad.stderr).toMatch(/^backfill: SOURCES must be some of ecb, nbp, .*, not 'ecb,fed'\.$/m);
    expect(outside.stderr).toMatch(/^backfill: --source must be one of ecb, cnb, got 'nbp'$/m);
    expect(existsSync(dataDir)).toBe(false);
  });

  it('loads only the sources SOURCES names, as the ingest function of a deployment with that setting', async () => {
    const env = { FXRATES_DATA_DIR: join(work, 'sources-ecb'), SOURCES: 'ecb' };
    const run = await backfill(['--offline', '--from', '2026-03-01'], env);
    expect(run.code).toBe(0);
    const expectedDays = table.rows.filter((r) => r.date >= '2026-03-01').length;
    expect(run.stdout).toMatch(new RegExp(`^backfill offline: ecb ${expectedDays} days; ${expectedDays} days written`));
  });

  it('explains every option and source variable on --help, on stdout, with status 0 and nothing written', async () => {
    const dataDir = join(work, 'help-only');
    const run = await backfill(['--help'], { FXRATES_DATA_DIR: dataDir });
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    for (const word of [
      '--from',
      '--to',
      '--source',
      '--offline',
      '--series',
      '--help',
      'FXRATES_DATA_DIR',
      'RATES_TABLE_NAME',
    ]) {
      expect([word, run.stdout.includes(word)]).toEqual([word, true]);
    }
    expect(run.stdout).toMatch(/CURRENCY_API_FALLBACK_URL +a template .*\{date\}/s);
    expect(run.stdout).toMatch(/ECB_BASE_URL/);
    expect(run.stdout).toMatch(/CURRENCY_API_BASE_URL/);
    for (const name of ['CENTRAL_BANK_ORIGIN', 'SOURCES', 'CROSS_CHECK_TOLERANCE', 'CROSS_CHECK_EXEMPT']) {
      expect(run.stdout).toContain(`\n  ${name} `);
    }
    expect(existsSync(dataDir)).toBe(false);
  });

  it('backfills offline into an embedded store under the data directory, then writes nothing the second time', async () => {
    const env = { FXRATES_DATA_DIR: join(work, 'offline') };
    const expectedDays = table.rows.filter((r) => r.date >= '2026-03-01').length;
    const first = await backfill(['--offline', '--source', 'ecb', '--from', '2026-03-01'], env);
    expect(first.code).toBe(0);
    expect(first.stdout.trim().split('\n')).toHaveLength(1);
    expect(first.stdout).toMatch(new RegExp(`ecb ${expectedDays} days; ${expectedDays} days written, 0 unchanged`));
    const second = await backfill(['--offline', '--source', 'ecb', '--from', '2026-03-01'], env);
    expect(second.stdout).toMatch(new RegExp(`0 days written, ${expectedDays} unchanged, 0 rejected`));

    const reopened = await startDynalite({ path: join(work, 'offline', 'dynalite') });
    const client = createDocumentClient(reopened.endpoint);
    try {
      const store = new RatesStore(client, 'fxrates-rates');
      expect((await store.getLatest())?.date).toBe(table.rows[0]?.date);
      expect(await store.getDay('2026-02-27')).toBeUndefined();
    } finally {
      client.destroy();
      await reopened.close();
    }
  });

  it('rebuilds the time series items from the stored days with --series, and takes no other option with it', async () => {
    const env = { FXRATES_DATA_DIR: join(work, 'series') };
    const loaded = await backfill(['--offline', '--source', 'ecb', '--from', '2026-03-01'], env);
    expect(loaded.code).toBe(0);
    const run = await backfill(['--series'], env);
    expect(run.code).toBe(0);
    const days = table.rows.filter((r) => r.date >= '2026-03-01').length;
    expect(run.stdout).toMatch(
      new RegExp(`^backfill series: \\d+ items rebuilt from ${days} stored days over \\d+ years;`),
    );
    const mixed = await backfill(['--series', '--offline'], env);
    expect([mixed.code, mixed.stderr]).toEqual([
      2,
      expect.stringMatching(/--series takes no other option, got --offline/),
    ]);

    const reopened = await startDynalite({ path: join(work, 'series', 'dynalite') });
    const client = createDocumentClient(reopened.endpoint);
    try {
      const store = new RatesStore(client, 'fxrates-rates');
      const usd = await store.getSeriesItem('USD', 2026);
      expect(Object.keys(usd ?? {}).filter((name) => name.startsWith('d'))).toHaveLength(days);
      expect((await store.getSeriesMeta())?.version).toBe(SERIES_VERSION);
    } finally {
      client.destroy();
      await reopened.close();
    }
  });

  describe('against a running local server', () => {
    let server: RunningDynalite;
    const dir = () => join(work, 'running');
    beforeAll(async () => {
      server = await startDynalite();
      rmSync(dir(), { recursive: true, force: true });
      mkdirSync(dir(), { recursive: true });
      writeFileSync(join(dir(), 'dynamodb-endpoint.json'), JSON.stringify({ endpoint: server.endpoint }));
    });
    afterAll(async () => {
      await server.close();
    });

    it('fetches the ECB zip and currency-api days online and writes to the store the server advertises', async () => {
      const env = {
        FXRATES_DATA_DIR: dir(),
        ECB_BASE_URL: upstream.urls.ecbBaseUrl,
        CURRENCY_API_BASE_URL: upstream.urls.currencyApiBaseUrl,
        CURRENCY_API_FALLBACK_URL: upstream.urls.currencyApiFallbackUrl,
      };
      const ecb = await backfill(['--source', 'ecb', '--from', '2026-04-01'], env);
      expect(ecb.code).toBe(0);
      expect(ecb.stdout).toMatch(/backfill online: ecb \d+ days/);
      expect(ecb.stdout).toMatch(/running server/);
      const api = await backfill(['--source', 'currency-api', '--from', '2026-09-27', '--to', '2026-09-29'], env);
      expect(api.stdout).toMatch(/currency-api 3 days; 3 days written/);
      expect(upstream.requests).toContain(upstream.ecbPath('eurofxref-hist.zip'));
      expect(upstream.requests).toContain(upstream.currencyApiPath('2026-09-28'));

      const client = createDocumentClient(server.endpoint);
      try {
        const store = new RatesStore(client, 'fxrates-rates');
        expect((await store.getDay('2026-04-13'))?.sources.USD).toBe('ecb');
        expect((await store.getLatest())?.date).toBe('2026-09-29');
      } finally {
        client.destroy();
      }
    });
  });
});
