/**
 * Metering: DynamoDB calls per admitted and per refused request in steady state, counted by the SDK middleware
 * the tests use, and admissions per second at 16 concurrent, on the embedded emulator and on DynamoDB Local.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { PLANS, type PlanLimits } from '../../lambdas/core/domain/plans';
import { startDynalite } from '../../lambdas/core/local/dynalite-server';
import { createDocumentClient, createMeteringClient } from '../../lambdas/core/store/clients';
import { createTable } from '../../lambdas/core/store/create-tables';
import { ACCOUNTS_TABLE } from '../../lambdas/core/store/tables';
import { type AdmitInput, UsageStore } from '../../lambdas/core/store/usage-store';
import { attachDdbCounter, type DdbCounter, perUnit } from '../../test/support/ddb-counter';
import { startDynamoDbLocal } from '../../test/support/dynamodb-local';

const STEADY_REQUESTS = 600;
const REFUSED_REQUESTS = 300;
const CONCURRENCY = 16;
const THROUGHPUT_MS = 3000;

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
  console.log(verdictLine(`refused (${REFUSED_REQUESTS})`, refused, 'at most 1 write', refused.writes <= 1) + readNote);

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
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0;
  const calls = perUnit(rig.counter.snapshot(), admitted);
  return `${fmt(admitted / seconds, 0).padStart(6)}/s  p50 ${fmt(pct(0.5))} ms  p99 ${fmt(pct(0.99))} ms  (${fmt(calls.writes, 3)} writes each)`;
}

async function measureThroughput(rig: Rig, accounts: number): Promise<void> {
  const store = new UsageStore(rig.metering, rig.table, { clock: () => new Date() });
  const label = accounts === 1 ? 'one hot account' : `${accounts} accounts`;
  const admits = await throughput(rig, accounts, async (accountId) => {
    const input: AdmitInput = { accountId, limits: unlimited, countsTowardMonth: true, requestId: randomUUID() };
    return (await store.admit(input)).verdict === 'admitted';
  });
  console.log(`  admits, ${CONCURRENCY} concurrent, ${label.padEnd(15)} ${admits}`);
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
  console.log(`  baseline conditional ADD, same     ${raw}`);
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

export default async function metering(): Promise<void> {
  const dynalite = await startDynalite();
  try {
    await runOn('dynalite (in memory)', dynalite.endpoint);
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
