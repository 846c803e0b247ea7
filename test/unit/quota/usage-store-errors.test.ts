import {
  ConditionalCheckFailedException,
  DynamoDBClient,
  GetItemCommand,
  ProvisionedThroughputExceededException,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { PLANS } from '../../../lambdas/core/domain/plans';
import { minuteOfMonth } from '../../../lambdas/core/domain/quota';
import { UsageStore } from '../../../lambdas/core/store/usage-store';
import { SharedWriteUsageStore } from '../../../local-server/shared-write-usage-store';

const now = Date.parse('2026-09-15T10:20:19.000Z');
const minute = `m${minuteOfMonth(now)}`;
const client = new DynamoDBClient({ region: 'local', cacheMiddleware: true });
const ddb = mockClient(client);
const input = { accountId: 'acct-1', limits: PLANS.free, countsTowardMonth: true };

function conditionFailed(item?: ConstructorParameters<typeof ConditionalCheckFailedException>[0]['Item']) {
  return new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {}, Item: item });
}

describe('UsageStore error paths', () => {
  let cleanupErrors: unknown[];
  let store: UsageStore;

  beforeEach(() => {
    ddb.reset();
    cleanupErrors = [];
    store = new UsageStore(client, 'accounts', {
      clock: () => new Date(now),
      onCleanupError: (error) => cleanupErrors.push(error),
    });
  });

  it('passes on a DynamoDB error other than a failed condition', async () => {
    ddb
      .on(UpdateItemCommand)
      .rejects(new ProvisionedThroughputExceededException({ message: 'slow down', $metadata: {} }));
    await expect(store.admit(input)).rejects.toBeInstanceOf(ProvisionedThroughputExceededException);
  });

  it("fails every request that waited for npm start's shared write when it fails, and admits the next ones", async () => {
    const counts = (n: number) => ({ Attributes: { [minute]: { N: String(n) }, month_count: { N: String(n) } } });
    ddb
      .on(UpdateItemCommand)
      .resolvesOnce(counts(1))
      .rejectsOnce(new ProvisionedThroughputExceededException({ message: 'slow down', $metadata: {} }))
      .resolves(counts(2));
    const shared = new SharedWriteUsageStore(client, 'accounts', { clock: () => new Date(now) });
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => shared.admit(input)));
    expect(results[0]).toMatchObject({ status: 'fulfilled', value: { verdict: 'admitted', monthUsed: 1 } });
    for (const result of results.slice(1)) {
      expect(result).toMatchObject({ status: 'rejected', reason: expect.any(ProvisionedThroughputExceededException) });
    }
    // The four that waited went as one write: it adds 4 if the minute (10) has room for all four.
    const values = ddb.commandCalls(UpdateItemCommand)[1]?.args[0].input.ExpressionAttributeValues;
    expect(values).toMatchObject({ ':one': { N: '4' }, ':ml': { N: '7' }, ':cl': { N: '1497' } });
    expect(await shared.admit(input)).toMatchObject({ verdict: 'admitted', monthUsed: 2 });
    expect(ddb.commandCalls(UpdateItemCommand)).toHaveLength(3);
  });

  it('decides a refusal from the marshalled old item of the failed condition, without a read', async () => {
    ddb.on(UpdateItemCommand).rejects(conditionFailed({ [minute]: { N: '10' }, month_count: { N: '700' } }));
    const state = await store.admit(input);
    expect(state).toMatchObject({ verdict: 'rate-limit-exceeded', minuteUsed: 10, monthUsed: 700 });
    expect(ddb.commandCalls(GetItemCommand)).toHaveLength(0);
    // The refused admission, then the day's refusal counter (which this mock also rejects; it is reported only).
    const writes = ddb.commandCalls(UpdateItemCommand).map((call) => call.args[0].input.UpdateExpression);
    expect(writes).toEqual([expect.stringContaining('ADD #m :one'), expect.stringMatching(/^ADD #day :one/)]);
    expect(cleanupErrors).toHaveLength(1);
  });

  it('reads the counts when the failed condition comes without the old item', async () => {
    ddb.on(UpdateItemCommand).rejects(conditionFailed());
    ddb.on(GetItemCommand).resolves({ Item: { [minute]: { N: '3' }, month_count: { N: '1500' } } });
    expect(await store.admit(input)).toMatchObject({ verdict: 'quota-exceeded', monthUsed: 1500 });
    expect(ddb.commandCalls(GetItemCommand)[0]?.args[0].input.ConsistentRead).toBe(true);
  });

  it('gives up after a bounded number of refusals the stored counts do not explain', async () => {
    ddb.on(UpdateItemCommand).rejects(conditionFailed({ [minute]: { N: '1' }, month_count: { N: '1' } }));
    await expect(store.admit(input)).rejects.toThrow(/refused although/);
    expect(ddb.commandCalls(UpdateItemCommand)).toHaveLength(3);
  });

  it('admits the request when removing stale minute counters fails, and reports the failure', async () => {
    const stale = `m${minuteOfMonth(now) - 30}`;
    ddb
      .on(UpdateItemCommand)
      .resolvesOnce({
        Attributes: { pk: { S: 'x' }, [minute]: { N: '1' }, [stale]: { N: '4' }, month_count: { N: '5' } },
      })
      .rejectsOnce(new Error('network down'));
    expect(await store.admit(input)).toMatchObject({ verdict: 'admitted', minuteUsed: 1, monthUsed: 5 });
    expect(cleanupErrors).toHaveLength(1);
    const cleanup = ddb.commandCalls(UpdateItemCommand)[1]?.args[0].input;
    expect(cleanup?.UpdateExpression).toMatch(/^REMOVE /);
    expect(Object.values(cleanup?.ExpressionAttributeNames ?? {})).toEqual([stale]);
  });
});
