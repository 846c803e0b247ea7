/**
 * The admin CLI against real local servers (startLocalService on temporary data directories): which store it finds,
 * backup while a server serves requests, restore into a fresh data directory and into another server, damaged and
 * refused restores, and the plan change refused while more keys are active than the plan allows.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { BACKUP_FORMAT, buildBackup, type JsonItem, scanItems } from '../../admin-cli/backup';
import { ENDPOINT_FILE, LOCAL_ACCOUNTS_TABLE_NAME } from '../../admin-cli/target';
import { loadBundledRates } from '../../bench/support/bundled-rates';
import { type RunningDynalite, startDynalite } from '../../local-server/dynalite-server';
import { LOCK_FILE, readLock } from '../../local-server/running-servers';
import { type LocalService, startLocalService } from '../../local-server/service';
import { type CliResult, onlyJsonObject, runAdminCli } from '../support/admin-cli';

jest.setTimeout(180_000);

const cli = runAdminCli;
const json = onlyJsonObject;

function ok(result: CliResult): Record<string, unknown> {
  if (result.code !== 0) throw new Error(`CLI failed with ${result.code}: ${result.stderr}`);
  return json(result);
}

/** The refusal: its exit status, its code, and its one line on stderr (the same text as the JSON error). */
function refusal(result: CliResult, exit: number, code: string): string {
  expect({ exit: result.code, code: json(result).code }).toEqual({ exit, code });
  const lines = result.stderr.split('\n').filter((line) => line !== '');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toBe(`error: ${json(result).error}`);
  return String(json(result).error);
}

const dirs: string[] = [];
const tempDir = (name: string) => {
  const dir = mkdtempSync(join(tmpdir(), `fxrates-${name}-`));
  dirs.push(dir);
  return dir;
};

interface Server {
  service: LocalService;
  dataDir: string;
}

/** A real local server on a data directory; it records itself in the directory's lock, which the CLI reads. */
async function startServer(dataDir: string): Promise<Server> {
  const service = await startLocalService({
    dataDir,
    port: 0,
    dashboard: false,
    demoAccounts: false,
    loadRates: loadBundledRates,
  });
  expect(readLock(dataDir)).toMatchObject({
    pid: process.pid,
    dataDir,
    apiUrl: service.url,
    storeEndpoint: service.dynamoEndpoint,
  });
  return { service, dataDir };
}

