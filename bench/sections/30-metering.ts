/**
 * Metering: DynamoDB calls per admitted and per refused request in steady state, counted by the SDK middleware
 * the tests use, and admissions per second at 16 concurrent (the Lambda authorizer's usage store and npm start's),
 * on the embedded emulator and on DynamoDB Local; then the time one admission write takes in the SDK alone and in
 * the embedded store alone.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { PLANS, type PlanLimits } from '../../lambdas/core/domain/plans';
import { createDocumentClient, createMeteringClient } from '../../lambdas/core/store/clients';
import { ACCOUNTS_TABLE } from '../../lambdas/core/store/tables';
import { type AdmitInput, UsageStore } from '../../lambdas/core/store/usage-store';
import { createTable } from '../../local-server/create-tables';
import { type RunningDynalite, startDynalite } from '../../local-server/dynalite-server';
import {
  InProcessTransport,
  type LocalRequest,
  LocalRequestHandler,
  type LocalResponse,
  operationOf,
  type TransportRequest,
} from '../../local-server/in-process-transport';
import { SharedWriteUsageStore } from '../../local-server/shared-write-usage-store';
import { isStoreCall, sendStoreCalls } from '../../local-server/store-calls';
import { percentile } from '../stats';
import { attachDdbCounter, type DdbCounter, perUnit } from '../support/ddb-counter';
import { startDynamoDbLocal } from '../support/dynamodb-local';

const STEADY_REQUESTS = 600;
const REFUSED_REQUESTS = 300;
const CONCURRENCY = 16;
const THROUGHPUT_MS = 3000;
const SPLIT_WARM_UP = 2000;
const SPLIT_CALLS = 10000;

const unlimited: PlanLimits = { ...PLANS.business, monthlyLimit: 1e12, perMinute: 1e12 };

interface Rig {
  client: DynamoDBDocumentClient;
  /** The admission writes' client, as the authorizer has it. */
  metering: DynamoDBClient;
  counter: DdbCounter;
  table: string;
}

function fmt(value: number, digits = 2): string {
  return value.toFixed(digits);
}

function verdictLine(label: string, counts: { reads: number; writes: number }, budget: string, ok: boolean): string {
  return `  ${label.padEnd(34)} ${fmt(counts.writes)} writes, ${fmt(counts.reads)} reads per request  (budget ${budget}) ${ok ? 'ok' : 'OVER BUDGET'}`;
}

async function measureCalls(rig: Rig, backend: string): Promise<void> {
  let now = Date.parse('2026-09-15T10:20:00.000Z');
  const store = new UsageStore(rig.metering, rig.table, { clock: () => new Date(now) });
  const accountId = `bench-${randomUUID()}`;
  const admit = (limits: PlanLimits, i: number) =>
    store.admit({ accountId, limits, countsTowardMonth: true, requestId: `r-${i}-${randomUUID()}` });

  // Steady state: one request every 100 ms, so minutes roll over as they do for a busy account.
  await admit(unlimited, -1);
  rig.counter.reset();
  for (let i = 0; i < STEADY_REQUESTS; i++) {
    now += 100;
    const state = await admit(unlimited, i);
    if (state.verdict !== 'admitted') throw new Error(`steady-state request refused: ${state.verdict}`);
  }
  const admitted = perUnit(rig.counter.snapshot(), STEADY_REQUESTS);
  console.log(
    verdictLine(
      `admitted (${STEADY_REQUESTS}, 6 minute rollovers)`,
      admitted,
      '1 write, 0 reads',
      admitted.writes <= 1 && admitted.reads === 0,
    ),
  );

  // Refused: the minute is used up, every further request in it is a 429.
  const tight: PlanLimits = { ...unlimited, perMinute: 5 };
  now += 60_000;
  for (let i = 0; i < 5; i++) await admit(tight, i);
  rig.counter.reset();
  for (let i = 0; i < REFUSED_REQUESTS; i++) {
    const state = await admit(tight, i);
    if (state.verdict !== 'rate-limit-exceeded') throw new Error(`expected a refusal, got ${state.verdict}`);
  }
  const refused = perUnit(rig.counter.snapshot(), REFUSED_REQUESTS);
  const readNote = backend.startsWith('dynalite') ? ' (dynalite returns no ALL_OLD: emulator-only read)' : '';
  // The refused conditional write, then the day's refusal counter for the dashboard (usage-store.ts).
  console.log(
    verdictLine(`refused (${REFUSED_REQUESTS})`, refused, 'at most 2 writes', refused.writes <= 2) + readNote,
  );

  // The first request after a gap also removes the minute counters the gap left behind.
  now += 10 * 60_000;
  rig.counter.reset();
  await admit(unlimited, 0);
  const gap = rig.counter.snapshot();
  console.log(`  first request after a 10-minute gap   ${gap.writes} writes, ${gap.reads} reads`);
}

