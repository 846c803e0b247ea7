/**
 * Which local server holds which data directory. A server takes the directory's lock file before it opens anything
 * there and keeps it until it stops; the file names the process, so a second server, the admin CLI and backfill can
 * say who holds it, and a lock left by a process that no longer runs (`kill -9`) is recognised as stale and taken
 * over. Each running server is also listed in a per-user folder, so a tool pointed at the wrong directory can name
 * the directories servers actually run on.
 */
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir, userInfo } from 'node:os';
import { join, resolve } from 'node:path';

/** The lock file in a data directory. */
export const LOCK_FILE = 'server.lock';

export interface ServerRecord {
  pid: number;
  hostname: string;
  /** ISO timestamp. */
  startedAt: string;
  /** Absolute path. */
  dataDir: string;
  /** The public API's base URL, once the server listens. */
  apiUrl?: string;
  /** The embedded store's endpoint for other processes, once it is open. */
  storeEndpoint?: string;
}

/** Another live process holds the data directory. */
export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: ServerRecord,
  ) {
    const where = holder.apiUrl ? `, serving ${holder.apiUrl}` : '';
    super(
      `the data directory ${dataDir} is in use by another fxrates server (process ${holder.pid} on ${holder.hostname}, started ${holder.startedAt}${where}); stop it first, or use another directory with FXRATES_DATA_DIR`,
    );
    this.name = 'DataDirInUseError';
  }
}

/** True when a process with this id runs (or exists but belongs to another user). */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function parseRecord(text: string): ServerRecord | undefined {
  try {
    const value = JSON.parse(text) as Partial<ServerRecord>;
    if (typeof value.pid !== 'number' || typeof value.dataDir !== 'string') return undefined;
    return {
      pid: value.pid,
      hostname: typeof value.hostname === 'string' ? value.hostname : 'unknown',
      startedAt: typeof value.startedAt === 'string' ? value.startedAt : 'unknown',
      dataDir: value.dataDir,
      ...(typeof value.apiUrl === 'string' ? { apiUrl: value.apiUrl } : {}),
      ...(typeof value.storeEndpoint === 'string' ? { storeEndpoint: value.storeEndpoint } : {}),
    };
  } catch {
    return undefined;
  }
}

/** The record in a data directory's lock file, whether or not its process still runs; undefined without one. */
export function readLock(dataDir: string): ServerRecord | undefined {
  try {
    return parseRecord(readFileSync(join(dataDir, LOCK_FILE), 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * The server that holds the data directory now: a lock whose process runs on this host. A lock of another host
 * (a directory shared over a network) is taken as held, since its process cannot be checked from here.
 */
export function lockHolder(dataDir: string): ServerRecord | undefined {
  const record = readLock(dataDir);
  if (!record) return undefined;
  if (record.hostname !== hostname()) return record;
  return isProcessAlive(record.pid) && record.pid !== process.pid ? record : undefined;
}

/** Writes a file whole, then renames it into place: a reader never sees half of it. */
function writeWhole(path: string, text: string): void {
  writeFileSync(`${path}.${process.pid}.tmp`, text, { mode: 0o600 });
  renameSync(`${path}.${process.pid}.tmp`, path);
}

/** The per-user folder listing running servers (one file per process). */
function registryDir(): string {
  let user = 'user';
  try {
    user = String(userInfo().uid >= 0 ? userInfo().uid : userInfo().username);
  } catch {
    // No passwd entry (some containers): one folder for everyone on the machine is still correct, only shared.
  }
  return join(tmpdir(), `fxrates-${user}`, 'servers');
}

export interface HeldDataDir {
  record: ServerRecord;
  /** Adds what became known (the API's URL, the store's endpoint) to the lock and the registry. */
  update(fields: Partial<Pick<ServerRecord, 'apiUrl' | 'storeEndpoint'>>): void;
  release(): void;
}

/**
 * Takes the data directory for this process, or throws DataDirInUseError naming the live holder. The lock file is
 * created exclusively, so of two servers starting at once exactly one wins; a stale lock is replaced.
 */
export function acquireDataDir(dataDir: string, now: () => Date = () => new Date()): HeldDataDir {
  const absolute = resolve(dataDir);
  const path = join(absolute, LOCK_FILE);
  const record: ServerRecord = {
    pid: process.pid,
    hostname: hostname(),
    startedAt: now().toISOString(),
    dataDir: absolute,
  };
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      try {
        writeFileSync(fd, `${JSON.stringify(record)}\n`);
      } finally {
        closeSync(fd);
      }
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 2) throw error;
      const holder = lockHolder(absolute);
      if (holder) throw new DataDirInUseError(absolute, holder);
      // Stale: its process is gone. Removing it and retrying the exclusive create keeps two racers honest.
      rmSync(path, { force: true });
    }
  }
  const entry = join(registryDir(), `${process.pid}.json`);
  const publish = () => {
    writeWhole(path, `${JSON.stringify(record)}\n`);
    try {
      mkdirSync(registryDir(), { recursive: true, mode: 0o700 });
      writeWhole(entry, `${JSON.stringify(record)}\n`);
    } catch {
      // The list only helps tools name other directories; a server runs without it.
    }
  };
  publish();
  let released = false;
  return {
    record,
    update(fields) {
      if (released) return;
      Object.assign(record, fields);
      publish();
    },
    release() {
      if (released) return;
      released = true;
      rmSync(entry, { force: true });
      if (readLock(absolute)?.pid === process.pid) rmSync(path, { force: true });
    },
  };
}

/** The servers running on this host for this user, from the per-user list; entries of ended processes are dropped. */
export function runningServers(): ServerRecord[] {
  let names: string[];
  try {
    names = readdirSync(registryDir()).filter((name) => name.endsWith('.json'));
  } catch {
    return [];
  }
  const servers: ServerRecord[] = [];
  for (const name of names) {
    const file = join(registryDir(), name);
    let record: ServerRecord | undefined;
    try {
      record = parseRecord(readFileSync(file, 'utf8'));
    } catch {
      record = undefined;
    }
    if (record && isProcessAlive(record.pid) && lockHolder(record.dataDir)?.pid === record.pid) servers.push(record);
    else rmSync(file, { force: true });
  }
  return servers;
}
