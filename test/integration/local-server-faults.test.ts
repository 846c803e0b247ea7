/**
 * Issue 16: `npm start` under faults. Each case starts the real server (bin/start.mjs with the start script's
 * Node flags, as `npm start` does) on a temporary data directory, injects a fault, and checks what the user sees on
 * stderr, the exit status, and that nothing in the directory was lost or overwritten.
 *
 * One data directory (`main`) carries the cases that need a loaded store, in order: the race of two servers, the
 * permissions of what the winner wrote, an account written through it, a damaged log and a damaged CURRENT (both
 * refused with the files left byte for byte), then a restart over a stale lock and a stale endpoint file (the
 * account still there), and PORT=''. The others use fresh directories and fail before any data is read.
 */
import { type ChildProcess, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnNpmStart } from '../../bench/support/servers-under-load';
import { SOURCE_IDS } from '../../lambdas/core/domain/rates';
import { AccountsStore } from '../../lambdas/core/store/accounts-store';
import { createDocumentClient } from '../../lambdas/core/store/clients';
import { ENDPOINT_FILE, localTableNames } from '../../local-server/local-store';
import { LOCK_FILE, readLock } from '../../local-server/running-servers';
import { until } from '../support/until';

interface Outcome {
  /** The API's base URL, once the banner says the server listens. */
  url?: string;
  /** The exit status, when the process ended instead. */
  code?: number | null;
}

interface ServerRun {
  child: ChildProcess;
  pid: number;
  stdout(): string;
  stderr(): string;
  /** Resolves when the server listens or the process exits, whichever comes first. */
  outcome: Promise<Outcome>;
  exited: Promise<number | null>;
  /** SIGTERM, and its exit status. */
  stop(): Promise<number | null>;
}

const running: ChildProcess[] = [];
const helpers: Server[] = [];
const directories: string[] = [];

function newDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'fxrates-faults-'));
  directories.push(dir);
  return join(dir, 'data');
}

function serve(dataDir: string, env: Record<string, string> = {}): ServerRun {
  const child = spawnNpmStart(dataDir, env);
  running.push(child);
  let out = '';
  let err = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const outcome = new Promise<Outcome>((resolve) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const url = /fxrates is listening on (\S+)/.exec(out)?.[1];
      if (url) resolve({ url });
    });
    void exited.then((code) => resolve({ code }));
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  if (child.pid === undefined) throw new Error('the server did not start');
  return {
    child,
    pid: child.pid,
    stdout: () => out,
    stderr: () => err,
    outcome,
    exited,
    stop: async () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/** What a refusal must look like: one or two lines on stderr, no stack trace, exit status 1. */
async function refusal(run: ServerRun): Promise<string> {
  const outcome = await run.outcome;
  expect(outcome).toEqual({ code: 1 });
  const lines = run.stderr().trimEnd().split('\n');
  expect(lines.length).toBeLessThanOrEqual(2);
  expect(run.stderr()).not.toMatch(/^\s+at /m);
  expect(lines[0]).toMatch(/^fxrates could not start: /);
  return run.stderr().trimEnd();
}

/** Every file under `dir` with its bytes, and every directory, for before/after comparison. */
function snapshot(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (path: string, relative: string) => {
    for (const name of readdirSync(path).sort()) {
      const full = join(path, name);
      const key = join(relative, name);
      if (statSync(full).isDirectory()) {
        files.set(`${key}/`, 'directory');
        walk(full, key);
      } else files.set(key, readFileSync(full).toString('base64'));
    }
  };
  walk(dir, '');
  return files;
}

async function helperServer(): Promise<{ server: Server; port: number }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.end('some other program');
  });
  helpers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { server, port: (server.address() as AddressInfo).port };
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

function deadPid(): number {
  const ended = spawnSync(process.execPath, ['-e', '']);
  return ended.pid as number;
}