/** Every item of a store, as DynamoDB JSON, sorted by pk. */
async function itemsAt(endpoint: string): Promise<JsonItem[]> {
  const raw = new DynamoDBClient({
    endpoint,
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  try {
    return await scanItems(raw, LOCAL_ACCOUNTS_TABLE_NAME);
  } finally {
    raw.destroy();
  }
}

/** Every item of a stopped data directory's store, read by opening its files. */
async function itemsOfStoppedStore(dataDir: string): Promise<JsonItem[]> {
  const opened: RunningDynalite = await startDynalite({ path: join(dataDir, 'dynalite') });
  try {
    return await itemsAt(opened.endpoint);
  } finally {
    await opened.close();
  }
}

const pkOf = (item: JsonItem) => ('S' in (item.pk ?? {}) ? (item.pk as { S: string }).S : '');
const ofKind = (items: JsonItem[], prefix: string) => items.filter((item) => pkOf(item).startsWith(prefix));
const countOf = (item: JsonItem | undefined, name: string) => Number((item?.[name] as { N: string } | undefined)?.N);

async function status(server: Server, key: string): Promise<number> {
  const response = await fetch(`${server.service.url}rates/latest`, { headers: { 'X-API-Key': key } });
  await response.arrayBuffer();
  return response.status;
}

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('admin CLI with a real local server', () => {
  let source: Server;
  const onSource = (...args: string[]) => cli([...args, '--data-dir', source.dataDir, '--json']);
  /** Accounts made on the source, with their keys. */
  const made: { pro?: string; proKeys: { key: string; key_id: string }[]; free?: string; freeKey?: string } = {
    proKeys: [],
  };

  beforeAll(async () => {
    source = await startServer(join(tempDir('source'), 'data'));
  });
  afterAll(() => source.service.close());

  it('exits 3 naming the running server when run without its data directory, and creates no .data', async () => {
    const elsewhere = tempDir('cwd');
    const result = await cli(['account', 'create', '--plan', 'pro', '--json'], { cwd: elsewhere });
    const message = refusal(result, 3, 'no-server');
    expect(message).toContain(
      `No fxrates server is running with the data directory ${join(elsewhere, '.data')}, which holds no store.`,
    );
    expect(message).toContain(`${source.dataDir} (${source.service.url})`);
    expect(message).toContain('Point the CLI at one with --data-dir DIR or FXRATES_DATA_DIR');
    expect(existsSync(join(elsewhere, '.data'))).toBe(false);
    expect(ofKind(await itemsAt(source.service.dynamoEndpoint), 'ACCOUNT#')).toEqual([]);
  });

  it('works through the server of --data-dir, and the key it creates is accepted by that server', async () => {
    const limits = ['--per-minute', '100000', '--monthly-limit', '1000000'];
    made.pro = String(ok(await onSource('account', 'create', '--plan', 'pro', ...limits)).account_id);
    for (const name of ['one', 'two', 'three']) {
      const created = ok(await onSource('key', 'create', '--account', made.pro, '--name', name));
      made.proKeys.push({ key: String(created.key), key_id: String(created.key_id) });
    }
    made.free = String(ok(await onSource('account', 'create', '--plan', 'free')).account_id);
    made.freeKey = String(ok(await onSource('key', 'create', '--account', made.free)).key);
    // The same directory through FXRATES_DATA_DIR, from another working directory.
    const viaEnv = await cli(['account', 'show', made.pro, '--json'], {
      env: { FXRATES_DATA_DIR: source.dataDir },
      cwd: tempDir('cwd'),
    });
    expect(ok(viaEnv)).toMatchObject({ account_id: made.pro, active_keys: 3 });

    expect(await status(source, made.proKeys[0]?.key ?? '')).toBe(200);
    expect(await status(source, made.freeKey)).toBe(200);
    // Its last character changed to one it does not end in (one key in 62 ends in x).
    const altered = `${made.freeKey.slice(0, -1)}${made.freeKey.endsWith('x') ? 'y' : 'x'}`;
    expect(await status(source, altered)).toBe(401);
  });

  it('refuses --stopped while the server runs there, naming it', async () => {
    const message = refusal(await onSource('account', 'list', '--stopped'), 3, 'server-running');
    expect(message).toMatch(
      new RegExp(
        `^The fxrates server process ${process.pid} on .* is running with the data directory ${source.dataDir}`,
      ),
    );
    expect(message).toContain(`serving ${source.service.url}; drop --stopped to work through it, or stop it first.`);
  });

  it('does not follow a stale lock and endpoint file to a store another server now holds', async () => {
    const dataDir = tempDir('stale');
    const ended = spawn(process.execPath, ['-e', '0']);
    const pid = await new Promise<number>((done) => ended.once('exit', () => done(ended.pid ?? 0)));
    const record = { pid, hostname: hostname(), startedAt: new Date().toISOString(), dataDir };
    writeFileSync(join(dataDir, LOCK_FILE), JSON.stringify(record));
    writeFileSync(join(dataDir, ENDPOINT_FILE), JSON.stringify({ endpoint: source.service.dynamoEndpoint }));
    const message = refusal(await cli(['account', 'list', '--data-dir', dataDir, '--json']), 3, 'no-server');
    expect(message).toContain(`No fxrates server is running with the data directory ${dataDir}`);
    // Other servers of this user (another test file, someone's npm start) may be listed too: only ours counts here.
    const listed = /Servers running now: (.+?)\. Point the CLI/.exec(message)?.[1]?.split(', ') ?? [];
    expect(listed).toContain(`${source.dataDir} (${source.service.url})`);
    expect(listed.filter((server) => server.startsWith(`${dataDir} `))).toEqual([]);
  });

  describe('set-plan to a plan with a key limit', () => {
    it('is refused with 3 active keys on Free, counting them, and changes neither the plan nor the keys', async () => {
      const accountId = String(made.pro);
      const message = refusal(await onSource('account', 'set-plan', accountId, 'free'), 1, 'too-many-active-keys');
      expect(message).toBe(
        `Account '${accountId}' has 3 active keys; the Free plan allows 1. Revoke 2 of them (npm run admin -- key list --account ${accountId}) and change the plan again.`,
      );
      expect(ok(await onSource('account', 'show', accountId))).toMatchObject({ plan: 'pro', active_keys: 3 });
      const { keys } = ok(await onSource('key', 'list', '--account', accountId)) as { keys: { revoked_at: null }[] };
      expect(keys.map((k) => k.revoked_at)).toEqual([null, null, null]);
      for (const { key } of made.proKeys) expect(await status(source, key)).toBe(200);
    });

    it('is allowed once two are revoked, and then a new key is refused counting the one active', async () => {
      const accountId = String(made.pro);
      for (const { key_id } of made.proKeys.slice(0, 2)) ok(await onSource('key', 'revoke', key_id));
      expect(ok(await onSource('account', 'set-plan', accountId, 'free'))).toMatchObject({
        plan: 'free',
        active_keys: 1,
      });
      const message = refusal(await onSource('key', 'create', '--account', accountId), 1, 'key-limit-reached');
      expect(message).toBe(
        `Account '${accountId}' has 1 active key; the Free plan allows 1. Revoke it (npm run admin -- key list --account ${accountId}) or change the plan before creating another.`,
      );
      ok(await onSource('account', 'set-plan', accountId, 'pro'));
    });
  });

  describe('backup and restore', () => {
    let quiet: string;
    let quietItems: JsonItem[];

    it('backs up while the server serves requests, into a 600 file with the header and every item', async () => {
      // The Pro account's limits were raised at creation, so every request of the traffic is admitted.
      const key = made.proKeys[2]?.key ?? '';
      const before = ofKind(await itemsAt(source.service.dynamoEndpoint), 'USAGE#');
      let serving = true;
      let served = 0;
      const traffic = Promise.all(
        Array.from({ length: 4 }, async () => {
          while (serving) {
            expect(await status(source, key)).toBe(200);
            served++;
          }
        }),
      );
      const file = join(tempDir('backup'), 'during.json');
      const during = ok(await onSource('backup', file));
      serving = false;
      await traffic;
      expect(served).toBeGreaterThan(0);
      expect(statSync(file).mode & 0o777).toBe(0o600);

      const written = JSON.parse(readFileSync(file, 'utf8'));
      expect(written).toMatchObject({
        format: BACKUP_FORMAT,
        version: 1,
        source: { kind: 'local', data_dir: source.dataDir },
        item_count: written.items.length,
        sha256: during.sha256,
      });
      expect(during).toMatchObject({ file, accounts: 2, keys: 4, item_count: written.items.length });
      const after = ofKind(await itemsAt(source.service.dynamoEndpoint), 'USAGE#');
      // Counters read during the traffic lie between what they were before it and after it.
      for (const item of ofKind(written.items, 'USAGE#')) {
        const pk = pkOf(item);
        const low = countOf(
          before.find((b) => pkOf(b) === pk),
          'month_count',
        );
        const high = countOf(
          after.find((a) => pkOf(a) === pk),
          'month_count',
        );
        const value = countOf(item, 'month_count');
        expect(value).toBeGreaterThan(0);
        if (!Number.isNaN(low)) expect(value).toBeGreaterThanOrEqual(low);
        expect(value).toBeLessThanOrEqual(high);
      }
      expect(ofKind(written.items, 'KEY#').map(pkOf)).toEqual(
        ofKind(await itemsAt(source.service.dynamoEndpoint), 'KEY#').map(pkOf),
      );
      expect(readFileSync(file, 'utf8')).not.toContain(made.freeKey);

      quiet = join(tempDir('backup'), 'quiet.json');
      ok(await onSource('backup', quiet));
      quietItems = await itemsAt(source.service.dynamoEndpoint);
    });

    it('restores into a fresh data directory every account, key hash, usage counter and active-key count', async () => {
      const fresh = join(tempDir('fresh'), 'data');
      const restored = ok(await cli(['restore', quiet, '--data-dir', fresh, '--stopped', '--json']));
      expect(restored).toMatchObject({
        accounts: 2,
        keys: 4,
        usage: ofKind(quietItems, 'USAGE#').length,
        items_written: quietItems.length,
        replaced: 0,
        active_keys_recounted: 2,
        active_keys_corrected: 0,
      });
      expect(statSync(fresh).mode & 0o777).toBe(0o700);
      const items = await itemsOfStoppedStore(fresh);
      expect(ofKind(items, 'ACCOUNT#')).toEqual(ofKind(quietItems, 'ACCOUNT#'));
      expect(ofKind(items, 'ACCOUNT#').map((a) => countOf(a, 'active_keys'))).toEqual(
        ofKind(quietItems, 'ACCOUNT#').map((a) => countOf(a, 'active_keys')),
      );
      expect(ofKind(items, 'KEY#').map(pkOf)).toEqual(ofKind(quietItems, 'KEY#').map(pkOf));
      expect(ofKind(items, 'KEY#')).toEqual(ofKind(quietItems, 'KEY#'));
      expect(ofKind(items, 'USAGE#')).toEqual(ofKind(quietItems, 'USAGE#'));
      expect(ofKind(items, 'USAGE#').length).toBeGreaterThan(0);
      expect(items).toEqual(quietItems);

      // The stopped store works with --stopped, and a server started on it accepts the source's keys.
      const shown = ok(await cli(['account', 'show', String(made.pro), '--data-dir', fresh, '--stopped', '--json']));
      expect(shown).toMatchObject({ plan: 'pro', active_keys: 1 });
      const copy = await startServer(fresh);
      try {
        expect(await status(copy, made.proKeys[2]?.key ?? '')).toBe(200);
        expect(await status(copy, made.proKeys[0]?.key ?? '')).toBe(401);
      } finally {
        await copy.service.close();
      }
    });

    it('restores into another running server, which refuses a second restore unless --replace', async () => {
      const target = await startServer(join(tempDir('target'), 'data'));
      try {
        const onTarget = (...args: string[]) => cli([...args, '--data-dir', target.dataDir, '--json']);
        const first = await cli(['restore', quiet, '--data-dir', target.dataDir]);
        expect(first.code).toBe(0);
        expect(first.stdout.trimEnd()).toBe(
          `Restored 2 accounts, 4 keys and ${ofKind(quietItems, 'USAGE#').length} usage items from ${quiet} (backed up ${JSON.parse(readFileSync(quiet, 'utf8')).created_at} from ${source.dataDir}) into the fxrates server running with ${target.dataDir} (process ${process.pid}); active keys recounted for 2 accounts, 0 corrected.`,
        );
        expect(await status(target, made.freeKey ?? '')).toBe(200);

        const message = refusal(await onTarget('restore', quiet), 1, 'target-not-empty');
        expect(message).toBe(
          `The fxrates server running with ${target.dataDir} (process ${process.pid}) already holds 2 accounts and 4 keys (${quietItems.length} of its items have the same keys as items of the backup); nothing was written. Restore into an empty store, or pass --replace to overwrite those items.`,
        );
        const replaced = ok(await onTarget('restore', quiet, '--replace'));
        expect(replaced).toMatchObject({ replaced: quietItems.length, items_written: quietItems.length });
        expect((await itemsAt(target.service.dynamoEndpoint)).map(pkOf)).toEqual(
          (await itemsAt(source.service.dynamoEndpoint)).map(pkOf),
        );
      } finally {
        await target.service.close();
      }
    });

    it('refuses a backup with one byte changed, naming the fault, and writes nothing', async () => {
      const text = readFileSync(quiet, 'utf8');
      const keyPk = pkOf(ofKind(quietItems, 'KEY#')[0] ?? {});
      const at = text.indexOf(keyPk) + keyPk.length - 1;
      const damaged = join(tempDir('damaged'), 'one-byte.json');
      writeFileSync(damaged, `${text.slice(0, at)}${text[at] === '0' ? '1' : '0'}${text.slice(at + 1)}`);
      const before = await itemsAt(source.service.dynamoEndpoint);

      const message = refusal(await onSource('restore', damaged, '--replace'), 1, 'backup-damaged');
      expect(message).toMatch(
        /^The backup .*one-byte\.json is damaged: the SHA-256 of its items is [0-9a-f]{64}, its header says [0-9a-f]{64}\. Nothing was written\.$/,
      );
      expect(await itemsAt(source.service.dynamoEndpoint)).toEqual(before);
      const fresh = join(tempDir('fresh'), 'data');
      refusal(await cli(['restore', damaged, '--data-dir', fresh, '--stopped', '--json']), 1, 'backup-damaged');
      expect(existsSync(fresh)).toBe(false);
    });

    it("restores each account's active-key count from its key items, not the count in the file", async () => {
      const file = JSON.parse(readFileSync(quiet, 'utf8'));
      const items: JsonItem[] = file.items.map((item: JsonItem) =>
        pkOf(item) === `ACCOUNT#${made.free}` ? { ...item, active_keys: { N: '5' } } : item,
      );
      const { sha256 } = buildBackup(items, file.source, file.created_at);
      const edited = join(tempDir('edited'), 'edited.json');
      writeFileSync(edited, JSON.stringify({ ...file, items, sha256 }));
      const fresh = join(tempDir('fresh'), 'data');
      const restored = ok(await cli(['restore', edited, '--data-dir', fresh, '--stopped', '--json']));
      expect(restored).toMatchObject({ active_keys_recounted: 2, active_keys_corrected: 1 });
      const account = (await itemsOfStoppedStore(fresh)).find((item) => pkOf(item) === `ACCOUNT#${made.free}`);
      expect(countOf(account, 'active_keys')).toBe(1);
    });

    it('refuses --stopped on a directory that holds no store, and creates nothing there', async () => {
      const empty = tempDir('empty');
      const message = refusal(
        await cli(['backup', join(empty, 'b.json'), '--data-dir', empty, '--stopped', '--json']),
        3,
        'no-store',
      );
      expect(message).toBe(
        `The data directory ${empty} holds no fxrates store (no dynalite in it); nothing was created. Check --data-dir or FXRATES_DATA_DIR.`,
      );
      expect(existsSync(join(empty, 'dynalite'))).toBe(false);
      expect(existsSync(join(empty, 'b.json'))).toBe(false);
    });
  });
});
