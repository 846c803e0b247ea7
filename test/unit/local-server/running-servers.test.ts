import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  acquireDataDir,
  DataDirInUseError,
  isProcessAlive,
  LOCK_FILE,
  lockHolder,
  processStartTime,
  readLock,
  runningServers,
  type ServerRecord,
} from '../../../local-server/running-servers';

/** The id of a process that has ended. */
function deadPid(): number {
  const ended = spawnSync(process.execPath, ['-e', '']);
  if (ended.pid === undefined) throw new Error('no process started');
  return ended.pid;
}

function lockOf(dataDir: string, record: Partial<ServerRecord>): void {
  const full: ServerRecord = {
    pid: deadPid(),
    hostname: hostname(),
    startedAt: new Date().toISOString(),
    dataDir,
    ...record,
  };
  writeFileSync(join(dataDir, LOCK_FILE), `${JSON.stringify(full)}\n`);
}

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('nothing was thrown');
}

describe('the lock of a data directory', () => {
  let dataDir: string;
  const children: ChildProcess[] = [];
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'fxrates-lock-'));
  });
  afterEach(() => {
    for (const child of children.splice(0)) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** A live process that is not an fxrates server (it started just now). */
  function otherProcess(): number {
    const child = spawn('sleep', ['30'], { stdio: 'ignore' });
    children.push(child);
    if (child.pid === undefined) throw new Error('sleep did not start');
    return child.pid;
  }

  it('is taken with a record of this process, readable by its owner only, and removed on release', () => {
    const at = new Date('2026-11-20T10:00:00.000Z');
    const held = acquireDataDir(dataDir, () => at);
    const path = join(dataDir, LOCK_FILE);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readLock(dataDir)).toEqual({ pid: process.pid, hostname: hostname(), startedAt: at.toISOString(), dataDir });
    expect(lockHolder(dataDir)?.pid).toBe(process.pid);
    held.update({ storeEndpoint: 'http://127.0.0.1:4567' });
    held.update({ apiUrl: 'http://127.0.0.1:3000/v1/' });
    expect(readLock(dataDir)).toMatchObject({
      storeEndpoint: 'http://127.0.0.1:4567',
      apiUrl: 'http://127.0.0.1:3000/v1/',
    });
    held.release();
    expect(existsSync(path)).toBe(false);
    expect(lockHolder(dataDir)).toBeUndefined();
    held.release();
  });

  it('refuses a second holder, naming the first: process, host, start time and URL', () => {
    const held = acquireDataDir(dataDir, () => new Date('2026-11-20T10:00:00.000Z'));
    held.update({ apiUrl: 'http://127.0.0.1:3000/v1/' });
    try {
      const error = thrown(() => acquireDataDir(dataDir));
      expect(error).toBeInstanceOf(DataDirInUseError);
      expect((error as Error).message).toBe(
        `The data directory ${dataDir} is in use by another fxrates server (process ${process.pid} on ${hostname()}, started 2026-11-20T10:00:00.000Z, serving http://127.0.0.1:3000/v1/); stop it first, or use another directory with FXRATES_DATA_DIR.`,
      );
    } finally {
      held.release();
    }
  });

  it('takes over a lock whose process has ended', () => {
    const pid = deadPid();
    lockOf(dataDir, { pid });
    expect(isProcessAlive(pid)).toBe(false);
    expect(lockHolder(dataDir)).toBeUndefined();
    const held = acquireDataDir(dataDir);
    expect(readLock(dataDir)?.pid).toBe(process.pid);
    held.release();
  });

  it('takes over a lock whose process id now belongs to a process started after the lock was taken', () => {
    const pid = otherProcess();
    lockOf(dataDir, { pid, startedAt: new Date(Date.now() - 3_600_000).toISOString() });
    expect(isProcessAlive(pid)).toBe(true);
    // Where the system does not tell when a process started, a live process keeps the lock.
    const knowsStartTimes = processStartTime(pid) !== undefined;
    expect(knowsStartTimes).toBe(process.platform === 'linux');
    if (!knowsStartTimes) return;
    expect(lockHolder(dataDir)).toBeUndefined();
    acquireDataDir(dataDir).release();
  });

  it('is held by a live process that took it after it started', () => {
    const pid = otherProcess();
    lockOf(dataDir, { pid, startedAt: new Date(Date.now() + 60_000).toISOString() });
    expect(lockHolder(dataDir)?.pid).toBe(pid);
    const error = thrown(() => acquireDataDir(dataDir)) as DataDirInUseError;
    expect(error).toBeInstanceOf(DataDirInUseError);
    expect(error.holder.pid).toBe(pid);
    expect(error.message).toContain(`process ${pid} on ${hostname()}`);
    expect(error.message).toContain('still starting');
  });

  it('takes a lock of another host as held, and says how to take the directory over if that server is gone', () => {
    lockOf(dataDir, { hostname: 'elsewhere.example' });
    const error = thrown(() => acquireDataDir(dataDir)) as Error;
    expect(error).toBeInstanceOf(DataDirInUseError);
    expect(error.message).toContain('on elsewhere.example');
    expect(error.message).toContain(`delete ${join(dataDir, LOCK_FILE)} and start again`);
  });

  it("takes over a lock with this process's id that this process does not hold (an earlier process had the id)", () => {
    lockOf(dataDir, { pid: process.pid, startedAt: '2020-01-01T00:00:00.000Z' });
    expect(lockHolder(dataDir)).toBeUndefined();
    acquireDataDir(dataDir).release();
  });

  it('takes over a lock file that holds no record', () => {
    writeFileSync(join(dataDir, LOCK_FILE), 'not json');
    const held = acquireDataDir(dataDir);
    expect(readLock(dataDir)?.pid).toBe(process.pid);
    held.release();
  });

  it('does not remove a lock on release that another process took since', () => {
    const held = acquireDataDir(dataDir);
    const pid = otherProcess();
    lockOf(dataDir, { pid, startedAt: new Date(Date.now() + 60_000).toISOString() });
    held.release();
    expect(readLock(dataDir)?.pid).toBe(pid);
  });

  it.each([
    ['a new directory', false],
    ['a directory whose lock is stale', true],
  ])(
    'lets exactly one of several processes starting at once take %s, the others naming it',
    async (_, stale) => {
      if (stale) lockOf(dataDir, {});
      const module = join(__dirname, '../../../local-server/running-servers.ts');
      // Each process says it is ready, takes the directory when told to go (all at once), and holds it until its
      // input ends, so that none can take it after another released it.
      const script = `
      const { acquireDataDir } = await import(${JSON.stringify(module)});
      console.log('ready');
      process.stdin.once('data', () => {
        let held;
        try {
          held = acquireDataDir(${JSON.stringify(dataDir)});
          console.log('won ' + process.pid);
        } catch (error) {
          console.log('lost ' + error.name + ' ' + error.message);
        }
        process.stdin.on('end', () => held?.release());
        process.stdin.resume();
      });`;
      const racers = Array.from({ length: 4 }, () => {
        const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
          stdio: ['pipe', 'pipe', 'inherit'],
        });
        children.push(child);
        const lines: string[] = [];
        const waiters: (() => void)[] = [];
        child.stdout?.on('data', (chunk: Buffer) => {
          lines.push(...chunk.toString().trim().split('\n'));
          for (const wake of waiters.splice(0)) wake();
        });
        const line = async (index: number): Promise<string> => {
          while (lines.length <= index) await new Promise<void>((resolve) => waiters.push(resolve));
          return lines[index] as string;
        };
        const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
        return { child, line, exited };
      });
      for (const racer of racers) expect(await racer.line(0)).toBe('ready');
      for (const racer of racers) racer.child.stdin?.write('go\n');
      const outputs = await Promise.all(racers.map((racer) => racer.line(1)));
      for (const racer of racers) racer.child.stdin?.end();
      await Promise.all(racers.map((racer) => racer.exited));
      const winners = outputs.filter((line) => line.startsWith('won '));
      expect(winners).toHaveLength(1);
      const winner = (winners[0] as string).slice(4);
      for (const line of outputs.filter((output) => !output.startsWith('won '))) {
        expect(line).toMatch(/^lost DataDirInUseError /);
        expect(line).toContain(`process ${winner} on ${hostname()}`);
      }
      expect(existsSync(join(dataDir, LOCK_FILE))).toBe(false);
    },
    30_000,
  );

  it('lists the servers running now, with what they recorded, and drops them once released', () => {
    const held = acquireDataDir(dataDir);
    held.update({ apiUrl: 'http://127.0.0.1:3999/v1/' });
    expect(runningServers()).toContainEqual(expect.objectContaining({ dataDir, apiUrl: 'http://127.0.0.1:3999/v1/' }));
    held.release();
    expect(runningServers().some((server) => server.dataDir === dataDir)).toBe(false);
  });
});

describe('processes', () => {
  it('tells a live process from an ended one and from ids that name none', () => {
    expect(isProcessAlive(process.pid)).toBe(true);
    expect(isProcessAlive(deadPid())).toBe(false);
    for (const pid of [0, -1, Number.NaN, 1.5]) expect(isProcessAlive(pid)).toBe(false);
  });

  it('knows when a process started, on Linux, to about a second', () => {
    const started = processStartTime(process.pid);
    if (process.platform !== 'linux') {
      expect(started).toBeUndefined();
      return;
    }
    const expected = Date.now() - process.uptime() * 1000;
    expect(Math.abs((started?.getTime() ?? 0) - expected)).toBeLessThan(2500);
    expect(processStartTime(deadPid())).toBeUndefined();
  });
});

describe('the lock file as written', () => {
  it('is one JSON object on one line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fxrates-lock-'));
    try {
      const held = acquireDataDir(dir);
      const text = readFileSync(join(dir, LOCK_FILE), 'utf8');
      expect(text.endsWith('\n')).toBe(true);
      expect(text.trim().split('\n')).toHaveLength(1);
      held.release();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
