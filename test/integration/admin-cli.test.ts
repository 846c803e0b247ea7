import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { listAccounts } from '../../admin-cli/accounts-listing';
import { ENDPOINT_FILE, LOCAL_ACCOUNTS_TABLE_NAME } from '../../admin-cli/target';
import { hashApiKey, isWellFormedApiKey } from '../../lambdas/core/domain/api-key';
import { PLANS } from '../../lambdas/core/domain/plans';
import { AccountsStore } from '../../lambdas/core/store/accounts-store';
import { createDocumentClient } from '../../lambdas/core/store/clients';
import { ACCOUNTS_TABLE } from '../../lambdas/core/store/tables';
import { createTable } from '../../local-server/create-tables';
import { type RunningDynalite, startDynalite } from '../../local-server/dynalite-server';
import { type CliResult, onlyJsonObject, runAdminCli } from '../support/admin-cli';

jest.setTimeout(90_000);

const cli = (args: string[], env: Record<string, string>) =>
  runAdminCli(args, { env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', ...env } });
const onlyObject = onlyJsonObject;

function ok(result: CliResult): Record<string, unknown> {
  if (result.code !== 0) throw new Error(`CLI failed with ${result.code}: ${result.stderr}`);
  expect(result.stderr).toBe('');
  return onlyObject(result);
}

function refused(result: CliResult, exit: number, code: string, reason: RegExp): void {
  expect(result.code).toBe(exit);
  const stderrLines = result.stderr.split('\n').filter((line) => line !== '');
  expect(stderrLines).toHaveLength(1);
  expect(stderrLines[0]).toMatch(reason);
  const body = onlyObject(result);
  expect(body.code).toBe(code);
  expect(body.error).toMatch(reason);
}

const tempDir = () => mkdtempSync(join(tmpdir(), 'fxrates-cli-'));
const storeAt = (endpoint: string, table = LOCAL_ACCOUNTS_TABLE_NAME) =>
  new AccountsStore(createDocumentClient(endpoint), table, {
    clock: () => new Date(),
    randomBytes,
  });

describe('admin CLI against the running local server', () => {
  let server: RunningDynalite;
  let dataDir: string;
  let store: AccountsStore;
  const admin = (...args: string[]) => cli([...args, '--json'], { FXRATES_DATA_DIR: dataDir });

  beforeAll(async () => {
    server = await startDynalite();
    dataDir = tempDir();
    writeFileSync(join(dataDir, ENDPOINT_FILE), JSON.stringify({ endpoint: server.endpoint }));
    store = storeAt(server.endpoint);
  });

  afterAll(async () => {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('creates a verified account with the plan defaults and prints only its id', async () => {
    const body = ok(await admin('account', 'create', '--plan', 'free'));
    expect(Object.keys(body)).toEqual(['account_id']);
    expect(body.account_id).toMatch(/^acc_[0-9A-Za-z]{16}$/);
    const account = await store.getAccount(String(body.account_id));
    expect(account).toMatchObject({ plan: 'free', status: 'active', verified: true, overrides: {} });
    expect(existsSync(join(dataDir, 'dynalite'))).toBe(false);
  });

  it('creates an account with email, limit overrides and --unverified', async () => {
    const body = ok(
      await admin(
        'account',
        'create',
        '--plan',
        'pro',
        '--email',
        'ops@example.com',
        '--monthly-limit',
        '45000',
        '--per-minute',
        '120',
        '--overflow-percent',
        '5',
        '--unverified',
      ),
    );
    expect(await store.getAccount(String(body.account_id))).toMatchObject({
      plan: 'pro',
      email: 'ops@example.com',
      verified: false,
      overrides: { monthlyLimit: 45000, perMinute: 120, overflowPercent: 5, overflowAllowed: true },
    });
    const noOverflow = ok(await admin('account', 'create', '--plan', 'business', '--no-overflow'));
    expect((await store.getAccount(String(noOverflow.account_id))).overrides).toEqual({ overflowAllowed: false });
  });

  it('verifies, suspends, resumes and changes the plan, printing the account each time', async () => {
    const { account_id: id } = ok(await admin('account', 'create', '--plan', 'free', '--unverified'));
    const accountId = String(id);
    expect(ok(await admin('account', 'verify', accountId))).toMatchObject({ account_id: accountId, verified: true });
    expect(ok(await admin('account', 'suspend', accountId))).toMatchObject({ status: 'suspended' });
    expect((await store.getAccount(accountId)).status).toBe('suspended');
    expect(ok(await admin('account', 'resume', accountId))).toMatchObject({ status: 'active' });
    const upgraded = ok(await admin('account', 'set-plan', accountId, 'business'));
    expect(upgraded).toMatchObject({
      account_id: accountId,
      plan: 'business',
      limits: { monthly_limit: 125000, per_minute: 300, overflow_percent: 20, max_active_keys: null },
    });
    expect((await store.getAccount(accountId)).plan).toBe('business');
    expect(ok(await admin('account', 'show', accountId))).toMatchObject({ plan: 'business', active_keys: 0 });
  });

  it('creates, lists and revokes keys; the key is shown once and only its hash is stored', async () => {
    const accountId = String(ok(await admin('account', 'create', '--plan', 'pro')).account_id);
    const created = ok(await admin('key', 'create', '--account', accountId, '--name', 'ci'));
    expect(Object.keys(created).sort()).toEqual(['key', 'key_id']);
    const key = String(created.key);
    expect(isWellFormedApiKey(key)).toBe(true);
    expect(await store.findKeyByHash(hashApiKey(key))).toMatchObject({ keyId: created.key_id, accountId, name: 'ci' });

    const second = ok(await admin('key', 'create', '--account', accountId));
    const listed = ok(await admin('key', 'list', '--account', accountId));
    expect(listed).toEqual({
      keys: expect.arrayContaining([
        { key_id: created.key_id, name: 'ci', created_at: expect.any(String), revoked_at: null },
        { key_id: second.key_id, name: 'default', created_at: expect.any(String), revoked_at: null },
      ]),
    });
    expect(JSON.stringify(listed)).not.toContain(key);

    const revoked = ok(await admin('key', 'revoke', String(created.key_id)));
    expect(revoked).toMatchObject({ key_id: created.key_id, account_id: accountId, already_revoked: false });
    expect(revoked.revoked_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect((await store.findKeyByHash(hashApiKey(key)))?.revokedAt).toBe(revoked.revoked_at);
    const again = ok(await admin('key', 'revoke', String(created.key_id)));
    expect(again).toMatchObject({ already_revoked: true, revoked_at: revoked.revoked_at });
    expect((await store.getAccount(accountId)).activeKeys).toBe(1);
  });

  it('exits 1 with one line for an unknown account, in every command that names one', async () => {
    const results = await Promise.all([
      admin('account', 'suspend', 'acc_nobody'),
      admin('account', 'verify', 'acc_nobody'),
      admin('account', 'set-plan', 'acc_nobody', 'pro'),
      admin('key', 'create', '--account', 'acc_nobody'),
      admin('key', 'list', '--account', 'acc_nobody'),
    ]);
    for (const result of results) refused(result, 1, 'unknown-account', /Account 'acc_nobody' does not exist/);
  });

  it('exits 1 for a second key on Free, an unverified account, a suspended one and an unknown key', async () => {
    const created = await Promise.all([
      admin('account', 'create', '--plan', 'free'),
      admin('account', 'create', '--plan', 'pro', '--unverified'),
      admin('account', 'create', '--plan', 'pro'),
    ]);
    const [free, unverified, suspended] = created.map((result) => String(ok(result).account_id));
    await Promise.all([
      admin('key', 'create', '--account', String(free)).then(ok),
      admin('account', 'suspend', String(suspended)).then(ok),
    ]);
    const [second, notVerified, notActive, unknownKey] = await Promise.all([
      admin('key', 'create', '--account', String(free)),
      admin('key', 'create', '--account', String(unverified)),
      admin('key', 'create', '--account', String(suspended)),
      admin('key', 'revoke', 'key_nothing'),
    ]);
    refused(second, 1, 'key-limit-reached', /has 1 active key; the Free plan allows 1\. Revoke it/);
    refused(notVerified, 1, 'account-not-verified', /is not verified/);
    refused(notActive, 1, 'account-suspended', /is suspended/);
    refused(unknownKey, 1, 'unknown-key', /Key 'key_nothing' does not exist/);
  });

  it('exits 2 for bad arguments, malformed emails included', async () => {
    const results = await Promise.all([
      admin('account', 'create', '--plan', 'gold'),
      admin('account', 'create', '--plan', 'pro', '--monthly-limit', '0'),
      admin('account', 'create', '--plan', 'pro', '--per-minute', 'fast'),
      admin('account', 'create', '--plan', 'pro', '--overflow-percent', '150'),
      admin('account', 'create', '--plan', 'pro', '--overflow-percent', '5', '--no-overflow'),
      admin('key', 'create'),
      admin('account', 'launch', 'acc_1'),
    ]);
    for (const result of results) refused(result, 2, 'usage', /\S/);
    refused(await admin('account', 'create', '--plan', 'pro', '--email', 'nobody'), 2, 'invalid-input', /email/);
  });

  it('prints readable lines without --json, the new key on a line of its own', async () => {
    const env = { FXRATES_DATA_DIR: dataDir };
    const created = await cli(['account', 'create', '--plan', 'pro', '--email', 'me@example.com'], env);
    expect(created.code).toBe(0);
    const accountId = /Created account (acc_\w+)\./.exec(created.stdout)?.[1] ?? '';
    expect(created.stdout).toContain('Pro: 30000 a month, 60 a minute, overflow 10%');
    const key = await cli(['key', 'create', '--account', accountId, '--name', 'laptop'], env);
    expect(key.code).toBe(0);
    const keyLine = key.stdout.split('\n').find((line) => line.startsWith('fxr_')) ?? '';
    expect(isWellFormedApiKey(keyLine)).toBe(true);
    expect(key.stdout).toContain('shown only this once');
    const list = await cli(['key', 'list', '--account', accountId], env);
    expect(list.stdout.split('\n')[0]).toMatch(/^KEY ID\s+NAME\s+CREATED\s+REVOKED$/);
    expect(list.stdout).toContain('laptop');
    expect(list.stdout).not.toContain(keyLine);
  });

  it('prints the usage for --help', async () => {
    const help = await cli(['--help'], { FXRATES_DATA_DIR: dataDir });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('key revoke KEY_ID');
  });
});

describe('admin CLI account list and account show, dashboard sign-ups included', () => {
  const SUB = '7c1e2f40-93ab-4d5e-8f61-0a2b3c4d5e6f';
  const DASHBOARD_ID = 'acc_DashBoard0000001';
  let server: RunningDynalite;
  let dataDir: string;
  let operatorId: string;
  let unverifiedId: string;
  let expected: Record<string, unknown>[];
  const env = () => ({ FXRATES_DATA_DIR: dataDir });

  beforeAll(async () => {
    server = await startDynalite();
    dataDir = tempDir();
    writeFileSync(join(dataDir, ENDPOINT_FILE), JSON.stringify({ endpoint: server.endpoint }));
    const client = createDocumentClient(server.endpoint);
    await createTable(client, ACCOUNTS_TABLE, LOCAL_ACCOUNTS_TABLE_NAME);
    // What the dashboard writes on a sign-up: the account item with the user's sub and e-mail, no overrides.
    await client.send(
      new PutCommand({
        TableName: LOCAL_ACCOUNTS_TABLE_NAME,
        Item: {
          pk: `ACCOUNT#${DASHBOARD_ID}`,
          account_id: DASHBOARD_ID,
          plan: 'free',
          status: 'active',
          verified: true,
          email: 'ada@example.com',
          owner: SUB,
          active_keys: 0,
          created_at: '2026-01-05T08:00:00Z',
        },
      }),
    );
    // An item of another kind, which the listing must leave out.
    await client.send(
      new PutCommand({
        TableName: LOCAL_ACCOUNTS_TABLE_NAME,
        Item: { pk: `USAGE#${DASHBOARD_ID}#2026-01`, count: 3 },
      }),
    );
    const create = (...args: string[]) => cli(['account', 'create', ...args, '--json'], env()).then(ok);
    operatorId = String(
      (await create('--plan', 'pro', '--email', 'ops@example.com', '--monthly-limit', '45000')).account_id,
    );
    unverifiedId = String((await create('--plan', 'business', '--unverified')).account_id);
    ok(await cli(['key', 'create', '--account', operatorId, '--json'], env()));
    ok(await cli(['account', 'suspend', unverifiedId, '--json'], env()));

    const store = storeAt(server.endpoint);
    const [operator, unverified] = await Promise.all([store.getAccount(operatorId), store.getAccount(unverifiedId)]);
    const limits = (plan: 'free' | 'pro' | 'business', monthly = PLANS[plan].monthlyLimit) => ({
      monthly_limit: monthly,
      per_minute: PLANS[plan].perMinute,
      overflow_allowed: PLANS[plan].overflowAllowed,
      overflow_percent: PLANS[plan].overflowPercent,
      max_active_keys: PLANS[plan].maxActiveKeys,
    });
    const created = [
      {
        account_id: operatorId,
        plan: 'pro',
        status: 'active',
        verified: true,
        email: 'ops@example.com',
        active_keys: 1,
        created_at: operator.createdAt,
        limits: limits('pro', 45000),
        owner: null,
      },
      {
        account_id: unverifiedId,
        plan: 'business',
        status: 'suspended',
        verified: false,
        email: null,
        active_keys: 0,
        created_at: unverified.createdAt,
        limits: limits('business'),
        owner: null,
      },
    ].sort((a, b) =>
      a.created_at === b.created_at ? (a.account_id < b.account_id ? -1 : 1) : a.created_at < b.created_at ? -1 : 1,
    );
    expected = [
      {
        account_id: DASHBOARD_ID,
        plan: 'free',
        status: 'active',
        verified: true,
        email: 'ada@example.com',
        active_keys: 0,
        created_at: '2026-01-05T08:00:00Z',
        limits: limits('free'),
        owner: SUB,
      },
      ...created,
    ];
  });

  afterAll(async () => {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('lists every account and nothing else as one JSON object, oldest first, the dashboard owner included', async () => {
    const body = ok(await cli(['account', 'list', '--json'], env()));
    expect(body).toEqual({ accounts: expected });
  });

  it('shows each account with --json as its list entry: the owner for a sign-up, null otherwise', async () => {
    for (const entry of expected) {
      expect(ok(await cli(['account', 'show', String(entry.account_id), '--json'], env()))).toEqual(entry);
    }
  });

  it('prints the list as a table with the owner, and the sign-up marker in account show', async () => {
    const list = await cli(['account', 'list'], env());
    expect(list.code).toBe(0);
    expect(list.stderr).toBe('');
    const lines = list.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ACCOUNT ID\s+EMAIL\s+PLAN\s+STATUS\s+VERIFIED\s+KEYS\s+CREATED\s+OWNER$/);
    expect(lines.slice(1, -1).map((line) => line.split(/\s+/))).toEqual(
      expected.map((entry) => [
        entry.account_id,
        entry.email ?? '-',
        entry.plan,
        entry.status,
        entry.verified ? 'yes' : 'no',
        String(entry.active_keys),
        entry.created_at,
        entry.owner ?? '-',
      ]),
    );
    expect(lines.at(-1)).toBe('3 accounts, 1 signed up in the dashboard.');

    const shown = await cli(['account', 'show', DASHBOARD_ID], env());
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain(`  owner     ${SUB} (signed up in the dashboard)`);
    expect(shown.stdout).toContain('  email     ada@example.com');
    const operator = await cli(['account', 'show', operatorId], env());
    expect(operator.stdout).toContain('  owner     -');
    expect(operator.stdout).not.toContain('dashboard');
  });
});

describe('admin CLI without a running local server', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  const freshDir = () => {
    const dir = tempDir();
    dirs.push(dir);
    return dir;
  };
  /** A store as a server leaves it when it stops: its files in the data directory, nobody holding them. */
  const stoppedStore = async (dataDir: string) => {
    const store = await startDynalite({ path: join(dataDir, 'dynalite') });
    await createTable(createDocumentClient(store.endpoint), ACCOUNTS_TABLE, LOCAL_ACCOUNTS_TABLE_NAME);
    await store.close();
  };

  it('opens the stopped store with --stopped, and the data persists there', async () => {
    const dataDir = freshDir();
    await stoppedStore(dataDir);
    const env = { FXRATES_DATA_DIR: dataDir };
    const accountId = String(
      ok(await cli(['account', 'create', '--plan', 'free', '--stopped', '--json'], env)).account_id,
    );
    const created = ok(await cli(['key', 'create', '--account', accountId, '--stopped', '--json'], env));
    refused(
      await cli(['key', 'create', '--account', accountId, '--stopped', '--json'], env),
      1,
      'key-limit-reached',
      new RegExp(`Account '${accountId}' has 1 active key; the Free plan allows 1\\. Revoke it`),
    );

    const reopened = await startDynalite({ path: join(dataDir, 'dynalite') });
    try {
      const store = storeAt(reopened.endpoint);
      expect(await store.getAccount(accountId)).toMatchObject({ plan: 'free', activeKeys: 1 });
      expect((await store.findKeyByHash(hashApiKey(String(created.key))))?.keyId).toBe(created.key_id);
    } finally {
      await reopened.close();
    }
  });

  it('refuses without --stopped when no server runs there, even with the store present, and changes nothing', async () => {
    const dataDir = freshDir();
    await stoppedStore(dataDir);
    refused(
      await cli(['account', 'create', '--plan', 'free', '--json'], { FXRATES_DATA_DIR: dataDir }),
      3,
      'no-server',
      new RegExp(
        `No fxrates server is running with the data directory ${dataDir}\\. .*, or pass --stopped to use the store`,
      ),
    );
    const reopened = await startDynalite({ path: join(dataDir, 'dynalite') });
    try {
      expect(await listAccounts(createDocumentClient(reopened.endpoint), LOCAL_ACCOUNTS_TABLE_NAME)).toEqual([]);
    } finally {
      await reopened.close();
    }
  });

  it('refuses --stopped on a directory that holds no store, and creates none', async () => {
    const dataDir = join(freshDir(), 'not-yet');
    refused(
      await cli(['account', 'create', '--plan', 'free', '--stopped', '--json'], { FXRATES_DATA_DIR: dataDir }),
      3,
      'no-store',
      /holds no fxrates store \(no dynalite in it\); nothing was created/,
    );
    expect(existsSync(dataDir)).toBe(false);
  });

  it('does not take a published endpoint that no longer answers for a running server', async () => {
    const dataDir = freshDir();
    const gone = await startDynalite();
    await gone.close();
    writeFileSync(join(dataDir, ENDPOINT_FILE), JSON.stringify({ endpoint: gone.endpoint }));
    refused(
      await cli(['account', 'create', '--plan', 'business', '--json'], { FXRATES_DATA_DIR: dataDir }),
      3,
      'no-server',
      /No fxrates server is running with the data directory/,
    );
    expect(existsSync(join(dataDir, 'dynalite'))).toBe(false);
  });

  it('refuses --stopped with exit 3 while another process holds the store, and uses it once it publishes an endpoint', async () => {
    const dataDir = freshDir();
    const holder = await startDynalite({ path: join(dataDir, 'dynalite') });
    try {
      refused(
        await cli(['account', 'create', '--plan', 'pro', '--stopped', '--json'], { FXRATES_DATA_DIR: dataDir }),
        3,
        'store-unavailable',
        /held by another process/,
      );
      writeFileSync(join(dataDir, ENDPOINT_FILE), JSON.stringify({ endpoint: holder.endpoint }));
      const body = ok(await cli(['account', 'create', '--plan', 'pro', '--json'], { FXRATES_DATA_DIR: dataDir }));
      expect((await storeAt(holder.endpoint).getAccount(String(body.account_id))).plan).toBe('pro');
    } finally {
      await holder.close();
    }
  });
});

describe('admin CLI against a named table', () => {
  let server: RunningDynalite;
  beforeAll(async () => {
    server = await startDynalite();
  });
  afterAll(() => server.close());

  it('backs up one table on AWS and restores it into another, items and source recorded exactly', async () => {
    const [from, to] = [0, 1].map(() => `accounts-${randomBytes(4).toString('hex')}`) as [string, string];
    for (const table of [from, to]) await createTable(createDocumentClient(server.endpoint), ACCOUNTS_TABLE, table);
    const dir = tempDir();
    try {
      const env = {
        AWS_ENDPOINT_URL_DYNAMODB: server.endpoint,
        AWS_ACCESS_KEY_ID: 'test',
        AWS_SECRET_ACCESS_KEY: 'test',
        AWS_REGION: 'eu-west-1',
      };
      const on = (table: string, ...args: string[]) => cli([...args, '--accounts-table', table, '--json'], env);
      const accountId = String(ok(await on(from, 'account', 'create', '--plan', 'pro')).account_id);
      const { key } = ok(await on(from, 'key', 'create', '--account', accountId));
      const file = join(dir, 'aws.json');
      expect(ok(await on(from, 'backup', file))).toMatchObject({ accounts: 1, keys: 1, item_count: 2 });
      expect(JSON.parse(readFileSync(file, 'utf8')).source).toEqual({ kind: 'aws', table: from, region: 'eu-west-1' });
      expect(ok(await on(to, 'restore', file))).toMatchObject({ accounts: 1, keys: 1, items_written: 2 });
      const restored = storeAt(server.endpoint, to);
      expect(await restored.getAccount(accountId)).toEqual(await storeAt(server.endpoint, from).getAccount(accountId));
      expect((await restored.findKeyByHash(hashApiKey(String(key))))?.accountId).toBe(accountId);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('uses --accounts-table and --region with the default credential chain, ignoring the data directory', async () => {
    const table = `accounts-${randomBytes(4).toString('hex')}`;
    await createTable(createDocumentClient(server.endpoint), ACCOUNTS_TABLE, table);
    const dataDir = tempDir();
    try {
      // The SDK's standard endpoint and credential variables stand in for AWS; the CLI sets neither itself.
      const env = {
        FXRATES_DATA_DIR: dataDir,
        AWS_ENDPOINT_URL_DYNAMODB: server.endpoint,
        AWS_ACCESS_KEY_ID: 'test',
        AWS_SECRET_ACCESS_KEY: 'test',
      };
      const body = ok(
        await cli(
          ['account', 'create', '--plan', 'pro', '--accounts-table', table, '--region', 'eu-west-1', '--json'],
          env,
        ),
      );
      expect((await storeAt(server.endpoint, table).getAccount(String(body.account_id))).plan).toBe('pro');
      const viaEnv = ok(
        await cli(['account', 'show', String(body.account_id), '--json'], {
          ...env,
          ACCOUNTS_TABLE_NAME: table,
          AWS_REGION: 'eu-west-1',
        }),
      );
      expect(viaEnv.account_id).toBe(body.account_id);
      expect(existsSync(join(dataDir, 'dynalite'))).toBe(false);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