afterAll(async () => {
  for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await Promise.all(helpers.map((server) => new Promise((resolve) => server.close(resolve))));
  for (const dir of directories) {
    chmodSync(dir, 0o700);
    rmSync(dir, { recursive: true, force: true });
  }
});

describe('npm start under faults', () => {
  const main = newDataDir();
  let apiUrl: string;
  let key: string;
  let demoKeys: string;

  it('lets exactly one of two servers started at once on a new directory run; the other names it and exits 1', async () => {
    const port = await freePort();
    const first = serve(main, { PORT: String(port) });
    const second = serve(main, { PORT: String(port) });
    // The port is bound before the data load: meanwhile requests get 503 in the envelope, with Retry-After.
    const whileStarting = (async () => {
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline) {
        const response = await fetch(`http://127.0.0.1:${port}/v1/quota`).catch(() => undefined);
        if (response) return { status: response.status, headers: response.headers, body: await response.json() };
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      return undefined;
    })();
    const outcomes = await Promise.all([first.outcome, second.outcome]);
    const winner = outcomes[0]?.url ? first : second;
    const loser = winner === first ? second : first;
    expect(outcomes.filter((outcome) => outcome.url)).toHaveLength(1);
    const message = await refusal(loser);
    const lock = readLock(main);
    expect(lock?.pid).toBe(winner.pid);
    apiUrl = (await winner.outcome).url as string;
    // The loser asked while the winner was starting, most likely; if not, the message names its URL.
    const state = message.includes('still starting') ? 'still starting' : `serving ${apiUrl}`;
    expect(message).toBe(
      `fxrates could not start: The data directory ${main} is in use by another fxrates server (process ${winner.pid} on ${hostname()}, started ${lock?.startedAt}, ${state}); stop it first, or use another directory with FXRATES_DATA_DIR.`,
    );
    expect(readLock(main)).toMatchObject({ pid: winner.pid, apiUrl, storeEndpoint: expect.any(String) });
    const early = await whileStarting;
    expect(early?.status).toBe(503);
    expect(early?.headers.get('Retry-After')).toBe('1');
    expect(early?.headers.get('X-Request-Id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(early?.body).toEqual({
      success: false,
      error: { code: 'service-unavailable', message: 'The server is starting; retry in a moment.' },
    });
    expect(JSON.parse(readFileSync(join(main, ENDPOINT_FILE), 'utf8'))).toEqual({
      endpoint: readLock(main)?.storeEndpoint,
      pid: winner.pid,
    });

    // What the issue asks of the files: the directory 700, everything in it 600 (directories 700).
    const modes: string[] = [];
    const walk = (path: string) => {
      const mode = statSync(path).mode & 0o777;
      const isDirectory = statSync(path).isDirectory();
      if (mode !== (isDirectory ? 0o700 : 0o600)) modes.push(`${path}: ${mode.toString(8)}`);
      if (isDirectory) for (const name of readdirSync(path)) walk(join(path, name));
    };
    walk(main);
    expect(modes).toEqual([]);
    expect(readdirSync(main).sort()).toEqual(
      ['cognito', 'demo-keys.json', 'dynalite', ENDPOINT_FILE, LOCK_FILE].sort(),
    );

    // An account and a key written through the running server's store, and used once on the API.
    const client = createDocumentClient(readLock(main)?.storeEndpoint as string);
    const accounts = new AccountsStore(client, localTableNames().accounts, {
      clock: () => new Date(),
      randomBytes: (n) => randomBytes(n),
    });
    await accounts.createAccount({ accountId: 'faults-account', plan: 'pro', verified: true, email: 'f@example.com' });
    key = (await accounts.createKey('faults-account', 'faults')).key;
    client.destroy();
    expect((await fetch(`${apiUrl}quota`, { headers: { 'X-API-Key': key } })).status).toBe(200);
    demoKeys = readFileSync(join(main, 'demo-keys.json'), 'utf8');

    expect(await winner.stop()).toBe(0);
    expect(existsSync(join(main, LOCK_FILE))).toBe(false);
    expect(existsSync(join(main, ENDPOINT_FILE))).toBe(false);
  }, 30_000);

  it('refuses a store whose log has overwritten bytes, naming the file and the offset, and changes nothing', async () => {
    const store = join(main, 'dynalite');
    const log = readdirSync(store)
      .filter((name) => name.endsWith('.log'))
      .sort()
      .at(-1) as string;
    const original = readFileSync(join(store, log));
    const at = original.indexOf('faults-account');
    expect(at).toBeGreaterThan(0);
    const damaged = Buffer.from(original);
    damaged.write('XXXX', at + 2, 'latin1');
    writeFileSync(join(store, log), damaged);
    const before = snapshot(main);

    const message = await refusal(serve(main));
    const offset = Number(/has a damaged record at byte (\d+) \(checksum mismatch\)/.exec(message)?.[1]);
    expect(offset).toBeLessThanOrEqual(at);
    expect(message).toBe(
      `fxrates could not start: The local store cannot be read: ${join(store, log)} has a damaged record at byte ${offset} (checksum mismatch). Nothing was changed.\n` +
        `  To recover: restore a backup into a fresh data directory (npm run admin -- restore FILE --data-dir NEW --stopped) and start with FXRATES_DATA_DIR=NEW, or move ${main} aside and start again with a new one.`,
    );
    expect(snapshot(main)).toEqual(before);
    writeFileSync(join(store, log), original);
  }, 20_000);

  it('refuses a store whose CURRENT is damaged, naming it, and changes nothing', async () => {
    const current = join(main, 'dynalite', 'CURRENT');
    const original = readFileSync(current);
    writeFileSync(current, 'MANIFEST-0000\u00ff9\n', 'latin1');
    const before = snapshot(main);
    const message = await refusal(serve(main));
    expect(message.split('\n')[0]).toBe(
      `fxrates could not start: The local store cannot be read: ${current} does not name a MANIFEST file (it holds 'MANIFEST-0000?9'). Nothing was changed.`,
    );
    expect(snapshot(main)).toEqual(before);
    writeFileSync(current, original);
  }, 20_000);

  it('takes over a stale lock and ignores a stale endpoint file where another program answers; nothing was lost', async () => {
    const other = await helperServer();
    const stalePid = deadPid();
    writeFileSync(
      join(main, LOCK_FILE),
      JSON.stringify({ pid: stalePid, hostname: hostname(), startedAt: new Date().toISOString(), dataDir: main }),
    );
    writeFileSync(join(main, ENDPOINT_FILE), JSON.stringify({ endpoint: `http://127.0.0.1:${other.port}` }));
    // A directory left by an earlier version: readable by others. Start-up tightens it and says so.
    chmodSync(main, 0o755);
    chmodSync(join(main, 'demo-keys.json'), 0o644);

    const run = serve(main);
    const { url } = await run.outcome;
    expect(url).toBeDefined();
    expect(run.stderr()).toContain(`note: Tightened the permissions of ${main} (it was 755)`);
    expect(statSync(main).mode & 0o777).toBe(0o700);
    expect(statSync(join(main, 'demo-keys.json')).mode & 0o777).toBe(0o600);
    expect(readLock(main)?.pid).toBe(run.pid);
    expect(JSON.parse(readFileSync(join(main, ENDPOINT_FILE), 'utf8')).pid).toBe(run.pid);
    // The account, its key and the demo keys are all still there.
    expect((await fetch(`${url}quota`, { headers: { 'X-API-Key': key } })).status).toBe(200);
    expect(readFileSync(join(main, 'demo-keys.json'), 'utf8')).toBe(demoKeys);
    const pro = JSON.parse(demoKeys).pro as string;
    expect((await fetch(`${url}quota`, { headers: { 'X-API-Key': pro } })).status).toBe(200);
    expect(await run.stop()).toBe(0);
  }, 20_000);

  it('starts again after kill -9: the lock is stale, the store passes its check, the accounts are all there', async () => {
    const first = serve(main);
    const { url } = await first.outcome;
    const client = createDocumentClient(readLock(main)?.storeEndpoint as string);
    const accounts = new AccountsStore(client, localTableNames().accounts, {
      clock: () => new Date(),
      randomBytes: (n) => randomBytes(n),
    });
    await accounts.createAccount({ accountId: 'killed-account', plan: 'business', verified: true });
    const killedKey = (await accounts.createKey('killed-account', 'killed')).key;
    client.destroy();
    expect((await fetch(`${url}quota`, { headers: { 'X-API-Key': killedKey } })).status).toBe(200);
    first.child.kill('SIGKILL');
    await first.exited;
    expect(readLock(main)?.pid).toBe(first.pid);

    const second = serve(main);
    const restarted = await second.outcome;
    expect(restarted.url).toBeDefined();
    expect(second.stderr()).toBe('');
    for (const each of [key, killedKey]) {
      expect((await fetch(`${restarted.url}quota`, { headers: { 'X-API-Key': each } })).status).toBe(200);
    }
    expect(await second.stop()).toBe(0);
  }, 30_000);

  it("treats PORT='' as unset: port 3000, never a random one", async () => {
    const run = serve(main, { PORT: '' });
    const outcome = await run.outcome;
    if (outcome.url) {
      expect(new URL(outcome.url).port).toBe('3000');
      expect(await run.stop()).toBe(0);
    } else {
      // Something else on this machine holds 3000: then the refusal names it.
      expect(await refusal(run)).toBe(
        'fxrates could not start: Port 3000 on 127.0.0.1 is already in use (by another program); stop it or set PORT to a free port.',
      );
    }
  }, 20_000);

  /** Resolves once the server of `run` holds its lock (bin/serve.ts set its signal handlers before), or it ended. */
  const lockTaken = (run: ServerRun, dataDir: string) =>
    until('the lock', () => existsSync(join(dataDir, LOCK_FILE)) || run.child.exitCode !== null, 20_000);

  it('stops cleanly on SIGTERM during start-up, once start-up ends, and leaves no lock', async () => {
    const run = serve(main);
    await lockTaken(run, main);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    expect(run.stdout()).toContain('SIGTERM: stopping once start-up ends');
    expect(run.stderr()).toBe('');
    expect(existsSync(join(main, LOCK_FILE))).toBe(false);
    expect(existsSync(join(main, ENDPOINT_FILE))).toBe(false);
  }, 20_000);

  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  /** What npm sets for the script it runs: `npm start` forwards each signal it gets to the server. */
  const UNDER_NPM_START = { npm_lifecycle_event: 'start' } as const;

  it("takes npm's copy of a Ctrl-C during start-up for the same keypress though it is handled 1 s later", async () => {
    // A first start: its bundled load keeps the thread busy for seconds, which can hold either handler back.
    const dataDir = newDataDir();
    const run = serve(dataDir, UNDER_NPM_START);
    await lockTaken(run, dataDir);
    run.child.kill('SIGINT');
    await pause(1_000);
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(0);
    expect(run.stdout().match(/SIGINT: stopping once start-up ends/g)).toHaveLength(1);
    expect(run.stdout()).toContain('SIGINT: stopping\n');
    expect(run.stderr()).not.toContain('did not stop cleanly');
    expect(run.stderr()).not.toMatch(/^\s+at /m);
    expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
    expect(existsSync(join(dataDir, ENDPOINT_FILE))).toBe(false);
  }, 60_000);

  it.each([
    ['without npm, at the second signal', {}, 2],
    ['under npm start, at a second keypress (the third signal)', UNDER_NPM_START, 3],
  ])(
    'stops at once on a second Ctrl-C during start-up: %s',
    async (_case, env, signals) => {
      const dataDir = newDataDir();
      const run = serve(dataDir, env);
      await lockTaken(run, dataDir);
      for (let sent = 1; sent < signals; sent++) {
        run.child.kill('SIGINT');
        await pause(200);
      }
      expect(run.child.exitCode).toBeNull();
      run.child.kill('SIGINT');
      expect(await run.exited).toBe(1);
      expect(run.stdout()).toContain('SIGINT: stopping once start-up ends');
      expect(run.stdout()).not.toContain('fxrates is listening on');
    },
    60_000,
  );

  it('refuses a port in use before reading any data: no store, no demo keys', async () => {
    const other = await helperServer();
    const dataDir = newDataDir();
    const started = Date.now();
    const message = await refusal(serve(dataDir, { PORT: String(other.port) }));
    expect(message).toBe(
      `fxrates could not start: Port ${other.port} on 127.0.0.1 is already in use (by another program); stop it or set PORT to a free port.`,
    );
    expect(readdirSync(dataDir)).toEqual([]);
    expect(Date.now() - started).toBeLessThan(10_000);
  }, 20_000);

  it('names the path and the cause when the store cannot be opened', async () => {
    const dataDir = newDataDir();
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    if (process.getuid?.() === 0) {
      // Tests here run as root, whom chmod does not stop: a file where the store's directory should be instead.
      writeFileSync(join(dataDir, 'dynalite'), 'not a directory', { mode: 0o600 });
      const message = await refusal(serve(dataDir));
      expect(message).toBe(
        `fxrates could not start: The local store at ${join(dataDir, 'dynalite')} cannot be opened: EEXIST: file already exists, mkdir '${join(dataDir, 'dynalite')}'.\n` +
          '  A file is where a directory should be: move it aside, or set FXRATES_DATA_DIR to another directory.',
      );
      expect(readFileSync(join(dataDir, 'dynalite'), 'utf8')).toBe('not a directory');
      expect(readdirSync(dataDir)).toEqual(['dynalite']);
    } else {
      chmodSync(dataDir, 0o500);
      const message = await refusal(serve(dataDir));
      expect(message).toMatch(
        new RegExp(
          `^fxrates could not start: The data directory ${dataDir} cannot be used: EACCES: permission denied, .*\\n  This process runs as .+, who may not read or write there`,
        ),
      );
      chmodSync(dataDir, 0o700);
      expect(readdirSync(dataDir)).toEqual([]);
    }
  }, 20_000);

  it('names a HOST that is not an address of this machine', async () => {
    const dataDir = newDataDir();
    const message = await refusal(serve(dataDir, { HOST: '192.0.2.1' }));
    expect(message).toMatch(
      /^fxrates could not start: HOST '192\.0\.2\.1' is not an address of this machine \(.*EADDRNOTAVAIL.*\); set HOST to 127\.0\.0\.1, or to an address one of its network interfaces has\.$/,
    );
    expect(readdirSync(dataDir)).toEqual([]);
  }, 20_000);

  it.each([
    [{ PORT: 'abc' }, "PORT must be a port number from 0 to 65535, not 'abc'."],
    [{ PORT: '70000' }, "PORT must be a port number from 0 to 65535, not '70000'."],
    [{ HOST: 'not a host' }, "HOST must be an IP address or a host name of this machine, not 'not a host'."],
    [{ SOURCES: 'ecb,ecbb' }, `SOURCES must be some of ${SOURCE_IDS.join(', ')}, separated by commas, not 'ecb,ecbb'.`],
    [{ CROSS_CHECK_TOLERANCE: '5%' }, "CROSS_CHECK_TOLERANCE must be a fraction above 0 and at most 1, not '5%'."],
  ])(
    'refuses %j with a message and exit status 1, creating nothing',
    async (env, expected) => {
      const dataDir = newDataDir();
      expect(await refusal(serve(dataDir, env))).toBe(`fxrates could not start: ${expected}`);
      expect(existsSync(dataDir)).toBe(false);
    },
    20_000,
  );
});
