import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createDocumentClient, createMeteringClient, SDK_LOGGER_MIDDLEWARE } from '../../../lambdas/core/store/clients';

describe('DynamoDB clients', () => {
  it('builds the metering client on the document client transport, with its middleware stack cached', () => {
    const document = createDocumentClient('http://127.0.0.1:1');
    const metering = createMeteringClient(document, 'http://127.0.0.1:1');
    expect(metering).toBeInstanceOf(DynamoDBClient);
    expect(metering.config.requestHandler).toBe(document.config.requestHandler);
    expect(metering.config.cacheMiddleware).toBe(true);
    expect(document.config.cacheMiddleware).not.toBe(true);
  });

  it('points both clients at the emulator endpoint with throwaway credentials', async () => {
    const document = createDocumentClient('http://127.0.0.1:1');
    const metering = createMeteringClient(document, 'http://127.0.0.1:1');
    for (const client of [document, metering]) {
      const endpoint = await client.config.endpoint?.();
      expect(`${endpoint?.protocol}//${endpoint?.hostname}:${endpoint?.port}`).toBe('http://127.0.0.1:1');
      expect(await client.config.credentials()).toMatchObject({ accessKeyId: 'local' });
    }
  });

  it("leaves out the SDK's logger middleware, which filters every input and output for a logger nobody set", () => {
    const named = (client: { middlewareStack: { identify(): string[] } }) =>
      client.middlewareStack.identify().map((entry) => entry.split(' ')[0]);
    expect(named(new DynamoDBClient({}))).toContain(SDK_LOGGER_MIDDLEWARE);
    const document = createDocumentClient('http://127.0.0.1:1');
    expect(named(document)).not.toContain(SDK_LOGGER_MIDDLEWARE);
    expect(named(createMeteringClient(document, 'http://127.0.0.1:1'))).not.toContain(SDK_LOGGER_MIDDLEWARE);
    expect(named(createDocumentClient(undefined))).not.toContain(SDK_LOGGER_MIDDLEWARE);
  });
});
