/**
 * Issue 27: the local server's clients send item operations to the embedded store as store calls
 * (local-server/store-calls.ts), not as signed HTTP requests. Every answer must be what the same operation gets
 * over HTTP from the same emulator, errors included, and on disk no answer may come before its writes are there.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConditionalCheckFailedException, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { createDocumentClient, createMeteringClient } from '../../lambdas/core/store/clients';
import { ACCOUNTS_TABLE, KEYS_BY_ACCOUNT_INDEX } from '../../lambdas/core/store/tables';
import { createTable } from '../../local-server/create-tables';
import { type EmbeddedStore, openEmbeddedStore } from '../../local-server/embedded-store';
import { allDurable } from '../../local-server/group-commit';
import { type LocalRequest, LocalRequestHandler } from '../../local-server/in-process-transport';
import { isStoreCall, sendStoreCalls } from '../../local-server/store-calls';

/** Passes every request on and notes whether it went as a store call. */
class Recording extends LocalRequestHandler {
  readonly seen: { target: string | undefined; storeCall: boolean }[] = [];
  constructor(private readonly inner: LocalRequestHandler) {
    super();
  }
  handle(request: LocalRequest) {
    this.seen.push({ target: request.headers['x-amz-target'], storeCall: isStoreCall(request) });
    return this.inner.handle(request);
  }
}

const withoutMetadata = (output: object) => {
  const { $metadata: _, ...rest } = output as { $metadata?: unknown };
  return rest;
};

/** The same operations on `table` through `client`; their outputs in order, errors as name and message. */
async function exercise(client: DynamoDBDocumentClient, table: string): Promise<unknown[]> {
  const outputs: unknown[] = [];
  const run = async (send: () => Promise<object>) => {
    try {
      outputs.push(withoutMetadata(await send()));
    } catch (error) {
      const { name, message } = error as Error;
      outputs.push({ error: name, message, typed: error instanceof ConditionalCheckFailedException });
    }
  };
  const item = {
    pk: 'a',
    n: 1.5,
    big: 12345678901234567890n.toString(),
    tags: new Set(['x', 'y']),
    counts: new Set([1, 2]),
    raw: new Uint8Array([0, 1, 254, 255]),
    buffered: Buffer.from([7, 8, 9]),
    blobs: new Set([new Uint8Array([1]), Buffer.from([2, 3])]),
    nested: { list: [1, 'two', null, true], map: { deep: 'é ü 日本' } },
    key_account_id: 'acct',
  };
  await run(() => client.send(new PutCommand({ TableName: table, Item: item, ReturnValues: 'ALL_OLD' })));
  await run(() => client.send(new PutCommand({ TableName: table, Item: { ...item, n: 2 }, ReturnValues: 'ALL_OLD' })));
  await run(() => client.send(new GetCommand({ TableName: table, Key: { pk: 'a' }, ConsistentRead: true })));
  await run(() => client.send(new GetCommand({ TableName: table, Key: { pk: 'missing' } })));
  await run(() =>
    client.send(
      new UpdateCommand({
        TableName: table,
        Key: { pk: 'a' },
        UpdateExpression: 'ADD n :one SET #s = :s',
        ExpressionAttributeNames: { '#s': 'state' },
        ExpressionAttributeValues: { ':one': 1, ':s': 'on' },
        ReturnValues: 'ALL_NEW',
      }),
    ),
  );
  await run(() =>
    client.send(
      new UpdateCommand({
        TableName: table,
        Key: { pk: 'a' },
        UpdateExpression: 'ADD n :one',
        ConditionExpression: 'n < :limit',
        ExpressionAttributeValues: { ':one': 1, ':limit': 0 },
      }),
    ),
  );
  await run(() =>
    client.send(new UpdateCommand({ TableName: table, Key: { pk: 'a' }, UpdateExpression: 'SET n = :undeclared' })),
  );
  // A null attribute value, which the SDK's serializer leaves out of the request.
  await run(() =>
    client.send(
      new UpdateItemCommand({
        TableName: table,
        Key: { pk: { S: 'a' } },
        UpdateExpression: 'SET #l = :l',
        ExpressionAttributeNames: { '#l': 'listed' },
        ExpressionAttributeValues: { ':l': { L: [{ S: 'x' }] }, ':unused': null as never },
        ReturnValues: 'UPDATED_NEW',
      }),
    ),
  );
  await run(() =>
    client.send(
      new BatchWriteCommand({
        RequestItems: {
          [table]: ['b', 'c', 'd'].map((pk) => ({ PutRequest: { Item: { pk, key_account_id: 'acct' } } })),
        },
      }),
    ),
  );
  await run(() =>
    client.send(new BatchGetCommand({ RequestItems: { [table]: { Keys: [{ pk: 'b' }, { pk: 'c' }, { pk: 'zz' }] } } })),
  );
  await run(() =>
    client.send(
      new QueryCommand({
        TableName: table,
        IndexName: KEYS_BY_ACCOUNT_INDEX,
        KeyConditionExpression: 'key_account_id = :a',
        ExpressionAttributeValues: { ':a': 'acct' },
        Limit: 2,
      }),
    ),
  );
  await run(() => client.send(new ScanCommand({ TableName: table, Select: 'COUNT' })));
  await run(() => client.send(new DeleteCommand({ TableName: table, Key: { pk: 'a' }, ReturnValues: 'ALL_OLD' })));
  return outputs;
}

