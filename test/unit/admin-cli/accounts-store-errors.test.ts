import { randomBytes } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { AccountsStore } from '../../../lambdas/core/store/accounts-store';
import { createDocumentClient } from '../../../lambdas/core/store/clients';

const ddb = mockClient(DynamoDBDocumentClient);
const conditionFailed = () =>
  new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} });

function newStore(): AccountsStore {
  return new AccountsStore(createDocumentClient('http://127.0.0.1:9'), 'accounts', {
    clock: () => new Date('2026-09-30T12:00:00Z'),
    randomBytes: (n) => randomBytes(n),
  });
}

const isRelease = (input: { UpdateExpression?: string }) => input.UpdateExpression?.includes('- :one') ?? false;

describe('AccountsStore error paths', () => {
  beforeEach(() => ddb.reset());

  it('gives the reserved key slot back and rethrows when writing the key item fails', async () => {
    ddb.on(UpdateCommand).resolves({});
    const throttled = Object.assign(new Error('Rate of requests exceeds the allowed throughput.'), {
      name: 'ProvisionedThroughputExceededException',
    });
    ddb.on(PutCommand).rejects(throttled);
    await expect(newStore().createKey('acc_1', 'ci')).rejects.toThrow('Rate of requests exceeds');
    const updates = ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input);
    expect(updates).toHaveLength(2);
    expect(isRelease(updates[0] ?? {})).toBe(false);
    expect(updates[1]).toMatchObject({
      Key: { pk: 'ACCOUNT#acc_1' },
      ConditionExpression: expect.stringContaining('> :zero'),
    });
    expect(isRelease(updates[1] ?? {})).toBe(true);
  });

  it('draws a fresh key when the hash is already taken, without giving the slot back', async () => {
    ddb.on(UpdateCommand).resolves({});
    ddb.on(PutCommand).rejectsOnce(conditionFailed()).resolves({});
    const created = await newStore().createKey('acc_1');
    const puts = ddb.commandCalls(PutCommand).map((call) => call.args[0].input);
    expect(puts).toHaveLength(2);
    expect(puts[0]?.Item?.pk).not.toBe(puts[1]?.Item?.pk);
    expect(puts[1]?.Item?.key_id).toBe(created.keyId);
    expect(ddb.commandCalls(UpdateCommand).filter((call) => isRelease(call.args[0].input))).toHaveLength(0);
  });

  it('does not touch the counter when the key item cannot be revoked for an unexpected reason', async () => {
    ddb.on(QueryCommand).resolves({
      Items: [
        { pk: 'KEY#ab', key_id: 'key_1', key_account_id: 'acc_1', name: 'x', created_at: '2026-09-30T00:00:00Z' },
      ],
    });
    ddb.on(UpdateCommand).rejects(Object.assign(new Error('Internal server error'), { name: 'InternalServerError' }));
    await expect(newStore().revokeKey('key_1')).rejects.toThrow('Internal server error');
    const updates = ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input);
    expect(updates).toHaveLength(1);
    expect(updates[0]?.Key).toEqual({ pk: 'KEY#ab' });
  });

  it('reads nothing for a malformed hash', async () => {
    expect(await newStore().findKeyByHash('not-a-sha256')).toBeUndefined();
    expect(ddb.commandCalls(GetCommand)).toHaveLength(0);
  });
});
