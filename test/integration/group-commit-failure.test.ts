/**
 * Issue 27: when LevelDB fails to write a group-commit batch (local-server/group-commit.ts), every request under way
 * fails, over HTTP and as a store call, with DynamoDB's 500, even one whose answer was not ready yet, and the store
 * goes back to what is on disk: no write of the failed batch, of one gathered behind it, or of a request that read
 * one of them, stands, in this process or after a restart. Writes are refused until the requests begun before the
 * failure have ended. An SDK retry of an admission whose batch failed is then counted once. The failure is LevelDB's own batch write rejecting, injected beneath group commit.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { PLANS } from '../../lambdas/core/domain/plans';
import {
  createDocumentClient,
  createMeteringClient,
  LOCAL_ENDPOINT_CREDENTIALS,
} from '../../lambdas/core/store/clients';
import { ACCOUNTS_TABLE } from '../../lambdas/core/store/tables';
import { UsageStore } from '../../lambdas/core/store/usage-store';
import { createTable } from '../../local-server/create-tables';
import { type EmbeddedStore, openEmbeddedStore } from '../../local-server/embedded-store';
import { allDurable, requestsUnderWay } from '../../local-server/group-commit';
import { sendStoreCalls } from '../../local-server/store-calls';
import { levelOfDynalite } from '../support/dynalite-level';
import { until } from '../support/until';

interface BatchingLevel {
  prototype: {
    _batch(this: unknown, operations: unknown[], options: object): Promise<void>;
    _get(this: unknown, key: string | Uint8Array, options: object): Promise<unknown>;
  };
}

/**
 * Fails LevelDB's batch writes on demand: the next `count` batches reject after `afterMs`, long enough for the
 * requests a test sends together to join the batch that fails or the one gathering behind it; without it, at once,
 * before the store has its answer to the request that wrote. Installed before the store opens, so group commit
 * writes its batches through it.
 */
function injectBatchFailures() {
  const proto = levelOfDynalite<BatchingLevel>().prototype;
  const write = proto._batch;
  let failing = 0;
  let afterMs: number | undefined;
  let failed = 0;
  let held: { started(): void; fail?: () => void } | undefined;
  proto._batch = function (operations, options) {
    const error = new Error('no space left on device');
    if (held) {
      const hold = held;
      held = undefined;
      failed++;
      return new Promise((_, reject) => {
        hold.fail = () => reject(error);
        hold.started();
      });
    }
    if (failing === 0) return write.call(this, operations, options);
    failing--;
    failed++;
    if (afterMs === undefined) return Promise.reject(error);
    return new Promise((_, reject) => setTimeout(() => reject(error), afterMs));
  };
  return {
    failNext(count: number, delayMs?: number) {
      failing = count;
      afterMs = delayMs;
    },
    /** The next batch is held on its way to disk until `fail()`; `started` resolves once it is. */
    holdNext() {
      let started!: () => void;
      const hold: { started(): void; fail?: () => void } = { started: () => started() };
      held = hold;
      return {
        started: new Promise<void>((resolve) => {
          started = resolve;
        }),
        fail: () => hold.fail?.(),
      };
    },
    get failed() {
      return failed;
    },
    restore() {
      proto._batch = write;
    },
  };
}

const faults = injectBatchFailures();
const TABLE = 'group-commit-failure';
let dir: string;
let store: EmbeddedStore;

async function open(): Promise<EmbeddedStore> {
  return openEmbeddedStore({ path: join(dir, 'level') });
}

/** One attempt per call, so a 500 reaches the test instead of the SDK's retry; `transport` replaces HTTP. */
function oneAttempt(transport?: EmbeddedStore['transport']): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: store.endpoint,
      region: 'local',
      credentials: { ...LOCAL_ENDPOINT_CREDENTIALS },
      maxAttempts: 1,
      ...(transport ? { requestHandler: transport } : {}),
    }),
  );
}

