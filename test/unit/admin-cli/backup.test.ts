import { BatchWriteItemCommand, DynamoDBClient, ScanCommand } from '@aws-sdk/client-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import {
  BACKUP_FORMAT,
  BackupRefusedError,
  buildBackup,
  canonicalJson,
  countItems,
  decodeBackup,
  describeCounts,
  encodeBackup,
  fromJsonItem,
  type JsonItem,
  restoreItems,
  toJsonItem,
} from '../../../admin-cli/backup';

const SOURCE = { kind: 'local', data_dir: '/srv/fxrates/.data' } as const;

const account = (id: string, activeKeys: number): JsonItem => ({
  pk: { S: `ACCOUNT#${id}` },
  account_id: { S: id },
  plan: { S: 'pro' },
  status: { S: 'active' },
  verified: { BOOL: true },
  overrides: { M: { monthly_limit: { N: '45000' } } },
  active_keys: { N: String(activeKeys) },
  created_at: { S: '2026-03-01T09:00:00Z' },
});

const key = (hash: string, accountId: string, revoked = false): JsonItem => ({
  pk: { S: `KEY#${hash}` },
  key_id: { S: `key_${hash}` },
  key_account_id: { S: accountId },
  name: { S: 'default' },
  created_at: { S: '2026-03-01T09:00:00Z' },
  ...(revoked ? { revoked_at: { S: '2026-03-02T09:00:00Z' } } : {}),
});

const usage = (accountId: string, count: number): JsonItem => ({
  pk: { S: `USAGE#${accountId}#2026-03` },
  month_count: { N: String(count) },
  expires_at: { N: '1790000000' },
});

const ITEMS = [
  account('acc_a', 2),
  key('aa', 'acc_a'),
  key('ab', 'acc_a'),
  key('ac', 'acc_a', true),
  usage('acc_a', 17),
];

const fileText = () => encodeBackup(buildBackup(ITEMS, SOURCE, '2026-03-05T12:00:00Z'));

function refusal(text: string): BackupRefusedError {
  try {
    decodeBackup(text, '/b/accounts.json');
  } catch (error) {
    if (error instanceof BackupRefusedError) return error;
    throw error;
  }
  throw new Error('expected the backup to be refused');
}

describe('backup file', () => {
  it('has a header naming the format, version, time, source, counts and the SHA-256 of the items', () => {
    const parsed = JSON.parse(fileText());
    expect(parsed).toMatchObject({
      format: BACKUP_FORMAT,
      version: 1,
      created_at: '2026-03-05T12:00:00Z',
      source: SOURCE,
      item_count: 5,
      counts: { accounts: 1, keys: 3, usage: 1, other: 0 },
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(parsed.items).toEqual(ITEMS);
  });

  it('puts one item on each line after the header line', () => {
    const lines = fileText().trimEnd().split('\n');
    expect(lines).toHaveLength(ITEMS.length + 2);
    expect(JSON.parse(lines[1]?.replace(/,$/, '') ?? '')).toEqual(ITEMS[0]);
    expect(lines.at(-1)).toBe(']}');
  });

  it('reads back what it wrote, empty or not', () => {
    expect(decodeBackup(fileText(), 'f').items).toEqual(ITEMS);
    const empty = encodeBackup(
      buildBackup([], { kind: 'aws', table: 'T', region: 'eu-west-1' }, '2026-03-05T12:00:00Z'),
    );
    expect(decodeBackup(empty, 'f')).toMatchObject({ items: [], item_count: 0, source: { kind: 'aws', table: 'T' } });
  });

  it('hashes the canonical JSON, so the order of an object keys does not matter but every value does', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 'x', c: true }] })).toBe('{"a":[{"c":true,"d":"x"}],"b":1}');
    const reordered = fileText().replace(
      '{"pk":{"S":"ACCOUNT#acc_a"},"account_id":{"S":"acc_a"},',
      '{"account_id":{"S":"acc_a"},"pk":{"S":"ACCOUNT#acc_a"},',
    );
    expect(reordered).not.toBe(fileText());
    expect(decodeBackup(reordered, 'f').items[0]).toEqual(ITEMS[0]);
  });

  it('refuses a file with one digit of a counter changed, naming both digests', () => {
    const damaged = fileText().replace('"month_count":{"N":"17"}', '"month_count":{"N":"18"}');
    const error = refusal(damaged);
    expect(error.code).toBe('backup-damaged');
    expect(error.message).toMatch(
      /^The backup \/b\/accounts\.json is damaged: the SHA-256 of its items is [0-9a-f]{64}, its header says [0-9a-f]{64}\. Nothing was written\.$/,
    );
  });

  it('refuses a file cut short as not JSON', () => {
    const text = fileText();
    const error = refusal(text.slice(0, text.length - 40));
    expect(error.code).toBe('backup-damaged');
    expect(error.message).toMatch(
      /^The backup \/b\/accounts\.json is damaged: it is not valid JSON \(.+\); it may be cut short\./,
    );
  });

  it('refuses another file, another version, a wrong count and a malformed item, each saying what is wrong', () => {
    const header = JSON.parse(fileText());
    const variant = (change: Record<string, unknown>) => JSON.stringify({ ...header, ...change });
    expect(refusal('{"endpoint": "http://127.0.0.1:8000"}')).toMatchObject({
      code: 'backup-format',
      message: `The file /b/accounts.json is not an fxrates accounts backup (format null, expected "${BACKUP_FORMAT}"). Nothing was written.`,
    });
    expect(refusal(variant({ version: 2 }))).toMatchObject({
      code: 'backup-version',
      message: 'The backup /b/accounts.json has version 2; this fxrates reads version 1. Nothing was written.',
    });
    expect(refusal(variant({ item_count: 4 })).message).toContain('it holds 5 items where its header says 4');
    expect(refusal(variant({ created_at: 'yesterday' })).message).toContain('created_at is not a UTC timestamp');
    const bad = [...ITEMS.slice(0, -1), { pk: { S: 'USAGE#x' }, n: { N: 'twelve' } }];
    const malformed = encodeBackup(buildBackup(bad as JsonItem[], SOURCE, '2026-03-05T12:00:00Z'));
    expect(refusal(malformed).message).toContain('item 5: n.N is not a number');
  });

  it('keeps binary values through JSON as base64', () => {
    const raw = { pk: { S: 'X' }, blob: { B: new Uint8Array([0, 255, 7]) }, set: { BS: [new Uint8Array([1])] } };
    const json = toJsonItem(raw);
    expect(json).toEqual({ pk: { S: 'X' }, blob: { B: 'AP8H' }, set: { BS: ['AQ=='] } });
    const back = fromJsonItem(JSON.parse(JSON.stringify(json)));
    expect(Buffer.from(back.blob?.B ?? []).equals(Buffer.from([0, 255, 7]))).toBe(true);
  });

  it('counts items by kind and says so in words', () => {
    const counts = countItems([...ITEMS, { pk: { S: 'SOMETHING#else' } }]);
    expect(counts).toEqual({ accounts: 1, keys: 3, usage: 1, other: 1 });
    expect(describeCounts(counts)).toBe('1 account, 3 keys, 1 usage item and 1 other item');
    expect(describeCounts({ accounts: 2, keys: 0, usage: 5, other: 0 })).toBe('2 accounts, 0 keys and 5 usage items');
  });
});

