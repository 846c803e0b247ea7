import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../../lambdas/core/store/clients';
import { ACCOUNTS_TABLE } from '../../lambdas/core/store/tables';
import { createTable } from '../../local-server/create-tables';
import { readEndpointFile } from '../../local-server/local-store';
import { type LocalLayout, startLocalService } from '../../local-server/service';
import type { StoreThreadAddress } from '../../local-server/store-thread';
import { ThreadTransport } from '../../local-server/thread-transport';
import { type ServiceThread, startStoreThread } from '../../local-server/threads';
import { startTestApi } from '../support/api-service';

const table = 'accounts-threads';

describe('the store thread', () => {
  let store: ServiceThread;
  let address: StoreThreadAddress;
  let client: DynamoDBDocumentClient;

  beforeAll(async () => {
    store = startStoreThread();
    address = await store.rpc.call<StoreThreadAddress>('start', {});
    client = createDocumentClient(address.endpoint, new ThreadTransport(store.rpc));
    await createTable(client, ACCOUNTS_TABLE, table);
  });

  afterAll(async () => {
    await store.rpc.call('close');
    await store.stop();
  });

  it('stores what a client on this thread sends, and other processes read it on its loopback port', async () => {
    const overTcp = createDocumentClient(address.endpoint);
    await client.send(new PutCommand({ TableName: table, Item: { pk: 'A', n: 1, s: 'größe €' } }));
    const read = await overTcp.send(new GetCommand({ TableName: table, Key: { pk: 'A' }, ConsistentRead: true }));
    expect(read.Item).toEqual({ pk: 'A', n: 1, s: 'größe €' });
    await overTcp.send(new PutCommand({ TableName: table, Item: { pk: 'B', n: 2 } }));
    const back = await client.send(new GetCommand({ TableName: table, Key: { pk: 'B' }, ConsistentRead: true }));
    expect(back.Item).toEqual({ pk: 'B', n: 2 });
    overTcp.destroy();
  });

  it("answers a refused condition as the SDK's typed exception", async () => {
    const addBelowOne = () =>
      client.send(
        new UpdateCommand({
          TableName: table,
          Key: { pk: 'C' },
          UpdateExpression: 'ADD n :one',
          ConditionExpression: 'NOT n >= :one',
          ExpressionAttributeValues: { ':one': 1 },
        }),
      );
    await addBelowOne();
    await expect(addBelowOne()).rejects.toBeInstanceOf(ConditionalCheckFailedException);
  });

  it('counts the requests it answered by operation, and starts over when reset', async () => {
    await store.rpc.call('requests', true);
    await client.send(new PutCommand({ TableName: table, Item: { pk: 'D' } }));
    await client.send(new GetCommand({ TableName: table, Key: { pk: 'D' } }));
    await client.send(new GetCommand({ TableName: table, Key: { pk: 'D' } }));
    expect(await store.rpc.call('requests', true)).toEqual({ PutItem: 1, GetItem: 2 });
    expect(await store.rpc.call('requests')).toEqual({});
  });
});

describe('the local service on its threads', () => {
  it('rejects requests to a thread that has ended, instead of leaving them waiting', async () => {
    const store = startStoreThread();
    const address = await store.rpc.call<StoreThreadAddress>('start', {});
    const client = createDocumentClient(address.endpoint, new ThreadTransport(store.rpc));
    await store.stop();
    await expect(client.send(new GetCommand({ TableName: table, Key: { pk: 'A' } }))).rejects.toThrow(
      'the store-thread thread exited with code 1',
    );
  });

  it.each<LocalLayout>(['store-thread', 'single'])(
    'meters each admitted request with one write and no read on the store, once the key is cached (%s)',
    async (layout) => {
      const api = await startTestApi({ loadRates: false, layout });
      try {
        const { key } = await api.newKey('business');
        expect((await api.get('quota', key)).status).toBe(200);
        await api.service.storeRequests(true);
        for (let i = 0; i < 5; i++) expect((await api.get('quota', key)).status).toBe(200);
        expect(await api.service.storeRequests()).toEqual({ UpdateItem: 5 });
      } finally {
        await api.close();
      }
    },
  );

  it('keeps accounts, keys and usage across a restart over the same data directory, and removes its endpoint file', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'fxrates-threads-'));
    try {
      // One fixed instant for both runs, so the two requests share a minute whenever the test runs.
      const clock = () => new Date('2026-09-30T12:00:30.000Z');
      const first = await startLocalService({ dataDir, port: 0, demoAccounts: false, clock });
      expect(readEndpointFile(dataDir)).toBe(first.dynamoEndpoint);
      const account = await first.accounts.createAccount({ accountId: 'restart', plan: 'pro', verified: true });
      const { key } = await first.accounts.createKey(account.accountId, 'restart');
      const before = await fetch(`${first.url}quota`, { headers: { 'X-API-Key': key } });
      expect(before.status).toBe(200);
      await first.close();
      expect(readEndpointFile(dataDir)).toBeUndefined();

      const second = await startLocalService({ dataDir, port: 0, demoAccounts: false, clock });
      try {
        const after = await fetch(`${second.url}quota`, { headers: { 'X-API-Key': key } });
        expect(after.status).toBe(200);
        const minuteLeft = (response: Response) => Number(response.headers.get('X-RateLimit-Remaining-Minute'));
        expect(minuteLeft(after)).toBe(minuteLeft(before) - 1);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
