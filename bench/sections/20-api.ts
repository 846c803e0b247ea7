/**
 * The request path: handler-only latency in process (store warm); then `npm start` itself (bin/start.mjs: built
 * JavaScript, store on disk, every request authenticated and metered) in a process of its own under autocannon
 * from another, beside a bare Node HTTP server under the same load in the same run: the ceiling of this machine
 * for one Node process. Per route, the rounds alternate between the two, and the figure that counts is the ratio
 * of each round (fxrates' req/s over the ceiling's), which the machine's drift and its other load affect far less
 * than absolute figures. Also: p50/p99 of both, the server's CPU time per request by thread, and the memory of its
 * whole process tree when ready and after the load.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { endpoint as historyEndpoint } from '../../lambdas/core/endpoints/history';
import { endpoint as latestEndpoint } from '../../lambdas/core/endpoints/latest';
import { apiHandler } from '../../lambdas/core/http/api-handler';
import { encodeAccess } from '../../lambdas/core/http/authorizer-context';
import { RateReader } from '../../lambdas/core/service/rate-reader';
import { startLocalService } from '../../local-server/service';
import { median, percentile } from '../stats';
import { loadBundledRates } from '../support/bundled-rates';
import { attachDdbCounter, perUnit } from '../support/ddb-counter';
import {
  autocannon,
  type LoadResult,
  startCeiling,
  startNpmStart,
  threadTicks,
  treeMemory,
} from '../support/servers-under-load';

const HANDLER_ITERATIONS = 20_000;
const LOAD_SECONDS = Number(process.env.BENCH_API_SECONDS ?? 10);
/**
 * Unmeasured load on both servers first: a cold server's first second, still compiling, ran at 331 req/s against a
 * median of 820, and a cold ceiling's first 4 s at 26,251 req/s against 43,928 two measurements later.
 */
const WARM_UP_SECONDS = 2;
const CONNECTIONS = 10;
/** Each route is measured this many times, alternating with the ceiling. */
const ROUNDS = Number(process.env.BENCH_API_ROUNDS ?? 3);
const TICK_MICROS = 10_000;

const ROUTES = [
  ['latest', 'rates/latest?base=USD'],
  ['history', 'rates/history/USD/JPY/2026-04-13'],
  ['timeseries', 'rates/timeseries/USD/JPY?start=2026-01-01&end=2026-03-31'],
] as const;

interface Round {
  fxrates: LoadResult;
  ceiling: LoadResult;
  /** The server's CPU time per request in µs: its main thread, its busiest other thread, all the others. */
  cpu: { main: number; busiest: number; rest: number };
}

function cpuPerRequest(pid: number, before: Map<number, number>, requests: number): Round['cpu'] {
  const used = [...threadTicks(pid)].map(([tid, ticks]) => ({
    tid,
    micros: ((ticks - (before.get(tid) ?? 0)) * TICK_MICROS) / Math.max(1, requests),
  }));
  const main = used.find((t) => t.tid === pid)?.micros ?? 0;
  const others = used.filter((t) => t.tid !== pid).sort((a, b) => b.micros - a.micros);
  const busiest = others[0]?.micros ?? 0;
  return { main, busiest, rest: others.slice(1).reduce((sum, t) => sum + t.micros, 0) };
}

const MIB = 1024 * 1024;
const mib = (bytes: number) => `${(bytes / MIB).toFixed(0)} MiB`;
const pct = (share: number) => `${(share * 100).toFixed(1)} %`;

