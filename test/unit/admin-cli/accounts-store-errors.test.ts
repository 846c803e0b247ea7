import { randomBytes } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import {
  AccountExistsError,
  AccountNotVerifiedError,
  AccountSuspendedError,
  AccountsError,
  AccountsStore,
  InvalidAccountInputError,
  KeyLimitReachedError,
  TooManyKeysForPlanError,
  UnknownAccountError,
  UnknownKeyError,
} from '../../../lambdas/core/store/accounts-store';
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

  it('reads every page of a key query', async () => {
    const key = (n: number) => ({
      pk: `KEY#${n}`,
      key_id: `key_${n}`,
      key_account_id: 'acc_1',
      name: `k${n}`,
      created_at: `2026-09-30T00:00:0${n}Z`,
    });
    ddb.on(GetCommand).resolves({
      Item: {
        pk: 'ACCOUNT#acc_1',
        account_id: 'acc_1',
        plan: 'pro',
        status: 'active',
        verified: true,
        active_keys: 3,
        created_at: '2026-09-30T00:00:00Z',
      },
    });
    // Each page's request as it was sent: the paginator reuses one input object for every page.
    const starts: unknown[] = [];
    const pages = [{ Items: [key(2)], LastEvaluatedKey: { pk: 'KEY#2' } }, { Items: [key(1), key(3)] }];
    ddb.on(QueryCommand).callsFake((input: { ExclusiveStartKey?: unknown }) => {
      starts.push(input.ExclusiveStartKey);
      return pages[starts.length - 1];
    });
    const keys = await newStore().listKeys('acc_1');
    expect(keys.map((k) => k.keyId)).toEqual(['key_1', 'key_2', 'key_3']);
    expect(starts).toEqual([undefined, { pk: 'KEY#2' }]);
  });
});

describe('AccountsStore plan changes', () => {
  beforeEach(() => ddb.reset());

  const accountItem = (activeKeys: number) => ({
    pk: 'ACCOUNT#acc_1',
    account_id: 'acc_1',
    plan: 'pro',
    status: 'active',
    verified: true,
    active_keys: activeKeys,
    created_at: '2026-09-30T00:00:00Z',
  });

  it("changes to a plan with a key limit in one update conditional on the account's active keys", async () => {
    ddb.on(UpdateCommand).resolves({ Attributes: { ...accountItem(1), plan: 'free' } });
    expect((await newStore().setPlan('acc_1', 'free')).plan).toBe('free');
    const updates = ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input);
    expect(updates).toHaveLength(1);
    expect(updates[0]).toMatchObject({
      Key: { pk: 'ACCOUNT#acc_1' },
      ConditionExpression: 'attribute_exists(pk) AND #keys <= :max',
      ExpressionAttributeNames: { '#plan': 'plan', '#keys': 'active_keys' },
      ExpressionAttributeValues: { ':value': 'free', ':max': 1 },
    });
  });

  it('changes to a plan without a key limit on the account existing alone', async () => {
    ddb.on(UpdateCommand).resolves({ Attributes: { ...accountItem(7), plan: 'business' } });
    await newStore().setPlan('acc_1', 'business');
    expect(ddb.commandCalls(UpdateCommand)[0]?.args[0].input.ConditionExpression).toBe('attribute_exists(pk)');
  });

  it('refuses the plan, counting the active keys it read, when the condition fails on too many keys', async () => {
    ddb.on(UpdateCommand).rejects(conditionFailed());
    ddb.on(GetCommand).resolves({ Item: accountItem(3) });
    const refusal = newStore().setPlan('acc_1', 'free');
    await expect(refusal).rejects.toThrow(TooManyKeysForPlanError);
    await expect(refusal).rejects.toThrow(
      "Account 'acc_1' has 3 active keys; the Free plan allows 1. Revoke 2 of them",
    );
  });

  it('tries again when the keys were revoked between the refused update and the read', async () => {
    ddb
      .on(UpdateCommand)
      .rejectsOnce(conditionFailed())
      .resolves({ Attributes: { ...accountItem(1), plan: 'free' } });
    ddb.on(GetCommand).resolves({ Item: accountItem(1) });
    expect((await newStore().setPlan('acc_1', 'free')).plan).toBe('free');
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(2);
  });

  it('answers UnknownAccountError when the account is not there', async () => {
    ddb.on(UpdateCommand).rejects(conditionFailed());
    ddb.on(GetCommand).resolves({});
    await expect(newStore().setPlan('acc_1', 'free')).rejects.toThrow(UnknownAccountError);
  });

  it('refuses a new key naming the active keys the account really holds, not the plan maximum', async () => {
    ddb.on(UpdateCommand).rejects(conditionFailed());
    ddb.on(GetCommand).resolves({ Item: { ...accountItem(2), plan: 'free' } });
    const refusal = newStore().createKey('acc_1');
    await expect(refusal).rejects.toThrow(KeyLimitReachedError);
    await expect(refusal).rejects.toThrow(
      "Account 'acc_1' has 2 active keys; the Free plan allows 1. Revoke 2 of them",
    );
  });
});

