import { DynamoDBDocumentClient, GetCommand, ScanCommand, type ScanCommandInput } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { listAccounts } from '../../../admin-cli/accounts-listing';
import { AdminAccountsStore } from '../../../admin-cli/commands';
import { UnknownAccountError } from '../../../lambdas/core/store/account-errors';
import { MalformedItemError } from '../../../lambdas/core/store/account-items';
import { createDocumentClient } from '../../../lambdas/core/store/clients';

const ddb = mockClient(DynamoDBDocumentClient);
const client = createDocumentClient('http://127.0.0.1:9');

const item = (accountId: string, createdAt: string, extra: Record<string, unknown> = {}) => ({
  pk: `ACCOUNT#${accountId}`,
  account_id: accountId,
  plan: 'free',
  status: 'active',
  verified: true,
  active_keys: 0,
  created_at: createdAt,
  ...extra,
});

describe('accounts listing', () => {
  beforeEach(() => ddb.reset());

  it('scans only ACCOUNT# items, consistently, projecting the summary attributes', async () => {
    ddb.on(ScanCommand).resolves({ Items: [] });
    expect(await listAccounts(client, 'accounts')).toEqual([]);
    const [call] = ddb.commandCalls(ScanCommand);
    const input: ScanCommandInput = call?.args[0].input ?? { TableName: '' };
    expect(input).toMatchObject({
      TableName: 'accounts',
      FilterExpression: expect.stringMatching(/^begins_with\(#\w+, :prefix\)$/),
      ExpressionAttributeValues: { ':prefix': 'ACCOUNT#' },
      ConsistentRead: true,
    });
    const names = input.ExpressionAttributeNames ?? {};
    const filtered = /begins_with\((#\w+),/.exec(input.FilterExpression ?? '')?.[1] ?? '';
    expect(names[filtered]).toBe('pk');
    const projected = (input.ProjectionExpression ?? '').split(', ').map((placeholder) => names[placeholder]);
    expect(projected.sort()).toEqual(
      [
        'account_id',
        'active_keys',
        'created_at',
        'email',
        'overrides',
        'owner',
        'pk',
        'plan',
        'status',
        'verified',
      ].sort(),
    );
  });

  it('follows every page and sorts by creation time, then by id', async () => {
    const pages = [
      {
        Items: [item('acc_b', '2026-02-01T00:00:00Z'), item('acc_late', '2026-03-01T00:00:00Z')],
        LastEvaluatedKey: { pk: 'ACCOUNT#acc_late' },
      },
      { Items: [], LastEvaluatedKey: { pk: 'USAGE#acc_b#2026-03' } },
      { Items: [item('acc_a', '2026-02-01T00:00:00Z'), item('acc_first', '2026-01-01T00:00:00Z')] },
    ];
    // The paginator reuses one input object, so each call's start key is recorded as it is made.
    const starts: unknown[] = [];
    ddb.on(ScanCommand).callsFake((input: { ExclusiveStartKey?: unknown }) => {
      starts.push(input.ExclusiveStartKey);
      return pages[starts.length - 1];
    });
    const accounts = await listAccounts(client, 'accounts');
    expect(accounts.map((a) => a.accountId)).toEqual(['acc_first', 'acc_a', 'acc_b', 'acc_late']);
    expect(starts).toEqual([undefined, { pk: 'ACCOUNT#acc_late' }, { pk: 'USAGE#acc_b#2026-03' }]);
  });

  it('reads the dashboard owner and email beside the fields accountFromItem checks', async () => {
    ddb.on(ScanCommand).resolves({
      Items: [item('acc_dash', '2026-01-01T00:00:00Z', { owner: 'sub-1', email: 'ada@example.com' })],
    });
    expect(await listAccounts(client, 'accounts')).toEqual([
      {
        accountId: 'acc_dash',
        plan: 'free',
        status: 'active',
        verified: true,
        email: 'ada@example.com',
        owner: 'sub-1',
        overrides: {},
        activeKeys: 0,
        createdAt: '2026-01-01T00:00:00Z',
      },
    ]);
  });

  it('fails on a malformed item and names it', async () => {
    ddb
      .on(ScanCommand)
      .resolves({ Items: [item('acc_ok', '2026-01-01T00:00:00Z'), item('acc_bad', 'x', { owner: 7 })] });
    const failure = listAccounts(client, 'accounts');
    await expect(failure).rejects.toThrow(MalformedItemError);
    await expect(failure).rejects.toThrow('malformed account item: owner must be a string (item ACCOUNT#acc_bad)');
  });

  it('shows one account with its owner by a consistent read, and refuses an unknown one', async () => {
    ddb.on(GetCommand, { Key: { pk: 'ACCOUNT#acc_dash' } }).resolves({
      Item: item('acc_dash', '2026-01-01T00:00:00Z', { owner: 'sub-1' }),
    });
    ddb.on(GetCommand, { Key: { pk: 'ACCOUNT#acc_none' } }).resolves({});
    const store = new AdminAccountsStore(client, 'accounts', {
      clock: () => new Date(0),
      randomBytes: () => Buffer.alloc(0),
    });
    expect(await store.getAccount('acc_dash')).toMatchObject({ owner: 'sub-1' });
    await expect(store.getAccount('acc_none')).rejects.toThrow(UnknownAccountError);
    expect(ddb.commandCalls(GetCommand).every((call) => call.args[0].input.ConsistentRead === true)).toBe(true);
  });
});