/** Every route against the ceiling, the two alternating in each round; the medians over the rounds. */
async function againstTheCeiling(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'fxrates-bench-'));
  const ceiling = await startCeiling();
  try {
    const first = await startNpmStart(join(dataDir, 'data'));
    const firstMemory = treeMemory(first.pid);
    await first.close();
    const server = await startNpmStart(join(dataDir, 'data'));
    const ready = treeMemory(server.pid);
    console.log(
      `  npm start: first start (all the bundled data loaded) ready in ${(first.readyMs / 1000).toFixed(1)} s, ` +
        `${mib(firstMemory.rss)} in ${firstMemory.processes} process(es); restarted: ready in ` +
        `${(server.readyMs / 1000).toFixed(1)} s, ${mib(ready.rss)} in ${ready.processes} process(es)`,
    );
    try {
      const rows: string[][] = [
        ['route', 'fxrates req/s', 'p50/p99 ms', 'ceiling req/s', 'p50/p99 ms', 'ratio', 'CPU µs/req main+store+rest'],
      ];
      for (const [name, path] of ROUTES) {
        const url = `${server.url}${path}`;
        await autocannon(url, { key: server.key, seconds: WARM_UP_SECONDS, connections: CONNECTIONS });
        await autocannon(ceiling.url, { seconds: WARM_UP_SECONDS, connections: CONNECTIONS });
        const rounds: Round[] = [];
        for (let round = 0; round < ROUNDS; round++) {
          const load = { seconds: LOAD_SECONDS, connections: CONNECTIONS };
          const measureFxrates = async () => {
            const before = threadTicks(server.pid);
            const result = await autocannon(url, { ...load, key: server.key });
            return { result, cpu: cpuPerRequest(server.pid, before, result.total) };
          };
          let fxrates: Awaited<ReturnType<typeof measureFxrates>>;
          let bare: LoadResult;
          if (round % 2 === 0) {
            bare = await autocannon(ceiling.url, load);
            fxrates = await measureFxrates();
          } else {
            fxrates = await measureFxrates();
            bare = await autocannon(ceiling.url, load);
          }
          rounds.push({ fxrates: fxrates.result, ceiling: bare, cpu: fxrates.cpu });
          const failed = fxrates.result.failures > 0 ? `, ${fxrates.result.failures} failed` : '';
          console.log(
            `    ${name.padEnd(10)} round ${round + 1}: fxrates ${fxrates.result.rate.toFixed(0)} req/s ` +
              `(p99 ${fxrates.result.p99} ms${failed}), ceiling ${bare.rate.toFixed(0)} req/s: ` +
              pct(fxrates.result.rate / bare.rate),
          );
        }
        const m = (pick: (round: Round) => number) => median(rounds.map(pick));
        rows.push([
          name,
          m((r) => r.fxrates.rate).toFixed(0),
          `${m((r) => r.fxrates.p50)}/${m((r) => r.fxrates.p99)}`,
          m((r) => r.ceiling.rate).toFixed(0),
          `${m((r) => r.ceiling.p50)}/${m((r) => r.ceiling.p99)}`,
          pct(m((r) => r.fxrates.rate / r.ceiling.rate)),
          `${m((r) => r.cpu.main).toFixed(0)}+${m((r) => r.cpu.busiest).toFixed(0)}+${m((r) => r.cpu.rest).toFixed(0)}`,
        ]);
      }
      const afterLoad = treeMemory(server.pid);
      console.log(`  medians of ${ROUNDS} rounds (ratio: fxrates' req/s over the ceiling's in the same round):`);
      const widths = rows[0]?.map((_, i) => Math.max(...rows.map((row) => row[i]?.length ?? 0))) ?? [];
      for (const row of rows) {
        console.log(
          `    ${row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ')}`,
        );
      }
      console.log(
        `  memory of npm start's process tree: ${mib(ready.rss)} ready, ${mib(afterLoad.rss)} after the load, ` +
          `${afterLoad.processes} process(es)`,
      );
    } finally {
      await server.close();
    }
  } finally {
    await ceiling.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
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
    `\nnpm start against the ceiling, autocannon in a process of its own (${CONNECTIONS} connections, ` +
      `${LOAD_SECONDS} s per round after ${WARM_UP_SECONDS} s unmeasured per route on each server; ceiling: a bare Node HTTP ` +
      'server answering a fixed JSON body):',
  );
  await againstTheCeiling();
}