describe('AccountsStore refusals', () => {
  it.each([
    ['UnknownAccountError', new UnknownAccountError('acc_1'), 'unknown-account', "Account 'acc_1' does not exist."],
    ['AccountExistsError', new AccountExistsError('acc_1'), 'account-exists', "Account 'acc_1' already exists."],
    [
      'AccountNotVerifiedError',
      new AccountNotVerifiedError('acc_1'),
      'account-not-verified',
      "Account 'acc_1' is not verified; verify it before creating keys.",
    ],
    [
      'AccountSuspendedError',
      new AccountSuspendedError('acc_1'),
      'account-suspended',
      "Account 'acc_1' is suspended; resume it before creating keys.",
    ],
    [
      'KeyLimitReachedError',
      new KeyLimitReachedError('acc_1', 'free', 1),
      'key-limit-reached',
      "Account 'acc_1' has 1 active key; the Free plan allows 1. Revoke it (npm run admin -- key list --account acc_1) or change the plan before creating another.",
    ],
    [
      'KeyLimitReachedError',
      new KeyLimitReachedError('acc_1', 'free', 3),
      'key-limit-reached',
      "Account 'acc_1' has 3 active keys; the Free plan allows 1. Revoke 3 of them (npm run admin -- key list --account acc_1) or change the plan before creating another.",
    ],
    [
      'KeyLimitReachedError',
      new KeyLimitReachedError('acc_1', 'pro', 5, 5),
      'key-limit-reached',
      "Account 'acc_1' has 5 active keys; the Pro plan allows 5. Revoke one of them (npm run admin -- key list --account acc_1) or change the plan before creating another.",
    ],
    [
      'TooManyKeysForPlanError',
      new TooManyKeysForPlanError('acc_x', 'free', 3, 1),
      'too-many-active-keys',
      "Account 'acc_x' has 3 active keys; the Free plan allows 1. Revoke 2 of them (npm run admin -- key list --account acc_x) and change the plan again.",
    ],
    [
      'TooManyKeysForPlanError',
      new TooManyKeysForPlanError('acc_x', 'free', 2, 1),
      'too-many-active-keys',
      "Account 'acc_x' has 2 active keys; the Free plan allows 1. Revoke 1 of them (npm run admin -- key list --account acc_x) and change the plan again.",
    ],
    ['UnknownKeyError', new UnknownKeyError('key_\u0007x'), 'unknown-key', "Key 'key_?x' does not exist."],
    ['InvalidAccountInputError', new InvalidAccountInputError('plan: bad'), 'invalid-input', 'plan: bad'],
  ])('%s has its name, code and message', (name, error, code, message) => {
    expect(error).toBeInstanceOf(AccountsError);
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe(name);
    expect(error.code).toBe(code);
    expect(error.message).toBe(message);
  });

  it('keeps the classes apart', () => {
    expect(new UnknownAccountError('a')).not.toBeInstanceOf(UnknownKeyError);
    expect(new InvalidAccountInputError('x')).not.toBeInstanceOf(UnknownAccountError);
    expect(UnknownAccountError.name).toBe('UnknownAccountError');
  });
});
