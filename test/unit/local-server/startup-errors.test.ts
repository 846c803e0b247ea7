import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { storeIsLocked } from '../../../local-server/local-store';
import { tightenedNotice, tightenPermissions } from '../../../local-server/private-dir';
import {
  causeChain,
  DataDirError,
  describeCause,
  listenError,
  StartupError,
  StoreOpenError,
} from '../../../local-server/startup-errors';
import { StoreDamagedError } from '../../../local-server/store-integrity';
import { prepareStore, tryOpenStore } from '../../../local-server/store-open';

function failure(run: () => Promise<unknown>): Promise<Error> {
  return run().then(
    () => {
      throw new Error('nothing was thrown');
    },
    (error: unknown) => error as Error,
  );
}

describe('what caused an error', () => {
  it('is the innermost cause, with its code', () => {
    const inner = Object.assign(new Error('IO error: /d/CURRENT: Permission denied'), { code: 'LEVEL_IO_ERROR' });
    const outer = Object.assign(new Error('Database failed to open', { cause: inner }), {
      code: 'LEVEL_DATABASE_NOT_OPEN',
    });
    expect(causeChain(outer).map((link) => link.code)).toEqual(['LEVEL_DATABASE_NOT_OPEN', 'LEVEL_IO_ERROR']);
    expect(describeCause(outer)).toBe('IO error: /d/CURRENT: Permission denied (LEVEL_IO_ERROR)');
    const fs = Object.assign(new Error("EACCES: permission denied, mkdir '/x'"), { code: 'EACCES' });
    expect(describeCause(fs)).toBe("EACCES: permission denied, mkdir '/x'");
    expect(describeCause('plain')).toBe('plain');
  });

  it('survives a cause that points back at itself', () => {
    const error = new Error('loop') as Error & { cause?: unknown };
    error.cause = error;
    expect(describeCause(error)).toBe('loop');
  });
});

describe('opening the store', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'fxrates-open-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('names the path and LevelDB\'s cause, never a bare "Database failed to open"', async () => {
    const path = join(dir, 'dynalite');
    await tryOpenStore(path);
    writeFileSync(join(path, 'CURRENT'), 'garbage\n');
    const error = await failure(() => tryOpenStore(path));
    expect(error).toBeInstanceOf(StoreOpenError);
    expect(error.message).toBe(
      `The local store at ${path} cannot be opened: IO error: ${path}/garbage: No such file or directory (LEVEL_IO_ERROR).`,
    );
    // The file check comes first and names what is wrong with CURRENT, before LevelDB reads anything.
    const damaged = await failure(() => prepareStore(path));
    expect(damaged).toBeInstanceOf(StoreDamagedError);
    expect(damaged.message).toContain(`${path}/CURRENT does not name a MANIFEST file (it holds 'garbage')`);
  });

  it('says a file is where the store directory should be', async () => {
    const path = join(dir, 'dynalite');
    writeFileSync(path, 'not a directory');
    const error = await failure(() => prepareStore(path));
    expect(error).toBeInstanceOf(StoreOpenError);
    expect(error.message).toBe(
      `The local store at ${path} cannot be opened: EEXIST: file already exists, mkdir '${path}'.\n` +
        'A file is where a directory should be: move it aside, or set FXRATES_DATA_DIR to another directory.',
    );
    const below = await failure(() => prepareStore(join(path, 'inner')));
    expect(below.message).toContain(`ENOTDIR: not a directory, mkdir '${join(path, 'inner')}'`);
  });

  it('reports a store another process holds open as locked, with its code', async () => {
    const path = join(dir, 'dynalite');
    const requireFromDynalite = createRequire(createRequire(__filename).resolve('dynalite'));
    const { Level } = requireFromDynalite('level') as {
      Level: new (path: string) => { open(): Promise<void>; close(): Promise<void> };
    };
    const holder = new Level(path);
    await holder.open();
    try {
      const error = (await failure(() => tryOpenStore(path))) as StoreOpenError;
      expect(error.code).toBe('LEVEL_LOCKED');
      expect(error.message).toContain(`The local store at ${path} cannot be opened: IO error: lock ${path}/LOCK`);
      expect(error.message).toContain('\nAnother process holds the store open');
      expect(await storeIsLocked(path)).toBe(true);
    } finally {
      await holder.close();
    }
    expect(await storeIsLocked(path)).toBe(false);
  });

  it('words a data directory that cannot be made', () => {
    const cause = Object.assign(new Error("EACCES: permission denied, mkdir '/srv/data'"), { code: 'EACCES' });
    const error = new DataDirError('/srv/data', cause);
    expect(error).toBeInstanceOf(StartupError);
    expect(error.message).toMatch(
      /^The data directory \/srv\/data cannot be used: EACCES: permission denied, mkdir '\/srv\/data'\.\nThis process runs as .+, who may not read or write there: check the owner and permissions of \/srv\/data/,
    );
  });
});

