import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, BatchWriteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import type { RateSnapshot } from '../../../lambdas/core/domain/rates';
import { RatesStore } from '../../../lambdas/core/store/rates-store';

/** Error paths DynamoDB produces under throttling, which no emulator reproduces on demand. */
describe('RatesStore under persistent throttling', () => {
  const documentClient = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
  const mock = mockClient(documentClient);
  const store = new RatesStore(documentClient, 'rates');
  const fast = { baseDelayMs: 0, maxAttempts: 3 };
  const day: RateSnapshot = {
    date: '2026-01-02',
    rates: { EUR: 1, USD: 1.1 },
    sources: { USD: 'ecb' },
    publishedAt: 'x',
  };

  beforeEach(() => mock.reset());

  it('gives up on keys BatchGetItem keeps returning unprocessed, after the allowed attempts', async () => {
    mock
      .on(BatchGetCommand)
      .resolves({ Responses: { rates: [] }, UnprocessedKeys: { rates: { Keys: [{ pk: 'DAY#2026-01-02' }] } } });
    await expect(store.getDays(['2026-01-02'], fast)).rejects.toThrow(
      'BatchGetItem left 1 keys unprocessed after 3 attempts',
    );
    expect(mock.commandCalls(BatchGetCommand)).toHaveLength(3);
  });

  it('retries unprocessed keys and returns what the retry delivered', async () => {
    const item = {
      pk: 'DAY#2026-01-02',
      date: '2026-01-02',
      rates: day.rates,
      sources: { ecb: 'USD' },
      published_at: 'x',
    };
    mock
      .on(BatchGetCommand)
      .resolvesOnce({ Responses: { rates: [] }, UnprocessedKeys: { rates: { Keys: [{ pk: 'DAY#2026-01-02' }] } } })
      .resolves({ Responses: { rates: [item] } });
    expect((await store.getDays(['2026-01-02'], fast)).get('2026-01-02')).toEqual(day);
  });

  it('gives up on items BatchWriteItem keeps returning unprocessed, after the allowed attempts', async () => {
    mock
      .on(BatchWriteCommand)
      .resolves({ UnprocessedItems: { rates: [{ PutRequest: { Item: { pk: 'DAY#2026-01-02' } } }] } });
    await expect(store.putDays([day], fast)).rejects.toThrow(
      'BatchWriteItem left 1 items unprocessed after 3 attempts',
    );
    expect(mock.commandCalls(BatchWriteCommand)).toHaveLength(3);
  });
});
