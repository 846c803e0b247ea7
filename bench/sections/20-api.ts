/**
 * The request path: handler-only latency in process (store warm); then the local server in a process of its own,
 * started with `npm start`'s Node flags, under autocannon from another (its store in memory, then on disk as
 * `npm start` keeps it), for each thread layout in turn: throughput, latency, the server's CPU time and RSS, and
 * DynamoDB requests per API request (by an SDK middleware for the handler alone, as the store answered them under load).
 */
import { fork, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { endpoint as historyEndpoint } from '../../lambdas/core/endpoints/history';
import { endpoint as latestEndpoint } from '../../lambdas/core/endpoints/latest';
import { apiHandler } from '../../lambdas/core/http/api-handler';
import { encodeAccess } from '../../lambdas/core/http/authorizer-context';
import { API_KEY_HEADER } from '../../lambdas/core/http/headers';
import { RateReader } from '../../lambdas/core/service/rate-reader';
import { PROJECT_ROOT as ROOT } from '../../lib/bundling';
import { DEFAULT_LAYOUT, type LocalLayout, startLocalService } from '../../local-server/service';
import { loadBundledRates } from '../../test/support/bundled-rates';
import { attachDdbCounter, countsByOperation, perUnit } from '../../test/support/ddb-counter';
import type { ApiServerMessage, ApiServerOptions, ApiServerRequest, Memory } from '../api-server';
import { median, percentile } from '../stats';

const HANDLER_ITERATIONS = 20_000;
const LOAD_SECONDS = 10;
/** Unmeasured load first: a cold server's first second, still compiling, ran at 331 req/s against a median of 820. */
const WARM_UP_SECONDS = 2;
const CONNECTIONS = 10;
const BARE_SECONDS = 5;
/**
 * The Node flags of `npm start` (the TypeScript loader, the ESM-only package preload, any V8 flags), read from its
 * script, so that the server processes here run as it runs.
 */
const START_FLAGS = ((): string[] => {
  const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const words = scripts.start.split(/\s+/);
  return words.slice(
    words.indexOf('node') + 1,
    words.findIndex((word) => word.endsWith('serve.ts')),
  );
})();
/** Each layout is measured this many times, in alternating order. */
const ROUNDS = Number(process.env.BENCH_API_ROUNDS ?? 3);

interface AutocannonSummary {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}

/** Runs autocannon in a separate node process, so the load generator does not share the server's event loop. */
function autocannon(url: string, key: string, seconds = LOAD_SECONDS): Promise<AutocannonSummary> {
  const script = `
    const autocannon = require('autocannon');
    autocannon({ url: process.argv[1], connections: ${CONNECTIONS}, duration: ${seconds},
      headers: { '${API_KEY_HEADER}': process.argv[2] } }, (err, res) => {
      if (err) { console.error(err); process.exit(1); }
      process.stdout.write(JSON.stringify({ requests: res.requests, latency: res.latency, non2xx: res.non2xx,
        errors: res.errors, timeouts: res.timeouts }));
    });`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script, url, key], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out) as AutocannonSummary) : reject(new Error(`autocannon exited ${code}`)),
    );
  });
}

/**
 * The same load against a bare Node HTTP server that answers a fixed JSON body: how fast this machine is right now.
 * The shared 2-core machines swing by about 2 × within an hour, so throughput is shown beside this floor as well.
 */