describe('listening', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
  });

  async function listenOn(port: number, host: string): Promise<Server> {
    const server = createServer();
    servers.push(server);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    return server;
  }

  it('names the port in use and what to do', async () => {
    const taken = ((await listenOn(0, '127.0.0.1')).address() as AddressInfo).port;
    const error = await failure(() => listenOn(taken, '127.0.0.1'));
    expect(listenError(error, taken, '127.0.0.1').message).toBe(
      `Port ${taken} on 127.0.0.1 is already in use (by another program); stop it or set PORT to a free port.`,
    );
    expect(listenError(error, taken, '127.0.0.1', 'by the fxrates server of process 7').message).toContain(
      '(by the fxrates server of process 7)',
    );
  });

  it('names a HOST that is not an address of this machine', async () => {
    const error = await failure(() => listenOn(0, '192.0.2.1'));
    expect(listenError(error, 3000, '192.0.2.1').message).toMatch(
      /^HOST '192\.0\.2\.1' is not an address of this machine \(.*EADDRNOTAVAIL.*\); set HOST to 127\.0\.0\.1/,
    );
    const unknown = Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.invalid'), { code: 'ENOTFOUND' });
    expect(listenError(unknown, 3000, 'nowhere.invalid').message).toBe(
      "HOST 'nowhere.invalid' is not an address of this machine (getaddrinfo ENOTFOUND nowhere.invalid); set HOST to 127.0.0.1, or to an address one of its network interfaces has.",
    );
  });
});

describe('tightening the data directory', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'fxrates-perm-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const mode = (path: string) => statSync(path).mode & 0o777;
  const own = (name: string) => ['dynalite', 'demo-keys.json'].includes(name);

  function oldLayout(): void {
    chmodSync(dir, 0o755);
    mkdirSync(join(dir, 'dynalite'), { mode: 0o755 });
    chmodSync(join(dir, 'dynalite'), 0o755);
    writeFileSync(join(dir, 'dynalite', 'CURRENT'), 'x', { mode: 0o644 });
    writeFileSync(join(dir, 'demo-keys.json'), '{}', { mode: 0o644 });
  }

  it('removes group and other permissions from the directory and what fxrates keeps in it, and says so', () => {
    oldLayout();
    const tightened = tightenPermissions(dir, own);
    expect(tightened).toEqual({ changed: 4, directoryWas: '755' });
    expect([dir, join(dir, 'dynalite')].map(mode)).toEqual([0o700, 0o700]);
    expect([join(dir, 'dynalite', 'CURRENT'), join(dir, 'demo-keys.json')].map(mode)).toEqual([0o600, 0o600]);
    expect(tightenedNotice(dir, tightened)).toBe(
      `Tightened the permissions of ${dir} (it was 755) and what fxrates keeps in it: 4 entries that other users could read are now readable by you alone.`,
    );
    expect(tightenedNotice(dir, { changed: 1 })).toBe(
      `Tightened the permissions of what fxrates keeps in ${dir}: 1 entry that other users could read is now readable by you alone.`,
    );
    expect(tightenPermissions(dir, own)).toEqual({ changed: 0 });
    expect(tightenedNotice(dir, { changed: 0 })).toBeUndefined();
  });

  it('leaves the directory itself, and files it did not make, alone when others are in it', () => {
    oldLayout();
    writeFileSync(join(dir, 'notes.txt'), 'mine', { mode: 0o644 });
    const tightened = tightenPermissions(dir, own);
    expect(tightened).toEqual({ changed: 3, leftAlone: '755' });
    expect(mode(dir)).toBe(0o755);
    expect(mode(join(dir, 'notes.txt'))).toBe(0o644);
    expect(mode(join(dir, 'demo-keys.json'))).toBe(0o600);
    expect(tightenedNotice(dir, tightened)).toContain(`${dir} holds files fxrates did not make`);
  });
});