describe('restore writes', () => {
  const ddb = mockClient(DynamoDBClient);
  beforeEach(() => ddb.reset());
  const client = () => new DynamoDBClient({ region: 'local' });
  const options = { replace: false, description: 'the stopped store in /d', sleep: async () => undefined };

  it('writes in batches of 25 and sends unprocessed items again until none is left', async () => {
    ddb.on(ScanCommand).resolves({ Items: [] });
    const many = Array.from({ length: 30 }, (_, i) => usage(`acc_${i}`, i));
    let first = true;
    ddb.on(BatchWriteItemCommand).callsFake((input: { RequestItems: Record<string, unknown[]> }) => {
      const requests = input.RequestItems.accounts ?? [];
      if (first) {
        first = false;
        return { UnprocessedItems: { accounts: requests.slice(0, 3) } };
      }
      return {};
    });
    const result = await restoreItems(client(), 'accounts', many, options);
    const sizes = ddb.commandCalls(BatchWriteItemCommand).map((c) => c.args[0].input.RequestItems?.accounts?.length);
    expect(sizes).toEqual([25, 3, 5]);
    expect(result).toMatchObject({ itemsWritten: 30, replaced: 0 });
  });

  it('gives up with a message saying the restore is incomplete when items stay unprocessed', async () => {
    ddb.on(ScanCommand).resolves({ Items: [] });
    ddb.on(BatchWriteItemCommand).callsFake((input: { RequestItems: Record<string, unknown[]> }) => ({
      UnprocessedItems: input.RequestItems,
    }));
    await expect(restoreItems(client(), 'accounts', ITEMS, { ...options, maxAttempts: 3 })).rejects.toThrow(
      'the store left 5 items unwritten after 3 attempts; the restore is incomplete: run it again with --replace',
    );
    expect(ddb.commandCalls(BatchWriteItemCommand)).toHaveLength(3);
  });

  it("sets each account's active keys from its key items that are not revoked", async () => {
    ddb.on(ScanCommand).resolves({ Items: [] });
    ddb.on(BatchWriteItemCommand).resolves({});
    const wrong = [account('acc_a', 7), ...ITEMS.slice(1)];
    const result = await restoreItems(client(), 'accounts', wrong, options);
    const written = ddb.commandCalls(BatchWriteItemCommand)[0]?.args[0].input.RequestItems?.accounts ?? [];
    const accountItem = written.find((r) => r.PutRequest?.Item?.pk?.S === 'ACCOUNT#acc_a');
    expect(accountItem?.PutRequest?.Item?.active_keys).toEqual({ N: '2' });
    expect(result).toMatchObject({ recounted: 1, corrected: 1 });
  });

  it('refuses a store that holds an account or a key, writing nothing, unless told to replace', async () => {
    ddb.on(ScanCommand).resolves({ Items: [{ pk: { S: 'ACCOUNT#acc_a' }, active_keys: { N: '2' } }] });
    ddb.on(BatchWriteItemCommand).resolves({});
    await expect(restoreItems(client(), 'accounts', ITEMS, options)).rejects.toMatchObject({
      code: 'target-not-empty',
      message:
        'The stopped store in /d already holds 1 account and 0 keys (1 of its items have the same keys as items of the backup); nothing was written. Restore into an empty store, or pass --replace to overwrite those items.',
    });
    expect(ddb.commandCalls(BatchWriteItemCommand)).toHaveLength(0);
    const replaced = await restoreItems(client(), 'accounts', ITEMS, { ...options, replace: true });
    expect(replaced).toMatchObject({ replaced: 1, itemsWritten: 5 });
  });
});
