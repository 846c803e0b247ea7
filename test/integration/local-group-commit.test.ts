/**
 * Issue 27: the embedded store writes LevelDB by group commit (local-server/group-commit.ts). What `kill -9` can
 * lose is what was in flight: every request answered before the kill is counted after a restart, and no more
 * are counted than were answered or in flight. The server runs as `npm start` runs it (bin/start.mjs, built
 * JavaScript, with the script's Node flags), which also shows that the built server starts and answers.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { spawnNpmStart } from '../../bench/support/servers-under-load';
import { monthKey } from '../../lambdas/core/domain/quota';
import { AccountsStore } from '../../lambdas/core/store/accounts-store';
import { createDocumentClient } from '../../lambdas/core/store/clients';
import { usageKey } from '../../lambdas/core/store/tables';
import { allDurable, installGroupCommit } from '../../local-server/group-commit';
import { localTableNames } from '../../local-server/local-store';
import { readLock } from '../../local-server/running-servers';
import { levelOfDynalite } from '../support/dynalite-level';

const CONCURRENCY = 16;
const ANSWERS_BEFORE_KILL = 300;

const running: ChildProcess[] = [];
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'fxrates-group-commit-'));
});

afterAll(() => {
  for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

function start(dataDir: string): { child: ChildProcess; url: Promise<string>; exited: Promise<unknown> } {
  const child = spawnNpmStart(dataDir);
  running.push(child);
  let out = '';
  let err = '';
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const url = new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const found = /fxrates is listening on (\S+)/.exec(out)?.[1];
      if (found) resolve(found);
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    void exited.then(() => reject(new Error(`the server exited before it listened: ${err}`)));
  });
  return { child, url, exited };
}

function accountsOf(dataDir: string) {
  const client = createDocumentClient(readLock(dataDir)?.storeEndpoint as string);
  const accounts = new AccountsStore(client, localTableNames().accounts, {
    clock: () => new Date(),
    randomBytes: (n) => randomBytes(n),
  });
  return { client, accounts };
}

it('counts every request answered before kill -9, and none that was neither answered nor in flight', async () => {
  const dataDir = join(dir, 'data');
  const first = start(dataDir);
  const url = await first.url;
  const { client, accounts } = accountsOf(dataDir);
  const accountId = 'group-commit';
  await accounts.createAccount({
    accountId,
    plan: 'business',
    verified: true,
    overrides: { monthlyLimit: 1_000_000, perMinute: 1_000_000 },
  });
  const { key } = await accounts.createKey(accountId, 'kill');
  client.destroy();

  let answered = 0;
  let answeredAtKill = -1;
  const loop = async () => {
    while (answeredAtKill < 0) {
      const response = await fetch(`${url}rates/latest?base=USD`, { headers: { 'X-API-Key': key } }).catch(
        () => undefined,
      );
      if (!response) return;
      await response.arrayBuffer().catch(() => undefined);
      if (response.status !== 200) throw new Error(`answered ${response.status}`);
      if (answeredAtKill >= 0) return;
      answered++;
      if (answered === ANSWERS_BEFORE_KILL) {
        answeredAtKill = answered;
        first.child.kill('SIGKILL');
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, loop));
  await first.exited;
  expect(answeredAtKill).toBe(ANSWERS_BEFORE_KILL);

  const second = start(dataDir);
  await second.url;
  const again = accountsOf(dataDir);
  const usage = await again.client.send(
    new GetCommand({
      TableName: localTableNames().accounts,
      Key: { pk: usageKey(accountId, monthKey(Date.now())) },
      ConsistentRead: true,
    }),
  );
  again.client.destroy();
  const counted = Number(usage.Item?.month_count ?? 0);
  expect(counted).toBeGreaterThanOrEqual(answeredAtKill);
  expect(counted).toBeLessThanOrEqual(answeredAtKill + CONCURRENCY);
  second.child.kill('SIGTERM');
  await second.exited;
}, 60_000);

interface Level {
  open(): Promise<void>;
  close(): Promise<void>;
  put(key: string, value: unknown): Promise<void>;
  del(key: string): Promise<void>;
  batch(operations: { type: 'put' | 'del'; key: string; value?: unknown }[]): Promise<void>;
  get(key: string): Promise<unknown>;
  getMany(keys: string[]): Promise<unknown[]>;
}

it('reads its own unwritten writes, reports when they are on disk, and writes them all before it closes', async () => {
  installGroupCommit();
  const Level = levelOfDynalite<new (path: string, options: object) => Level>();
  const path = join(dir, 'level');
  const db = new Level(path, { valueEncoding: 'json' });
  await db.open();
  const writes: Promise<void>[] = [];
  for (let i = 0; i < 500; i++) writes.push(db.put(`k${i % 50}`, { n: i }));
  writes.push(
    db.del('k0'),
    db.batch([
      { type: 'put', key: 'b', value: 'batched' },
      { type: 'del', key: 'k1' },
    ]),
  );
  await Promise.all(writes);
  // Each put was reported done at once; the newest value of each key is what a read finds, on disk or not.
  expect(await db.get('k49')).toEqual({ n: 499 });
  expect(await db.getMany(['k0', 'k1', 'k2', 'b'])).toEqual([undefined, undefined, { n: 452 }, 'batched']);
  await allDurable();
  expect(allDurable()).toBeUndefined();
  await db.put('last', 1);
  await db.close();

  const reopened = new Level(path, { valueEncoding: 'json' });
  await reopened.open();
  expect(await reopened.getMany(['k49', 'k0', 'k1', 'b', 'last'])).toEqual([
    { n: 499 },
    undefined,
    undefined,
    'batched',
    1,
  ]);
  await reopened.close();
});
