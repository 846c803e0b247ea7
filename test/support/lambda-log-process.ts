/**
 * Runs a function's bundle, built exactly as the CDK asset is (lib/bundling.ts), in a child node process that
 * stands in for Lambda's runtime (lambda-log-runtime.ts), and keeps what Lambda would store in the function's log
 * group: each line the process writes to stdout or stderr is one log event.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { build } from 'esbuild';
import { esbuildOptions, type FunctionName, PROJECT_ROOT } from '../../lib/bundling';
import { type LambdaLogFormat, LOG_FORMAT_ENV } from './lambda-console';
import type { InvokeMessage, ReplyMessage } from './lambda-log-runtime';

/** Builds the function's bundle into `dir` with the deployed options; returns the bundle's path. */
export async function buildFunctionBundle(name: FunctionName, dir: string): Promise<string> {
  const file = join(dir, name, 'index.js');
  await build({ ...esbuildOptions(name, file), logLevel: 'silent' });
  return file;
}

export interface LambdaLogProcess {
  /** Invokes the handler once; resolves with its answer after every line of the invocation arrived. */
  invoke(event: unknown, requestId?: string): Promise<unknown>;
  /** The log events stored so far, oldest first. */
  readonly events: readonly string[];
  close(): Promise<void>;
}

export interface LambdaLogProcessOptions {
  bundle: string;
  /** The function's environment, as the template gives it; nothing of the test process's own is passed on. */
  environment: Record<string, string>;
  logFormat: LambdaLogFormat;
  /** Scratch directory for the stand-in runtime's own build. */
  dir: string;
  timeoutMs?: number;
}

async function buildRuntime(dir: string): Promise<string> {
  const file = join(dir, 'lambda-log-runtime.cjs');
  await build({
    entryPoints: [join(PROJECT_ROOT, 'test', 'support', 'lambda-log-runtime.ts')],
    outfile: file,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'silent',
  });
  return file;
}

/** The platform's end line of one invocation, in either log format. */
function isEndOf(line: string, requestId: string): boolean {
  if (line === `END RequestId: ${requestId}`) return true;
  try {
    const record = JSON.parse(line) as { type?: string; record?: { requestId?: string } } | null;
    return record?.type === 'platform.runtimeDone' && record.record?.requestId === requestId;
  } catch {
    return false;
  }
}

export async function startLambdaLogProcess(options: LambdaLogProcessOptions): Promise<LambdaLogProcess> {
  const runtime = await buildRuntime(options.dir);
  const child: ChildProcess = fork(runtime, [options.bundle], {
    execArgv: [],
    env: { PATH: process.env.PATH ?? '', ...options.environment, [LOG_FORMAT_ENV]: options.logFormat },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  const events: string[] = [];
  const lineWaiters = new Set<() => void>();
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) throw new Error('the child has no output pipe');
    createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY }).on('line', (line) => {
      events.push(line);
      for (const waiter of lineWaiters) waiter();
    });
  }
  const untilLine = (predicate: (line: string) => boolean) =>
    new Promise<void>((resolve) => {
      const check = () => {
        if (!events.some(predicate)) return;
        lineWaiters.delete(check);
        resolve();
      };
      lineWaiters.add(check);
      check();
    });

  const replies = new Map<number, (message: ReplyMessage) => void>();
  const exited = new Promise<never>((_, reject) => {
    child.once('exit', (code) =>
      reject(new Error(`the function's process exited with code ${code}:\n${events.join('\n')}`)),
    );
  });
  exited.catch(() => undefined);
  const ready = new Promise<void>((resolve) => {
    child.on('message', (message: ReplyMessage) => {
      if (message.kind === 'ready') resolve();
      else replies.get(message.invokeId)?.(message);
    });
  });
  await Promise.race([ready, exited]);

  let nextInvoke = 0;
  return {
    events,
    invoke: async (event, requestId = `req-${nextInvoke + 1}`) => {
      const invokeId = ++nextInvoke;
      const answered = new Promise<ReplyMessage>((resolve) => replies.set(invokeId, resolve));
      const message: InvokeMessage = { invokeId, requestId, event, timeoutMs: options.timeoutMs ?? 5_000 };
      child.send(message);
      const reply = await Promise.race([answered, exited]);
      replies.delete(invokeId);
      // The platform's end line is written after the function's last line of this invocation.
      await Promise.race([untilLine((line) => isEndOf(line, requestId)), exited]);
      if (reply.kind === 'error') throw new Error(`${reply.errorType}: ${reply.errorMessage}`);
      if (reply.kind !== 'result') throw new Error(`unexpected reply ${JSON.stringify(reply)}`);
      return reply.result;
    },
    close: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill();
      await gone;
    },
  };
}