async function bareServerRate(): Promise<number> {
  const server = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    return (await autocannon(`http://127.0.0.1:${port}/`, 'none', BARE_SECONDS)).requests.average;
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** A local server in a child process (see bench/api-server.ts), driven over its IPC channel. */
interface ServerProcess {
  url: string;
  key: string;
  modules: Memory;
  started: Memory;
  ask<T extends ApiServerMessage['type']>(
    request: ApiServerRequest,
    answer: T,
  ): Promise<Extract<ApiServerMessage, { type: T }>>;
  close(): Promise<void>;
}

function startServerProcess(options: ApiServerOptions): Promise<ServerProcess> {
  const child = fork(join(ROOT, 'bench', 'api-server.ts'), [JSON.stringify(options)], {
    cwd: ROOT,
    execArgv: START_FLAGS,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const next = <T extends ApiServerMessage['type']>(type: T) =>
    new Promise<Extract<ApiServerMessage, { type: T }>>((resolve, reject) => {
      const onMessage = (message: ApiServerMessage) => {
        if (message.type !== type) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(message as Extract<ApiServerMessage, { type: T }>);
      };
      const onExit = (code: number | null) => reject(new Error(`the bench server exited with code ${code}`));
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  return next('ready').then((ready) => ({
    url: ready.url,
    key: ready.key,
    modules: ready.memory.modules,
    started: ready.memory.started,
    ask: (request, answer) => {
      const reply = next(answer);
      child.send(request);
      return reply;
    },
    close: async () => {
      child.send({ type: 'close' } satisfies ApiServerRequest);
      const timer = setTimeout(() => child.kill(), 10_000);
      await exited;
      clearTimeout(timer);
    },
  }));
}

const ENDPOINTS = [
  ['latest', 'rates/latest?base=USD'],
  ['history', 'rates/history/USD/JPY/2026-04-13'],
] as const;

type Endpoint = (typeof ENDPOINTS)[number][0];

interface LayoutRun {
  layout: LocalLayout;
  round: number;
  floor: number;
  started: Memory;
  afterLoad: Memory;
  endpoints: Record<
    Endpoint,
    {
      rate: number;
      p50: number;
      p99: number;
      reads: number;
      writes: number;
      /** The server process's CPU time per request, in µs, over all its threads. */
      cpu: number;
      failures: number;
    }
  >;
}

/** One layout's server: latest, then history, each after unmeasured warm-up; its memory once both have run. */
async function measureLayout(
  layout: LocalLayout,
  round: number,
  store: StoreVariant,
  floor: number,
): Promise<LayoutRun> {
  const server = await startServerProcess({
    layout,
    rates: store.rates,
    ...(store.dataDir ? { dataDir: store.dataDir } : {}),
  });
  try {
    const endpoints = {} as LayoutRun['endpoints'];
    for (const [name, path] of ENDPOINTS) {
      await autocannon(`${server.url}${path}`, server.key, WARM_UP_SECONDS);
      await server.ask({ type: 'requests', reset: true }, 'requests');
      const result = await autocannon(`${server.url}${path}`, server.key);
      const { counts, cpuMicros } = await server.ask({ type: 'requests', reset: true }, 'requests');
      const perRequest = perUnit(countsByOperation(counts), result.requests.total);
      endpoints[name] = {
        rate: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        ...perRequest,
        cpu: cpuMicros / result.requests.total,
        failures: result.non2xx + result.errors + result.timeouts,
      };
    }
    const { memory } = await server.ask({ type: 'memory' }, 'memory');
    return { layout, round, floor, started: server.started, afterLoad: memory, endpoints };
  } finally {
    await server.close();
  }
}

const MIB = 1024 * 1024;
const mib = (bytes: number) => `${(bytes / MIB).toFixed(0)} MiB`;

function runLine(run: LayoutRun): string {
  const cells = ENDPOINTS.map(([name]) => {
    const e = run.endpoints[name];
    const failed = e.failures > 0 ? ` (${e.failures} failed)` : '';
    return `${name} ${e.rate.toFixed(0).padStart(5)} req/s ${e.p50}/${e.p99} ms ${pct(e.rate / run.floor)}${failed}`;
  });
  return (
    `    ${run.layout.padEnd(13)} floor ${run.floor.toFixed(0).padStart(5)}   ${cells.join('   ')}   ` +
    `RSS ${mib(run.started.rss)} ready, ${mib(run.afterLoad.rss)} after load`
  );
}

const pct = (share: number) => `${(share * 100).toFixed(1)} %`;

/**
 * Per layout and endpoint, medians over the rounds: req/s, latency, floor, share of the floor, req/s against the best
 * layout's of the same round (the runs of one round follow each other, so this ratio is the least noisy figure), the
 * server's CPU time per request (all its threads), RSS when ready and after the load.
 */
function printSummary(runs: LayoutRun[]): void {
  const header = ['layout', 'endpoint', 'req/s', 'p50/p99 ms', 'floor', 'of floor', 'of best', 'CPU/req', 'RSS ready'];
  const rows: string[][] = [[...header, 'RSS after load', 'DynamoDB reads/writes per request']];
  for (const [name] of ENDPOINTS) {
    const ofBest = (run: LayoutRun) =>
      run.endpoints[name].rate /
      Math.max(...runs.filter((r) => r.round === run.round).map((r) => r.endpoints[name].rate));
    for (const layout of LAYOUTS) {
      const mine = runs.filter((r) => r.layout === layout);
      const m = (pick: (run: LayoutRun) => number) => median(mine.map(pick));
      const e = (pick: (endpoint: LayoutRun['endpoints'][Endpoint]) => number) => m((r) => pick(r.endpoints[name]));
      rows.push([
        layout,
        name,
        e((x) => x.rate).toFixed(0),
        `${e((x) => x.p50)}/${e((x) => x.p99)}`,
        m((r) => r.floor).toFixed(0),
        pct(m((r) => r.endpoints[name].rate / r.floor)),
        pct(m(ofBest)),
        `${e((x) => x.cpu).toFixed(0)} µs`,
        mib(m((r) => r.started.rss)),
        mib(m((r) => r.afterLoad.rss)),
        `${e((x) => x.reads).toFixed(3)} / ${e((x) => x.writes).toFixed(3)}`,
      ]);
    }
  }
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((row) => row[i]?.length ?? 0))) ?? [];
  for (const row of rows)
    console.log(
      `    ${row.map((cell, i) => (i < 2 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ')}`,
    );
}

interface StoreVariant {
  label: string;
  rates: ApiServerOptions['rates'];
  dataDir?: string;
}

const LAYOUTS: readonly LocalLayout[] = ['single', 'store-thread'];

/**
 * Each layout's server under the same load, the layouts alternating (forward, then backward) so that a drift of
 * the machine's speed weighs on each alike, each run beside the floor measured just before it.
 */
async function compareLayouts(store: StoreVariant): Promise<void> {
  console.log(`  ${store.label}:`);
  const runs: LayoutRun[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const layout of round % 2 === 0 ? LAYOUTS : [...LAYOUTS].reverse()) {
      const run = await measureLayout(layout, round, store, await bareServerRate());
      console.log(runLine(run));
      runs.push(run);
    }
  }
  console.log(`  ${store.label}, median of ${ROUNDS} rounds:`);
  printSummary(runs);
}

export default async function run(): Promise<void> {
  const service = await startLocalService({ port: 0, loadRates: loadBundledRates, demoAccounts: false });
  try {
    const counter = attachDdbCounter(service.client);
    const clock = () => new Date();
    const reader = new RateReader(service.ratesStore, clock);
    const deps = { reader, clock };
    const latest = apiHandler('latest', latestEndpoint.create(deps));
    const history = apiHandler('history', historyEndpoint.create(deps));
    const access = encodeAccess({ verdict: 'admitted', accountId: 'bench', plan: 'business' });
    const event = (path: string, query: Record<string, string> | null, params: Record<string, string> | null) =>
      ({
        resource: path,
        path,
        httpMethod: 'GET',
        headers: {},
        multiValueHeaders: {},
        queryStringParameters: query,
        multiValueQueryStringParameters: query && Object.fromEntries(Object.entries(query).map(([k, v]) => [k, [v]])),
        pathParameters: params,
        requestContext: { requestId: 'bench', authorizer: access },
      }) as unknown as APIGatewayProxyEvent;
    const latestEvent = event('/rates/latest', { base: 'USD' }, null);
    const historyEvent = event('/rates/history/{from}/{to}/{date}', null, {
      from: 'USD',
      to: 'JPY',
      date: '2026-04-13',
    });

    // Saturday 2026-04-11 has no rate: fallback=previous reads it and the 7 days before it (8 reads cold).
    const fallbackEvent = event(
      '/rates/history/{from}/{to}/{date}',
      { fallback: 'previous' },
      { from: 'USD', to: 'JPY', date: '2026-04-11' },
    );
    const expandEvent = event('/rates/latest', { base: 'USD', expand: 'sources' }, null);

    console.log(`handler only, in process, store warm (${HANDLER_ITERATIONS} calls each):`);
    for (const [name, handler, ev] of [
      ['latest base=USD', latest, latestEvent],
      ['latest base=USD expand=sources', latest, expandEvent],
      ['history USD/JPY/2026-04-13', history, historyEvent],
      ['history 2026-04-11 fallback', history, fallbackEvent],
    ] as const) {
      const warm = await handler(ev, {} as Context);
      if (warm.statusCode !== 200) throw new Error(`${name} answered ${warm.statusCode}: ${warm.body}`);
      counter.reset();
      const samples: number[] = [];
      for (let i = 0; i < HANDLER_ITERATIONS; i++) {
        const t0 = performance.now();
        await handler(ev, {} as Context);
        samples.push((performance.now() - t0) * 1000);
      }
      samples.sort((a, b) => a - b);
      const ddb = perUnit(counter.snapshot(), HANDLER_ITERATIONS);
      console.log(
        `  ${name.padEnd(32)} p50 ${percentile(samples, 50).toFixed(1)} µs   p99 ${percentile(samples, 99).toFixed(1)} µs   ` +
          `DynamoDB per request: ${ddb.reads} reads, ${ddb.writes} writes   (budget: p99 < 1000 µs, 0 reads)`,
      );
    }
  } finally {
    await service.close();
  }

  console.log(
    `\nlocal server with metering, in a child process as \`npm start\` runs it, autocannon in another ` +
      `(${CONNECTIONS} connections, ${LOAD_SECONDS} s after ${WARM_UP_SECONDS} s unmeasured; latest base=USD, ` +
      `history USD/JPY/2026-04-13; floor: a bare Node HTTP server's req/s under the same load just before; ` +
      'budget ≥ 1500 req/s):',
  );
  await compareLayouts({
    label: 'store in memory with the test windows of the bundled data, as the tests run it',
    rates: 'test-windows',
  });

  // `npm start` keeps its store in LevelDB files under its data directory, loads all the bundled data on its first
  // start and finds it there on the next: each run here is such a next start, over one directory loaded before.
  const dataDir = mkdtempSync(join(tmpdir(), 'fxrates-bench-'));
  try {
    const loading = Date.now();
    const first = await startServerProcess({ layout: DEFAULT_LAYOUT, rates: 'bundled', dataDir });
    console.log(
      `  first start over an empty data directory (${DEFAULT_LAYOUT}): ready in ${((Date.now() - loading) / 1000).toFixed(1)} s ` +
        `with all the bundled data loaded, RSS ${mib(first.started.rss)} (${mib(first.modules.rss)} before the store opened)`,
    );
    await first.close();
    await compareLayouts({
      label: 'store on disk with all the bundled data, as `npm start` restarts over its data directory',
      rates: 'bundled',
      dataDir,
    });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
