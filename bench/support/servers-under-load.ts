/**
 * The servers the API bench loads: `npm start` itself (bin/start.mjs, over a data directory, offline) and a bare
 * Node HTTP server answering a fixed JSON body, the ceiling of this machine for one Node process; both in
 * processes of their own, loaded by autocannon from a third. Linux's /proc gives each server's CPU time per thread
 * and the memory of its whole process tree (a process left behind by the start counts).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { systemClock } from '../../lambdas/core/domain/dates';
import { API_KEY_HEADER } from '../../lambdas/core/http/headers';
import { AccountsStore } from '../../lambdas/core/store/accounts-store';
import { createDocumentClient } from '../../lambdas/core/store/clients';
import { PROJECT_ROOT } from '../../lib/bundling';
import { localTableNames } from '../../local-server/local-store';
import { readLock } from '../../local-server/running-servers';

export interface LoadResult {
  rate: number;
  total: number;
  p50: number;
  p99: number;
  failures: number;
}

/** autocannon in a node process of its own, so that the load generator shares no event loop with a server. */
export function autocannon(url: string, options: { key?: string; seconds: number; connections: number }) {
  const headers = options.key ? { [API_KEY_HEADER]: options.key } : {};
  const script = `
    const autocannon = require('autocannon');
    const [url, seconds, connections, headers] = process.argv.slice(1);
    autocannon({ url, duration: Number(seconds), connections: Number(connections), headers: JSON.parse(headers) },
      (err, res) => {
        if (err) { console.error(err); process.exit(1); }
        process.stdout.write(JSON.stringify({ rate: res.requests.average, total: res.requests.total,
          p50: res.latency.p50, p99: res.latency.p99, failures: res.non2xx + res.errors + res.timeouts }));
      });`;
  return new Promise<LoadResult>((resolve, reject) => {
    const args = ['-e', script, url, String(options.seconds), String(options.connections), JSON.stringify(headers)];
    const child = spawn(process.execPath, args, { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out) as LoadResult) : reject(new Error(`autocannon exited ${code}`)),
    );
  });
}

/** CPU time (user + system, clock ticks of 10 ms) of each thread of a process, by thread id. */
export function threadTicks(pid: number): Map<number, number> {
  const ticks = new Map<number, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const fields = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      ticks.set(Number(tid), Number(fields[11]) + Number(fields[12]));
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return ticks;
}

/** The process and every process it started, still running. */
function processTree(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const fields = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      parents.set(Number(entry), Number(fields[1]));
    } catch {
      // Ended meanwhile.
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) {
    for (const [child, parent] of parents) if (parent === tree[i]) tree.push(child);
  }
  return tree;
}

/** Resident memory of a process tree in bytes, and how many processes it has. */
export function treeMemory(pid: number): { rss: number; processes: number } {
  const tree = processTree(pid);
  let rss = 0;
  for (const each of tree) {
    try {
      const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${each}/status`, 'utf8'))?.[1];
      rss += Number(kb ?? 0) * 1024;
    } catch {
      // Ended meanwhile.
    }
  }
  return { rss, processes: tree.length };
}

export interface RunningServer {
  url: string;
  pid: number;
  close(): Promise<void>;
}

function waitForLine(child: ChildProcess, pattern: RegExp, what: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const found = pattern.exec(out)?.[1];
      if (found) resolve(found);
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.once('exit', (code) => reject(new Error(`${what} exited with ${code} before it listened: ${err}`)));
  });
}

function stopper(child: ChildProcess): () => Promise<void> {
  return async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
}

/** A bare Node HTTP server that answers every request with a fixed JSON body: the machine's ceiling. */
export async function startCeiling(): Promise<RunningServer> {
  const script = `
    const server = require('node:http').createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end('{"ok":true}');
    });
    server.listen(0, '127.0.0.1', () => console.log('listening on ' + server.address().port));
    process.on('SIGTERM', () => process.exit(0));`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  const port = await waitForLine(child, /listening on (\d+)/, 'the bare server');
  return { url: `http://127.0.0.1:${port}/`, pid: child.pid as number, close: stopper(child) };
}

/**
 * What `npm start` runs, read from its script: the variables it sets (`NAME=value` before `node`) and the arguments
 * it gives node (its flags and bin/start.mjs).
 */
function npmStartCommand(): { env: Record<string, string>; args: string[] } {
  const { scripts } = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  const words = scripts.start.split(/\s+/);
  const node = words.indexOf('node');
  const env = Object.fromEntries(
    words
      .slice(0, node)
      .filter((word) => word.includes('='))
      .map((word) => [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)]),
  );
  return { env, args: words.slice(node + 1) };
}

/**
 * The server exactly as `npm start` runs it (the script's variables and Node flags, without npm and its shell), on
 * `dataDir`, offline, on a free port; `env` adds or overrides variables. Its output is piped.
 */
export function spawnNpmStart(dataDir: string, env: Record<string, string> = {}): ChildProcess {
  const command = npmStartCommand();
  return spawn(process.execPath, command.args, {
    cwd: PROJECT_ROOT,
    env: { ...process.env, ...command.env, FXRATES_DATA_DIR: dataDir, FXRATES_OFFLINE: 'true', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/**
 * `npm start` (bin/start.mjs with the script's Node flags) over `dataDir`, offline, on a free port, with an account whose limits the load cannot
 * reach (so every request is admitted, metered, and answered 200) and a key for it.
 */
export async function startNpmStart(dataDir: string): Promise<RunningServer & { key: string; readyMs: number }> {
  const started = Date.now();
  const child = spawnNpmStart(dataDir);
  const close = stopper(child);
  try {
    const url = await waitForLine(child, /fxrates is listening on (\S+)/, 'npm start');
    const readyMs = Date.now() - started;
    const client = createDocumentClient(readLock(dataDir)?.storeEndpoint);
    const accounts = new AccountsStore(client, localTableNames().accounts, {
      clock: systemClock,
      randomBytes: (n) => randomBytes(n),
    });
    const accountId = `bench-${Date.now()}`;
    await accounts.createAccount({
      accountId,
      plan: 'business',
      verified: true,
      overrides: { monthlyLimit: 1e9, perMinute: 1e9 },
    });
    const { key } = await accounts.createKey(accountId, 'bench');
    client.destroy();
    return { url, key, readyMs, pid: child.pid as number, close };
  } catch (error) {
    await close();
    throw error;
  }
}