type Admit = (accountId: string) => Promise<boolean>;

/** Runs CONCURRENCY workers for THROUGHPUT_MS, each admitting requests of one of `accounts` accounts. */
async function throughput(rig: Rig, accounts: number, admit: Admit): Promise<string> {
  const ids = Array.from({ length: accounts }, () => `bench-${randomUUID()}`);
  const latencies: number[] = [];
  let admitted = 0;
  const deadline = performance.now() + THROUGHPUT_MS;
  const started = performance.now();
  const worker = async (w: number) => {
    const accountId = ids[w % ids.length] ?? '';
    while (performance.now() < deadline) {
      const t0 = performance.now();
      if (await admit(accountId)) admitted++;
      latencies.push(performance.now() - t0);
    }
  };
  rig.counter.reset();
  await Promise.all(Array.from({ length: CONCURRENCY }, (_, w) => worker(w)));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const calls = perUnit(rig.counter.snapshot(), admitted);
  return `${fmt(admitted / seconds, 0).padStart(6)}/s  p50 ${fmt(percentile(latencies, 50))} ms  p99 ${fmt(percentile(latencies, 99))} ms  (${fmt(calls.writes, 3)} writes each)`;
}

async function measureThroughput(rig: Rig, accounts: number): Promise<void> {
  const label = accounts === 1 ? 'one hot account' : `${accounts} accounts`;
  // The Lambda authorizer's store (one write per admission), then npm start's (admissions that meet share one).
  for (const [name, store] of [
    ['', new UsageStore(rig.metering, rig.table, { clock: () => new Date() })],
    [' (npm start)', new SharedWriteUsageStore(rig.metering, rig.table, { clock: () => new Date() })],
  ] as const) {
    const admits = await throughput(rig, accounts, async (accountId) => {
      const input: AdmitInput = { accountId, limits: unlimited, countsTowardMonth: true, requestId: randomUUID() };
      return (await store.admit(input)).verdict === 'admitted';
    });
    console.log(`  admits, ${CONCURRENCY} concurrent, ${`${label}${name}`.padEnd(27)} ${admits}`);
  }
  // The floor of any exact metering write on this host: one conditional ADD that returns the new count.
  const raw = await throughput(rig, accounts, async (accountId) => {
    await rig.client.send(
      new UpdateCommand({
        TableName: rig.table,
        Key: { pk: `RAW#${accountId}` },
        UpdateExpression: 'ADD n :one',
        ConditionExpression: 'attribute_not_exists(n) OR n < :limit',
        ExpressionAttributeValues: { ':one': 1, ':limit': Number.MAX_SAFE_INTEGER },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return true;
  });
  console.log(`  baseline conditional ADD, same${' '.repeat(20)} ${raw}`);
}

async function runOn(backend: string, endpoint: string): Promise<void> {
  const client = createDocumentClient(endpoint);
  const metering = createMeteringClient(client, endpoint);
  const counter = attachDdbCounter(client, metering);
  const table = `accounts-bench-${randomUUID().slice(0, 8)}`;
  await createTable(client, ACCOUNTS_TABLE, table);
  const rig = { client, metering, counter, table };
  console.log(`${backend}:`);
  await measureCalls(rig, backend);
  await measureThroughput(rig, 1);
  await measureThroughput(rig, CONCURRENCY);
  metering.destroy();
  client.destroy();
}

/** Answers every request at once with the same admitted usage item, so only the SDK's own work is timed. */
class AnsweringTransport extends LocalRequestHandler {
  private readonly body = new TextEncoder().encode(JSON.stringify({ Attributes: { month_count: { N: '1' } } }));
  requests = 0;

  handle(): Promise<{ response: LocalResponse }> {
    this.requests++;
    const headers = { 'content-type': 'application/x-amz-json-1.0' };
    return Promise.resolve({ response: { statusCode: 200, headers, body: this.body.slice() } });
  }
}

/** Keeps the last admission write the SDK sent, and passes every request on. */
class RecordingTransport extends LocalRequestHandler {
  last: TransportRequest | undefined;

  constructor(private readonly next: LocalRequestHandler) {
    super();
  }

  handle(request: LocalRequest): Promise<{ response: LocalResponse }> {
    if (operationOf(request.headers) === 'UpdateItem' && !isStoreCall(request)) this.last = request;
    return this.next.handle(request);
  }
}

/** Microseconds per call of `call(i)`, sequential, after a warm-up: p50, p99 and the mean. */
async function timeCalls(call: (i: number) => Promise<void>): Promise<string> {
  for (let i = 0; i < SPLIT_WARM_UP; i++) await call(i);
  const micros: number[] = [];
  const started = performance.now();
  for (let i = SPLIT_WARM_UP; i < SPLIT_WARM_UP + SPLIT_CALLS; i++) {
    const t0 = performance.now();
    await call(i);
    micros.push((performance.now() - t0) * 1000);
  }
  const mean = ((performance.now() - started) * 1000) / SPLIT_CALLS;
  micros.sort((a, b) => a - b);
  return `p50 ${fmt(percentile(micros, 50), 1).padStart(6)} µs  p99 ${fmt(percentile(micros, 99), 1).padStart(7)} µs  mean ${fmt(mean, 1).padStart(6)} µs`;
}

/**
 * One admission write, sequential, split between its two halves on this machine: the SDK building, signing and
 * reading it (answered at once, no store), and the embedded store answering the same request as the SDK sent it
 * (in process, no SDK); each also as the local server's clients send it, a store call (local-server/store-calls.ts).
 * The local server spends both on every metered request, on two threads.
 */
async function measureSplit({ endpoint, listener, answer: answerStoreCall }: RunningDynalite): Promise<void> {
  const admitInput = (i: number): AdmitInput => ({
    accountId: 'bench-split',
    limits: unlimited,
    countsTowardMonth: true,
    requestId: `split-${i}`,
  });
  const clock = () => new Date();
  console.log(`one admission write, sequential, ${SPLIT_CALLS} calls after ${SPLIT_WARM_UP}:`);

  const answering = new AnsweringTransport();
  const ours = createMeteringClient(createDocumentClient(endpoint, answering), endpoint);
  const oursStore = new UsageStore(ours, 'accounts', { clock });
  console.log(
    `  SDK alone, our metering client     ${await timeCalls(async (i) => void (await oursStore.admit(admitInput(i))))}`,
  );
  const stock = new DynamoDBClient({
    endpoint,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    requestHandler: answering,
  });
  const stockStore = new UsageStore(stock, 'accounts', { clock });
  console.log(
    `  SDK alone, as the SDK builds it    ${await timeCalls(async (i) => void (await stockStore.admit(admitInput(i))))}`,
  );
  const storeCalls = sendStoreCalls(createMeteringClient(createDocumentClient(endpoint, answering), endpoint));
  const storeCallsStore = new UsageStore(storeCalls, 'accounts', { clock });
  console.log(
    `  SDK alone, store calls (npm start) ${await timeCalls(async (i) => void (await storeCallsStore.admit(admitInput(i))))}`,
  );
  if (answering.requests !== 3 * (SPLIT_WARM_UP + SPLIT_CALLS))
    throw new Error('an admission took more than one write');

  const inProcess = new InProcessTransport(listener);
  const recording = new RecordingTransport(inProcess);
  const client = createDocumentClient(endpoint, recording);
  const table = `accounts-split-${randomUUID().slice(0, 8)}`;
  await createTable(client, ACCOUNTS_TABLE, table);
  await new UsageStore(createMeteringClient(client, endpoint), table, { clock }).admit(admitInput(0));
  const sent = recording.last;
  if (!sent) throw new Error('no admission write was recorded');
  const request = JSON.parse(new TextDecoder().decode(sent.body as Uint8Array)) as {
    ExpressionAttributeValues: Record<string, { S?: string }>;
  };
  // Each replay carries a request digest of its own, as every request does, so its condition holds.
  const bodies = Array.from({ length: SPLIT_WARM_UP + SPLIT_CALLS }, (_, i) => {
    request.ExpressionAttributeValues[':r'] = { S: `split${i}` };
    return JSON.stringify(request);
  });
  console.log(
    `  store alone, dynalite in process   ${await timeCalls(async (i) => {
      const { response } = await inProcess.handle({ ...sent, body: bodies[i] });
      if (response.statusCode !== 200)
        throw new Error(`the store refused a replayed admission: ${response.statusCode}`);
    })}`,
  );
  console.log(
    `  store alone, as a store call       ${await timeCalls(async (i) => {
      const answer = await answerStoreCall({
        operation: 'UpdateItem',
        body: bodies[i] ?? '',
        headers: { 'x-amz-target': 'DynamoDB_20120810.UpdateItem' },
      });
      if (answer.statusCode !== 200) throw new Error(`the store refused a replayed admission: ${answer.statusCode}`);
    })}`,
  );
  ours.destroy();
  storeCalls.destroy();
  stock.destroy();
  client.destroy();
}

export default async function metering(): Promise<void> {
  const dynalite = await startDynalite();
  try {
    await runOn('dynalite (in memory)', dynalite.endpoint);
    await measureSplit(dynalite);
  } finally {
    await dynalite.close();
  }
  let local: Awaited<ReturnType<typeof startDynamoDbLocal>> | undefined;
  try {
    local = await startDynamoDbLocal();
  } catch (error) {
    console.log(`DynamoDB Local: not measured (${(error as Error).message})`);
    return;
  }
  try {
    await runOn('DynamoDB Local (in memory)', local.endpoint);
  } finally {
    await local.stop();
  }
}
