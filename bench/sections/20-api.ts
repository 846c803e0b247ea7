/**
 * The request path: handler-only latency in process (store warm), the local server under autocannon from a second
 * process (its store in memory, then on disk as `npm start` keeps it), and DynamoDB requests per API request: by an
 * SDK middleware for the handler alone, and as the local service's store thread answered them under load.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { formatDay } from '../../lambdas/core/domain/dates';
import { endpoint as historyEndpoint } from '../../lambdas/core/endpoints/history';
import { endpoint as latestEndpoint } from '../../lambdas/core/endpoints/latest';
import { apiHandler } from '../../lambdas/core/http/api-handler';
import { encodeAccess } from '../../lambdas/core/http/authorizer-context';
import { RateReader } from '../../lambdas/core/service/rate-reader';
import { type LocalService, startLocalService } from '../../local-server/service';
import { loadBundledRates } from '../../test/support/bundled-rates';
import { attachDdbCounter, countsByOperation, perUnit } from '../../test/support/ddb-counter';
import { percentile } from '../stats';

const HANDLER_ITERATIONS = 20_000;
const LOAD_SECONDS = 10;
/** Unmeasured load first: a cold server's first second, its three threads still compiling, ran at 331 req/s against a median of 820. */
const WARM_UP_SECONDS = 2;
const CONNECTIONS = 10;
const BARE_SECONDS = 5;

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
      headers: { 'X-API-Key': process.argv[2] } }, (err, res) => {
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

/** Latest and history under load on one running service, with a key of a business account without limits. */
async function measureServer(service: LocalService, bare: number): Promise<void> {
  const account = await service.accounts.createAccount({
    accountId: `bench-${formatDay(new Date())}-${process.pid}`,
    plan: 'business',
    verified: true,
    overrides: { monthlyLimit: 1e9, perMinute: 1e9 },
  });
  const { key } = await service.accounts.createKey(account.accountId, 'bench');
  for (const [name, path] of [
    ['latest base=USD', 'rates/latest?base=USD'],
    ['history USD/JPY/2026-04-13', 'rates/history/USD/JPY/2026-04-13'],
  ] as const) {
    await autocannon(`${service.url}${path}`, key, WARM_UP_SECONDS);
    await service.storeRequests(true);
    const result = await autocannon(`${service.url}${path}`, key);
    const counts = countsByOperation(await service.storeRequests(true));
    const perRequest = perUnit(counts, result.requests.total);
    console.log(
      `    ${name.padEnd(26)} ${result.requests.average.toFixed(0)} req/s   p50 ${result.latency.p50} ms   p99 ${result.latency.p99} ms   ` +
        `non-2xx ${result.non2xx}, errors ${result.errors}   DynamoDB per request: ${perRequest.reads.toFixed(3)} reads, ` +
        `${perRequest.writes.toFixed(3)} writes   ${((result.requests.average / bare) * 100).toFixed(1)} % of the floor   ` +
        '(budget: ≥ 1500 req/s)',
    );
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

    console.log(`handler only, in process, store warm (${HANDLER_ITERATIONS} calls each):`);
    for (const [name, handler, ev] of [
      ['latest base=USD', latest, latestEvent],
      ['history USD/JPY/2026-04-13', history, historyEvent],
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
        `  ${name.padEnd(28)} p50 ${percentile(samples, 50).toFixed(1)} µs   p99 ${percentile(samples, 99).toFixed(1)} µs   ` +
          `DynamoDB per request: ${ddb.reads} reads, ${ddb.writes} writes   (budget: p99 < 1000 µs, 0 reads)`,
      );
    }

    const bare = await bareServerRate();
    console.log(
      `\nlocal server with metering, autocannon in a second process (${CONNECTIONS} connections, ${LOAD_SECONDS} s ` +
        `after ${WARM_UP_SECONDS} s unmeasured):`,
    );
    console.log(`  machine floor: a bare Node HTTP server answers ${bare.toFixed(0)} req/s under the same load`);
    console.log('  store in memory, as the tests run it:');
    await measureServer(service, bare);
  } finally {
    await service.close();
  }

  // `npm start` keeps its store in LevelDB files under its data directory; its figures are the ones users see.
  const dataDir = mkdtempSync(join(tmpdir(), 'fxrates-bench-'));
  try {
    const persisted = await startLocalService({ port: 0, dataDir, loadRates: loadBundledRates, demoAccounts: false });
    try {
      const bareNow = await bareServerRate();
      console.log(`  store on disk, as \`npm start\` runs it (machine floor now ${bareNow.toFixed(0)} req/s):`);
      await measureServer(persisted, bareNow);
    } finally {
      await persisted.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