const overHttp = () => oneAttempt();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fxrates-group-commit-failure-'));
  store = await open();
  const client = createDocumentClient(store.endpoint);
  await createTable(client, ACCOUNTS_TABLE, TABLE);
  await client.send(new PutCommand({ TableName: TABLE, Item: { pk: 'counter', n: 1 } }));
  await allDurable();
});

afterAll(async () => {
  await store?.close();
  faults.restore();
  rmSync(dir, { recursive: true, force: true });
});

const add = (client: ReturnType<typeof overHttp>, pk: string) =>
  client.send(
    new UpdateCommand({
      TableName: TABLE,
      Key: { pk },
      UpdateExpression: 'ADD n :one',
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );

const counterOf = async (client: ReturnType<typeof overHttp>, pk = 'counter') =>
  (await client.send(new GetCommand({ TableName: TABLE, Key: { pk }, ConsistentRead: true }))).Item?.n;

/** What each call came to: the error's name, status and message, or `ok`. */
const outcomes = (results: PromiseSettledResult<unknown>[]) =>
  results.map((result) => {
    if (result.status === 'fulfilled') return 'ok';
    const error = result.reason as Error & { $metadata?: { httpStatusCode?: number } };
    return `${error.name} ${error.$metadata?.httpStatusCode} ${error.message}`;
  });

const FAILED = 'InternalServerError 500 The store could not write to disk: no space left on device';

it('answers 500 over HTTP to every request whose writes were not on disk when a batch failed, and keeps none', async () => {
  const client = overHttp();
  expect(await counterOf(client)).toBe(1);
  faults.failNext(1, 500);
  // Six writes sent together: the first batch fails, and the ones behind it were computed from its writes.
  const results = await Promise.allSettled([
    add(client, 'counter'),
    add(client, 'counter'),
    add(client, 'counter'),
    add(client, 'fresh'),
    client.send(new PutCommand({ TableName: TABLE, Item: { pk: 'other', n: 7 } })),
    add(client, 'counter'),
  ]);
  expect(outcomes(results)).toEqual(Array(6).fill(FAILED));
  expect(faults.failed).toBe(1);
  // The store went back to what is on disk: none of the six writes is read back.
  expect(await counterOf(client)).toBe(1);
  expect(await counterOf(client, 'fresh')).toBeUndefined();
  expect(await counterOf(client, 'other')).toBeUndefined();
  // And it writes again.
  expect((await add(client, 'counter')).Attributes?.n).toBe(2);
});

it('answers a store call of a failed batch with the same 500, and a later one as usual', async () => {
  const client = sendStoreCalls(oneAttempt(store.transport));
  const before = (await counterOf(client)) as number;
  store.requests(true);
  faults.failNext(1, 300);
  const results = await Promise.allSettled([add(client, 'counter'), add(client, 'counter')]);
  expect(outcomes(results)).toEqual([FAILED, FAILED]);
  expect(store.requests().UpdateItem).toBe(2);
  expect(await counterOf(client)).toBe(before);
  expect((await add(client, 'counter')).Attributes?.n).toBe(before + 1);
});

it('answers 500 to a write whose batch failed before the store had its answer, and keeps it not', async () => {
  const client = overHttp();
  const before = (await counterOf(client)) as number;
  faults.failNext(1);
  expect(outcomes(await Promise.allSettled([add(client, 'counter')]))).toEqual([FAILED]);
  expect(await counterOf(client)).toBe(before);

  const calls = sendStoreCalls(oneAttempt(store.transport));
  faults.failNext(1);
  expect(outcomes(await Promise.allSettled([add(calls, 'counter')]))).toEqual([FAILED]);
  expect(await counterOf(calls)).toBe(before);
  expect((await add(calls, 'counter')).Attributes?.n).toBe(before + 1);
});

/** Calls `then` right after the next read of the item whose key is `pk`, before the reader goes on. */
function afterNextReadOf(pk: string, then: () => void): () => void {
  const proto = levelOfDynalite<BatchingLevel>().prototype;
  const get = proto._get;
  // dynalite's LevelDB key of an item ends in its key's value in hex.
  const suffix = `/${Buffer.from(pk).toString('hex')}/`;
  let armed = true;
  proto._get = async function (key, options) {
    const value = await get.call(this, key, options);
    if (armed && Buffer.from(key).toString('latin1').endsWith(suffix)) {
      armed = false;
      queueMicrotask(then);
    }
    return value;
  };
  return () => {
    proto._get = get;
  };
}

it('refuses the write of a request that read a write of the failed batch, and takes writes once it ended', async () => {
  const client = overHttp();
  const before = (await counterOf(client)) as number;
  const held = faults.holdNext();
  const first = add(overHttp(), 'counter');
  await held.started;
  // The second reads the first's unwritten count; the batch fails before it writes the count it made from it.
  const restore = afterNextReadOf('counter', held.fail);
  try {
    const results = await Promise.allSettled([first, add(overHttp(), 'counter')]);
    expect(outcomes(results)).toEqual([FAILED, FAILED]);
  } finally {
    restore();
  }
  expect(await counterOf(client)).toBe(before);
  expect((await add(client, 'counter')).Attributes?.n).toBe(before + 1);
});

it('refuses writes after a failure while a request begun before it is under way, until its connection ends', async () => {
  const client = overHttp();
  const before = (await counterOf(client)) as number;
  const idle = requestsUnderWay();
  // A request whose body never comes: begun, never answered.
  const socket = connect(store.port, '127.0.0.1');
  socket.write(
    'POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-amz-json-1.0\r\nContent-Length: 100\r\n\r\n{',
  );
  await until('the held request', () => requestsUnderWay() === idle + 1, 5_000);
  faults.failNext(1);
  expect(outcomes(await Promise.allSettled([add(client, 'counter')]))).toEqual([FAILED]);
  expect(outcomes(await Promise.allSettled([add(client, 'counter')]))).toEqual([FAILED]);
  expect(await counterOf(client)).toBe(before);
  socket.destroy();
  await until('no request under way', () => requestsUnderWay() === idle, 5_000);
  expect((await add(client, 'counter')).Attributes?.n).toBe(before + 1);
});

it('counts an admission once when the SDK retries the write whose batch failed', async () => {
  const document = createDocumentClient(store.endpoint);
  // The SDK's default retries (no failFast): the 500 is retried on the same client.
  const usage = new UsageStore(createMeteringClient(document, store.endpoint), TABLE, {
    clock: () => new Date('2026-11-28T12:00:00.000Z'),
  });
  faults.failNext(1);
  const failedBefore = faults.failed;
  const state = await usage.admit({
    accountId: 'acct-failed-batch',
    limits: { ...PLANS.pro, monthlyLimit: 1_000, perMinute: 100 },
    countsTowardMonth: true,
    requestId: 'req-failed-batch',
  });
  expect(state).toMatchObject({ verdict: 'admitted', minuteUsed: 1, monthUsed: 1 });
  // Its first write's batch failed, so the admission is the SDK's second attempt.
  expect(faults.failed).toBe(failedBefore + 1);
  expect(await usage.getMonthUsed('acct-failed-batch')).toBe(1);
});

it('holds after a restart exactly the writes that were answered', async () => {
  const answered = (await counterOf(overHttp())) as number;
  faults.failNext(1, 300);
  const lost = await Promise.allSettled([add(overHttp(), 'counter'), add(overHttp(), 'counter')]);
  expect(outcomes(lost)).toEqual([FAILED, FAILED]);
  await store.close();
  store = await open();
  const client = overHttp();
  expect(await counterOf(client)).toBe(answered);
  expect(await counterOf(client, 'fresh')).toBeUndefined();
  expect(
    await new UsageStore(createMeteringClient(client, store.endpoint), TABLE, {
      clock: () => new Date('2026-11-28T12:00:00.000Z'),
    }).getMonthUsed('acct-failed-batch'),
  ).toBe(1);
});