/** BatchGetItem answers in no set order, under the table's name. */
function sortedResponses(outputs: unknown[]): unknown[] {
  return outputs.map((output) => {
    const responses = (output as { Responses?: Record<string, { pk: string }[]> }).Responses;
    if (!responses) return output;
    const sorted = Object.values(responses).map((items) => [...items].sort((a, b) => a.pk.localeCompare(b.pk)));
    return { ...(output as object), Responses: sorted };
  });
}

describe('store calls to the embedded store', () => {
  let store: EmbeddedStore;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fxrates-store-calls-'));
    store = await openEmbeddedStore({ path: join(dir, 'store') });
  });

  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers every item operation, refusals included, as the same emulator answers it over HTTP', async () => {
    const overHttp = createDocumentClient(store.endpoint);
    const recording = new Recording(store.transport);
    const direct = sendStoreCalls(createDocumentClient(store.endpoint, recording));
    await createTable(overHttp, ACCOUNTS_TABLE, 'over-http');
    await createTable(direct, ACCOUNTS_TABLE, 'direct');

    const expected = sortedResponses(await exercise(overHttp, 'over-http'));
    const actual = sortedResponses(await exercise(direct, 'direct'));
    expect(actual).toStrictEqual(expected);
    // What the comparison rests on: the refusals and the binary value are there, typed as the SDK types them.
    expect(actual[5]).toEqual({
      error: 'ConditionalCheckFailedException',
      message: 'The conditional request failed',
      typed: true,
    });
    expect((actual[6] as { error: string }).error).toBe('ValidationException');
    expect((actual[2] as { Item: { raw: Uint8Array } }).Item.raw).toEqual(new Uint8Array([0, 1, 254, 255]));
    expect((actual[2] as { Item: { buffered: Uint8Array } }).Item.buffered).toEqual(new Uint8Array([7, 8, 9]));
    expect(actual[7]).toEqual({ Attributes: { listed: { L: [{ S: 'x' }] } } });

    const itemCalls = recording.seen.filter((one) => !/Table|TimeToLive/.test(one.target ?? ''));
    expect(itemCalls.length).toBe(13);
    expect(itemCalls.every((one) => one.storeCall)).toBe(true);
    expect(recording.seen.filter((one) => one.storeCall === false).length).toBeGreaterThan(0);
    overHttp.destroy();
    direct.destroy();
  });

  it('gives the metering client store calls too, and its conditional refusal is the typed exception', async () => {
    const document = sendStoreCalls(createDocumentClient(store.endpoint, store.transport));
    await createTable(document, ACCOUNTS_TABLE, 'metering');
    const metering = sendStoreCalls(createMeteringClient(document, store.endpoint));
    const add = () =>
      metering.send(
        new UpdateItemCommand({
          TableName: 'metering',
          Key: { pk: { S: 'usage' } },
          UpdateExpression: 'ADD n :one',
          ConditionExpression: 'attribute_not_exists(n) OR n < :limit',
          ExpressionAttributeValues: { ':one': { N: '1' }, ':limit': { N: '2' } },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
    await expect(add()).resolves.toMatchObject({ Attributes: { n: { N: '1' } } });
    await expect(add()).resolves.toMatchObject({ Attributes: { n: { N: '2' } } });
    await expect(add()).rejects.toBeInstanceOf(ConditionalCheckFailedException);
    document.destroy();
    metering.destroy();
  });

  it('answers a write on disk only once it is there', async () => {
    const document = sendStoreCalls(createDocumentClient(store.endpoint, store.transport));
    await createTable(document, ACCOUNTS_TABLE, 'durable');
    const pendingAtAnswers: unknown[] = [];
    for (let i = 0; i < 20; i++) {
      await document.send(new PutCommand({ TableName: 'durable', Item: { pk: `k${i}` } }));
      // Nothing else writes meanwhile: whatever is still on its way to disk would be this write.
      pendingAtAnswers.push(allDurable());
    }
    expect(pendingAtAnswers).toEqual(Array(20).fill(undefined));
    document.destroy();
  });
});
