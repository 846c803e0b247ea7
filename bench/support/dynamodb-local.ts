import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * AWS's DynamoDB Local, as shipped inside the npm package amplify-dynamodb-simulator. Only the emulator folder
 * is kept, in a per-user cache, so fresh clones reuse it. Nothing here skips: a missing Java or emulator throws.
 */
export const DYNAMODB_LOCAL_PACKAGE = 'amplify-dynamodb-simulator@2.9.30';

export function cacheDir(): string {
  return process.env.FXRATES_CACHE_DIR ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'fxrates');
}

export function ensureDynamoDbLocal(): string {
  const target = join(cacheDir(), 'dynamodb-local-2.9.30');
  const jar = join(target, 'DynamoDBLocal.jar');
  if (existsSync(jar)) return target;
  const work = join(cacheDir(), `tmp-${process.pid}`);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  try {
    execFileSync('npm', ['pack', DYNAMODB_LOCAL_PACKAGE, '--silent', '--pack-destination', work], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'));
    if (!tarball) throw new Error(`npm pack ${DYNAMODB_LOCAL_PACKAGE} produced no tarball`);
    execFileSync('tar', ['xzf', join(work, tarball), '-C', work, 'package/emulator']);
    rmSync(target, { recursive: true, force: true });
    renameSync(join(work, 'package', 'emulator'), target);
  } catch (error) {
    throw new Error(
      `DynamoDB Local could not be obtained from the npm package ${DYNAMODB_LOCAL_PACKAGE}: ${(error as Error).message}`,
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return target;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitForPort(port: number, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`DynamoDB Local exited with code ${child.exitCode}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST' });
      await res.arrayBuffer();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`DynamoDB Local did not listen on port ${port} within ${timeoutMs} ms`);
}

export interface RunningDynamoDbLocal {
  endpoint: string;
  pid: number;
  stop(): Promise<void>;
}

export async function startDynamoDbLocal(): Promise<RunningDynamoDbLocal> {
  try {
    execFileSync('java', ['-version'], { stdio: 'ignore' });
  } catch {
    throw new Error(
      'DynamoDB Local needs Java (17 or later) on PATH; install a JRE, e.g. the Debian package openjdk-17-jre-headless',
    );
  }
  const dir = ensureDynamoDbLocal();
  const port = await freePort();
  const child = spawn(
    'java',
    [
      `-Djava.library.path=${join(dir, 'DynamoDBLocal_lib')}`,
      '-jar',
      join(dir, 'DynamoDBLocal.jar'),
      '-inMemory',
      '-port',
      String(port),
      '-disableTelemetry',
    ],
    // DynamoDB Local writes dynamodb-local-metadata.json into its working directory: keep it out of the repository.
    { cwd: dir, stdio: 'ignore', detached: false },
  );
  await waitForPort(port, child, 30_000);
  return {
    endpoint: `http://127.0.0.1:${port}`,
    pid: child.pid ?? 0,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
