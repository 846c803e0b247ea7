import {
  ConditionalCheckFailedException,
  ResourceNotFoundException,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import { type DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient, createMeteringClient } from '../../lambdas/core/store/clients';
import { ACCOUNTS_TABLE } from '../../lambdas/core/store/tables';
import { createTable } from '../../local-server/create-tables';
import { type RunningDynalite, startDynalite } from '../../local-server/dynalite-server';
import { InProcessTransport } from '../../local-server/in-process-transport';

describe('InProcessTransport to the embedded emulator', () => {
  let dynalite: RunningDynalite;
  const table = 'accounts-transport';

  beforeAll(async () => {
    dynalite = await startDynalite();
    await createTable(createDocumentClient(dynalite.endpoint), ACCOUNTS_TABLE, table);
  });

  afterAll(async () => {
    await dynalite.close();
  });

  const inProcess = () => createDocumentClient(dynalite.endpoint, new InProcessTransport(dynalite.listener));

  /** Adds 1 to `n` of item `pk` while `n` is below `limit`, returning the new item. */
  const addOneBelow = (client: DynamoDBDocumentClient, pk: string, limit: number) =>
    client.send(
      new UpdateCommand({
        TableName: table,
        Key: { pk },
        UpdateExpression: 'ADD n :one',
        ConditionExpression: 'NOT n >= :limit',
        ExpressionAttributeValues: { ':one': 1, ':limit': limit },
        ReturnValues: 'ALL_NEW',
      }),
    );

  it('writes through the listener what a client on the TCP port then reads, and the other way round', async () => {
    const local = inProcess();
    const remote = createDocumentClient(dynalite.endpoint);
    await local.send(new PutCommand({ TableName: table, Item: { pk: 'A', n: 1, s: 'größe €' } }));
    expect((await remote.send(new GetCommand({ TableName: table, Key: { pk: 'A' } }))).Item).toEqual({
      pk: 'A',
      n: 1,
      s: 'größe €',
    });
    await remote.send(new PutCommand({ TableName: table, Item: { pk: 'B', n: 2 } }));
    const read = await local.send(new GetCommand({ TableName: table, Key: { pk: 'B' }, ConsistentRead: true }));
    expect(read.Item).toEqual({ pk: 'B', n: 2 });
  });

  it('creates a table that takes a write at once, though the emulator reports it CREATING at first', async () => {
    const client = inProcess();
    await createTable(client, ACCOUNTS_TABLE, 'accounts-fresh');
    await client.send(new PutCommand({ TableName: 'accounts-fresh', Item: { pk: 'A' } }));
    expect((await client.send(new GetCommand({ TableName: 'accounts-fresh', Key: { pk: 'A' } }))).Item).toEqual({
      pk: 'A',
    });
  });

  it('returns the new item of a conditional update', async () => {
    const out = await addOneBelow(inProcess(), 'C', 2);
    expect(out.Attributes).toEqual({ pk: 'C', n: 1 });
  });

  it("surfaces the emulator's errors as the SDK's typed exceptions", async () => {
    const client = inProcess();
    await addOneBelow(client, 'D', 1);
    await expect(addOneBelow(client, 'D', 1)).rejects.toBeInstanceOf(ConditionalCheckFailedException);
    await expect(client.send(new GetCommand({ TableName: 'no-such-table', Key: { pk: 'A' } }))).rejects.toBeInstanceOf(
      ResourceNotFoundException,
    );
  });

  it("gives the metering client the document client's transport, so both reach the same store", async () => {
    const document = inProcess();
    const metering = createMeteringClient(document, dynalite.endpoint);
    expect(metering.config.requestHandler).toBe(document.config.requestHandler);
    for (let i = 1; i <= 3; i++) {
      const out = await metering.send(
        new UpdateItemCommand({
          TableName: table,
          Key: { pk: { S: 'E' } },
          UpdateExpression: 'ADD n :one',
          ExpressionAttributeValues: { ':one': { N: '1' } },
          ReturnValues: 'ALL_NEW',
        }),
      );
      expect(out.Attributes?.n).toEqual({ N: String(i) });
    }
    expect((await document.send(new GetCommand({ TableName: table, Key: { pk: 'E' } }))).Item).toEqual({
      pk: 'E',
      n: 3,
    });
  });

  it('hands the query string and an empty body to the emulator as they are', async () => {
    const transport = new InProcessTransport(dynalite.listener);
    const health = await transport.handle({ method: 'GET', path: '/', headers: {} });
    expect(health.response.statusCode).toBe(200);
    expect(Buffer.from(health.response.body).toString()).toMatch(/^healthy: /);

    // The emulator refuses a request signed both in the header and in the query: proof that the query arrived.
    const both = await transport.handle({
      method: 'POST',
      path: '/',
      query: { 'X-Amz-Algorithm': 'AWS4-HMAC-SHA256' },
      headers: {
        'Content-Type': 'application/x-amz-json-1.0',
        'X-Amz-Target': 'DynamoDB_20120810.ListTables',
        Authorization: 'AWS4-HMAC-SHA256 Credential=a/b/c/d/e, SignedHeaders=host, Signature=f',
      },
      body: new TextEncoder().encode('{}'),
    });
    expect(both.response.statusCode).toBe(400);
    expect(JSON.parse(Buffer.from(both.response.body).toString()).__type).toMatch(/InvalidSignatureException$/);
    expect(both.response.headers['x-amz-crc32']).toMatch(/^\d+$/);
  });

  it('answers with a body in a buffer of its own, so passing it to another thread copies only its bytes', async () => {
    const transport = new InProcessTransport(dynalite.listener);
    const listed = await transport.handle({
      method: 'POST',
      path: '/',
      headers: {
        'Content-Type': 'application/x-amz-json-1.0',
        'X-Amz-Target': 'DynamoDB_20120810.ListTables',
        Authorization: 'AWS4-HMAC-SHA256 Credential=a/b/c/d/e, SignedHeaders=host, Signature=f',
        'X-Amz-Date': '20261123T120000Z',
      },
      body: '{}',
    });
    expect(listed.response.statusCode).toBe(200);
    expect(JSON.parse(new TextDecoder().decode(listed.response.body)).TableNames).toContain(table);
    expect(listed.response.body.buffer.byteLength).toBe(listed.response.body.byteLength);
  });

  it('refuses a streamed body instead of sending it half', async () => {
    const transport = new InProcessTransport(dynalite.listener);
    await expect(
      transport.handle({ method: 'POST', path: '/', headers: {}, body: { pipe: () => undefined } }),
    ).rejects.toThrow(/string or byte bodies only/);
  });
});
