/**
 * Which local server holds which data directory: a lock file naming the process (a stale one, left by `kill -9`, is
 * taken over), and a per-user list so a tool pointed at the wrong directory can name the ones servers run on.
 */
import { createHash } from 'node:crypto';
import { linkSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir, userInfo } from 'node:os';
import { join, resolve } from 'node:path';

export const LOCK_FILE = 'server.lock';

export interface ServerRecord {
  pid: number;
  hostname: string;
  startedAt: string;
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
    const where = holder.apiUrl ? `, serving ${holder.apiUrl}` : ', still starting';
    // A lock of another host cannot be checked from here: if that server is gone, removing the lock is the way.
    const foreign =
      holder.hostname === hostname()
        ? ''
        : `; if no server runs there any more, delete ${join(dataDir, LOCK_FILE)} and start again`;
    super(
      `The data directory ${dataDir} is in use by another fxrates server (process ${holder.pid} on ${holder.hostname}, started ${holder.startedAt}${where}); stop it first, or use another directory with FXRATES_DATA_DIR${foreign}.`,
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

/** From Linux's /proc (field 22 of /proc/<pid>/stat, ticks at 100 per second); undefined elsewhere. */
export function processStartTime(pid: number): Date | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: fields are counted after its end.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[19]);
    const boot = /^btime (\d+)$/m.exec(readFileSync('/proc/stat', 'utf8'))?.[1];
    if (!Number.isFinite(ticks) || boot === undefined) return undefined;
    return new Date((Number(boot) + ticks / 100) * 1000);
  } catch {
    return undefined;
  }
}

/** A process started after the lock only shares its id (in a container, servers often get the same small id). */
function holderRuns(record: ServerRecord): boolean {
  if (!isProcessAlive(record.pid)) return false;
  const lockedAt = Date.parse(record.startedAt);
  const started = processStartTime(record.pid);
  // Two seconds of slack: the boot time is given in whole seconds.
  return started === undefined || Number.isNaN(lockedAt) || started.getTime() <= lockedAt + 2000;
}

/** Data directories this process holds (absolute paths): a lock with this process's id is ours only if listed. */
const heldHere = new Set<string>();

/** The record in a lock or registry file; undefined when it is missing or not one. */
function readRecord(file: string): ServerRecord | undefined {
  try {
    const value = JSON.parse(readFileSync(file, 'utf8')) as Partial<ServerRecord>;
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
  return readRecord(join(dataDir, LOCK_FILE));
}

/** A lock of another host (a directory shared over a network) is taken as held: it cannot be checked. */
export function lockHolder(dataDir: string): ServerRecord | undefined {
  const record = readLock(dataDir);
  if (!record) return undefined;
  if (record.hostname !== hostname()) return record;
  // A lock with this process's id that this process does not hold was left by an earlier process with the same id.
  if (record.pid === process.pid) return heldHere.has(resolve(dataDir)) ? record : undefined;
  return holderRuns(record) ? record : undefined;
}

/** Writes a file whole, then renames it into place: a reader never sees half of it. */
function writeWhole(path: string, text: string): void {
  writeFileSync(`${path}.${process.pid}.tmp`, text, { mode: 0o600 });
  renameSync(`${path}.${process.pid}.tmp`, path);
}

/** The per-user folder listing running servers (one file per process and data directory). */
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

/** Linked into place from a file of its own, so a racer never reads it half-written (and takes it for stale). */
function createExclusively(path: string, text: string): void {
  const temporary = `${path}.${process.pid}.new`;
  writeFileSync(temporary, text, { mode: 0o600 });
  try {
    linkSync(temporary, path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' || !['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV'].includes(code ?? '')) throw error;
    writeFileSync(path, text, { flag: 'wx', mode: 0o600 });
  } finally {
    rmSync(temporary, { force: true });
  }
}

const sameRecord = (a: ServerRecord | undefined, b: ServerRecord | undefined) =>
  a?.pid === b?.pid && a?.startedAt === b?.startedAt && a?.hostname === b?.hostname;

/** Moved aside first (atomic) and linked back if it changed, so two servers never both take the directory. */
function removeStale(path: string, judged: ServerRecord | undefined): void {
  const aside = `${path}.${process.pid}.stale`;
  try {
    renameSync(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    if (!sameRecord(readRecord(aside), judged)) {
      try {
        linkSync(aside, path);
      } catch {
        // Yet another server created a lock meanwhile: the next attempt finds it.
      }
    }
  } finally {
    rmSync(aside, { force: true });
  }
}

/** Throws DataDirInUseError naming the live holder; of two servers starting at once exactly one wins. */
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
      createExclusively(path, `${JSON.stringify(record)}\n`);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const judged = readLock(absolute);
      const holder = lockHolder(absolute);
      if (holder) throw new DataDirInUseError(absolute, holder);
      if (attempt >= 5) throw new Error(`the lock ${path} keeps changing; is another server starting there?`);
      removeStale(path, judged);
    }
  }
  heldHere.add(absolute);
  // One entry per process and directory (a process, a test say, may hold several).
  const entry = join(
    registryDir(),
    `${process.pid}-${createHash('sha256').update(absolute).digest('hex').slice(0, 12)}.json`,
  );
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
      heldHere.delete(absolute);
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
    const record = readRecord(file);
    if (record && isProcessAlive(record.pid) && lockHolder(record.dataDir)?.pid === record.pid) servers.push(record);
    else rmSync(file, { force: true });
  }
  return servers;
}
