import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createDocumentClient, createMeteringClient } from '../../../lambdas/core/store/clients';

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
});
