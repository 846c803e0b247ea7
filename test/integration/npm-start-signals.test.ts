/**
 * `npm start` itself, through npm, stopped the ways a terminal and a supervisor stop it. npm runs the script in a
 * shell and forwards SIGINT and SIGTERM to that shell; a supervisor (systemd, `docker stop`, a CI runner) signals
 * npm alone, and a terminal's Ctrl-C signals the whole foreground process group. Either way the server must stop
 * cleanly (its lock removed) and no process it started may be left running.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../lib/bundling';
import { ENDPOINT_FILE } from '../../local-server/local-store';
import { isProcessAlive, LOCK_FILE, readLock } from '../../local-server/running-servers';
import { until } from '../support/until';

interface NpmRun {
  npm: ChildProcess;
  dataDir: string;
  stdout(): string;
  stderr(): string;
  exited: Promise<void>;
}

const directories: string[] = [];
const groups: number[] = [];

function newDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'fxrates-npm-start-'));
  directories.push(dir);
  return join(dir, 'data');
}

/**
 * npm as the user runs it (the npm that runs this test when there is one), in a process group of its own, on a new
 * data directory (a first start, which loads the bundled data for about 10 s) or on `dataDir` (a restart).
 */
function npmStart(dataDir = newDataDir()): NpmRun {
  const npmCli = process.env.npm_execpath;
  const [command, args] = npmCli?.endsWith('.js') ? [process.execPath, [npmCli, 'start']] : ['npm', ['start']];
  const npm = spawn(command, args, {
    cwd: PROJECT_ROOT,
    env: { ...process.env, FXRATES_DATA_DIR: dataDir, FXRATES_OFFLINE: 'true', PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  if (npm.pid === undefined) throw new Error('npm did not start');
  groups.push(npm.pid);
  let out = '';
  let err = '';
  npm.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  npm.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => npm.on('exit', () => resolve()));
  return { npm, dataDir, stdout: () => out, stderr: () => err, exited };
}

/** The server's process id, from the lock it holds on its data directory. */
async function serverPid(run: NpmRun): Promise<number> {
  await until('the lock', () => readLock(run.dataDir) !== undefined);
  return readLock(run.dataDir)?.pid as number;
}

/** Every process of npm's process group that is still there, npm's own included. */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

afterAll(() => {
  for (const pgid of groups) if (groupAlive(pgid)) process.kill(-pgid, 'SIGKILL');
  for (const dir of directories) rmSync(dir, { recursive: true, force: true });
});

describe('npm start, stopped through npm', () => {
  /** The data directory of the first test's first start, which the second test restarts on. */
  let loaded: string | undefined;

  it('stops the server when npm alone gets SIGTERM, as a supervisor sends it, and leaves nothing running', async () => {
    const run = npmStart();
    await until('the banner', () => run.stdout().includes('fxrates is listening on'));
    const pid = await serverPid(run);
    run.npm.kill('SIGTERM');
    await run.exited;
    await until('the server to end', () => !isProcessAlive(pid), 15_000);
    expect(run.stdout()).toContain('SIGTERM: stopping');
    expect(run.stderr()).not.toContain('did not stop cleanly');
    // A first start loads the bundled data, whose one refused day is named with what it lacks.
    expect(run.stderr()).toContain('  rates rejected for 2024-05-01: missing CHF\n');
    expect(existsSync(join(run.dataDir, LOCK_FILE))).toBe(false);
    expect(existsSync(join(run.dataDir, ENDPOINT_FILE))).toBe(false);
    await until('the process group to end', () => !groupAlive(run.npm.pid as number), 5_000);
    loaded = run.dataDir;
  }, 90_000);

  it('stops once on a Ctrl-C, which reaches npm and the server both', async () => {
    // A restart, when the first test left a stopped store: what a Ctrl-C does to a running server is the same.
    const run = npmStart(loaded);
    await until('the banner', () => run.stdout().includes('fxrates is listening on'));
    const pid = await serverPid(run);
    process.kill(-(run.npm.pid as number), 'SIGINT');
    await run.exited;
    await until('the server to end', () => !isProcessAlive(pid), 15_000);
    expect(run.stdout().match(/SIGINT: stopping/g)).toHaveLength(1);
    expect(run.stderr()).not.toContain('did not stop cleanly');
    expect(existsSync(join(run.dataDir, LOCK_FILE))).toBe(false);
    await until('the process group to end', () => !groupAlive(run.npm.pid as number), 5_000);
  }, 90_000);

  it('treats a Ctrl-C during start-up, delivered by the terminal and again by npm, as one: stops once started', async () => {
    const run = npmStart();
    const pid = await serverPid(run);
    process.kill(-(run.npm.pid as number), 'SIGINT');
    await run.exited;
    await until('the server to end', () => !isProcessAlive(pid), 60_000);
    expect(run.stdout()).toContain('SIGINT: stopping once start-up ends');
    expect(run.stderr()).not.toContain('did not stop cleanly');
    expect(run.stderr()).not.toMatch(/^\s+at /m);
    expect(existsSync(join(run.dataDir, LOCK_FILE))).toBe(false);
    expect(existsSync(join(run.dataDir, ENDPOINT_FILE))).toBe(false);
  }, 90_000);
});
