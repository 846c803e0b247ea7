/**
 * Lambda functions run as Lambda runs them (cdk.out mode): each execution environment is a child process with exactly
 * its given environment, one invocation at a time; one that outlives the timeout ends its environment, as on Lambda.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { newTraceHeader, type TraceRandomness } from './trace-header';

/** The clock and random bytes of the headers the sandbox makes itself. */
const SYSTEM_TRACE_SOURCE: TraceRandomness = { now: Date.now, randomBytes };

export interface SandboxFunction {
  /** How messages name the function: its logical id and what it serves. */
  label: string;
  /** AWS_LAMBDA_FUNCTION_NAME and the context's functionName. */
  name: string;
  version: string;
  /** The unzipped asset: LAMBDA_TASK_ROOT and the working directory. */
  codeDir: string;
  timeoutSeconds: number;
  memorySize: number;
  environment: Readonly<Record<string, string>>;
  invokedFunctionArn: string;
  logGroupName: string;
}

/** A function error as Lambda reports it to its caller: an error type and message, and the function it came from. */
export class LambdaInvokeError extends Error {
  override readonly name = 'LambdaInvokeError';
  constructor(
    readonly functionLabel: string,
    readonly errorType: string,
    readonly errorMessage: string,
  ) {
    super(`${functionLabel}: ${errorType}: ${errorMessage}`);
  }
}

export interface SandboxOptions {
  /** Execution environments of this function that may run at once; more requests wait (default 2). */
  maxEnvironments?: number;
  /** Each line the function writes to stdout or stderr (its CloudWatch log on Lambda). */
  onLog?: (label: string, line: string) => void;
}

/** Lambda's limit on a function's init phase. */
const INIT_LIMIT_MS = 10_000;

const RUNTIME_ENTRY = join(import.meta.dirname, 'lambda-runtime.mjs');

type RuntimeMessage =
  | { type: 'ready' }
  | { type: 'init-error'; errorType: string; errorMessage: string }
  | { type: 'result'; id: string; payload: unknown }
  | { type: 'error'; id: string; errorType: string; errorMessage: string };

function forwardLines(stream: Readable | null, emit: (line: string) => void): void {
  if (stream) createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY }).on('line', emit);
}

/** One execution environment: a child process that has loaded the function, or failed to. */
class Environment {
  private readonly child: ChildProcess;
  private exited = false;
  /** Killed, or about to be: never handed another invocation, even before its exit is seen. */
  private retired = false;
  private readonly exitHandlers = new Set<(code: number | null, signal: NodeJS.Signals | null) => void>();

  constructor(
    private readonly fn: SandboxFunction,
    onLog: (line: string) => void,
  ) {
    this.child = fork(RUNTIME_ENTRY, [], {
      cwd: fn.codeDir,
      env: { ...fn.environment },
      // Only what the environment's NODE_OPTIONS says: none of this process's flags (jest's, tsx's loader).
      execArgv: [],
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      serialization: 'json',
    });
    forwardLines(this.child.stdout, onLog);
    forwardLines(this.child.stderr, onLog);
    this.child.on('exit', (code, signal) => {
      this.exited = true;
      for (const handler of this.exitHandlers) handler(code, signal);
    });
    // A failed spawn is reported through 'exit' as well; without this listener it would be thrown.
    this.child.on('error', () => undefined);
  }

  get alive(): boolean {
    return !this.exited && !this.retired;
  }

  /** Waits for the init phase: resolves once the handler is loaded, rejects with Lambda's init error otherwise. */
  async init(): Promise<void> {
    await this.exchange(INIT_LIMIT_MS, `init did not finish within ${INIT_LIMIT_MS / 1000} s`, (message) => {
      if (message.type === 'ready') return { done: true, value: undefined };
      if (message.type === 'init-error') {
        return { done: true, error: new LambdaInvokeError(this.fn.label, message.errorType, message.errorMessage) };
      }
      return { done: false };
    });
  }

  invoke(event: unknown, requestId: string, traceHeader: string): Promise<unknown> {
    const id = randomUUID();
    const timeoutMs = this.fn.timeoutSeconds * 1000;
    const deadline = Date.now() + timeoutMs;
    const answer = this.exchange(
      timeoutMs,
      `Task timed out after ${this.fn.timeoutSeconds.toFixed(2)} seconds`,
      (message) => {
        if (message.type === 'result' && message.id === id) return { done: true, value: message.payload };
        if (message.type === 'error' && message.id === id) {
          return { done: true, error: new LambdaInvokeError(this.fn.label, message.errorType, message.errorMessage) };
        }
        return { done: false };
      },
    );
    this.child.send({
      type: 'invoke',
      id,
      event,
      deadline,
      traceHeader,
      context: {
        functionName: this.fn.name,
        functionVersion: this.fn.version,
        invokedFunctionArn: this.fn.invokedFunctionArn,
        memoryLimitInMB: String(this.fn.memorySize),
        awsRequestId: requestId,
        logGroupName: this.fn.logGroupName,
        logStreamName: this.fn.environment.AWS_LAMBDA_LOG_STREAM_NAME,
      },
    });
    return answer;
  }

  /** Past `limitMs` the environment is ended, as Lambda ends one whose invocation timed out. */
  private exchange(
    limitMs: number,
    timeoutMessage: string,
    accept: (message: RuntimeMessage) => { done: false } | { done: true; value?: unknown; error?: Error },
  ): Promise<unknown> {
    return new Promise((resolve, reject) => {
      if (this.exited) {
        reject(new LambdaInvokeError(this.fn.label, 'Runtime.ExitError', 'the execution environment has ended'));
        return;
      }
      const finish = (outcome: { value?: unknown; error?: Error }) => {
        clearTimeout(timer);
        this.child.off('message', onMessage);
        this.exitHandlers.delete(onExit);
        if (outcome.error) reject(outcome.error);
        else resolve(outcome.value);
      };
      const onMessage = (message: RuntimeMessage) => {
        const verdict = accept(message);
        if (verdict.done) finish(verdict);
      };
      const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
        finish({
          error: new LambdaInvokeError(
            this.fn.label,
            'Runtime.ExitError',
            `the execution environment exited (${signal ? `signal ${signal}` : `status ${code}`})`,
          ),
        });
      const timer = setTimeout(() => {
        finish({ error: new LambdaInvokeError(this.fn.label, 'Sandbox.Timedout', timeoutMessage) });
        this.kill();
      }, limitMs);
      this.child.on('message', onMessage);
      this.exitHandlers.add(onExit);
    });
  }

  kill(): void {
    this.retired = true;
    if (!this.exited) this.child.kill('SIGKILL');
  }

  stop(): Promise<void> {
    if (this.exited) return Promise.resolve();
    return new Promise((resolve) => {
      this.exitHandlers.add(() => resolve());
      this.kill();
    });
  }
}

/** An invocation takes an idle environment, or starts one while fewer than `maxEnvironments` run, or waits. */
export class LambdaSandbox {
  private readonly idle: Environment[] = [];
  private readonly all = new Set<Environment>();
  private readonly waiting: { resolve: (environment: Environment) => void; reject: (error: Error) => void }[] = [];
  private closed = false;
  private readonly maxEnvironments: number;
  private readonly onLog: (line: string) => void;

  constructor(
    readonly fn: SandboxFunction,
    options: SandboxOptions = {},
  ) {
    this.maxEnvironments = options.maxEnvironments ?? 2;
    const onLog = options.onLog ?? ((label: string, line: string) => console.log(`[${label}] ${line}`));
    this.onLog = (line) => onLog(fn.label, line);
  }

  /** Starts one environment and runs its init, so that a function that cannot start fails now (start-up). */
  async warm(): Promise<void> {
    const environment = await this.start();
    this.release(environment);
  }

  /**
   * `traceHeader` is one the caller passes on, as API Gateway passes its own when the stage is traced. Without it
   * the invocation gets a new, unsampled one, as Lambda makes one when the request brought none.
   */
  async invoke(event: unknown, requestId: string, traceHeader?: string): Promise<unknown> {
    const environment = await this.acquire();
    try {
      const header = traceHeader ?? newTraceHeader(SYSTEM_TRACE_SOURCE);
      return await environment.invoke(event, requestId, header);
    } finally {
      this.release(environment);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const waiter of this.waiting.splice(0)) waiter.reject(this.stoppedError());
    await Promise.all([...this.all].map((environment) => environment.stop()));
    this.all.clear();
    this.idle.length = 0;
  }

  private stoppedError(): LambdaInvokeError {
    return new LambdaInvokeError(this.fn.label, 'Runtime.ExitError', 'the local gateway has stopped');
  }

  private async start(): Promise<Environment> {
    const environment = new Environment(this.fn, this.onLog);
    this.all.add(environment);
    try {
      await environment.init();
      return environment;
    } catch (error) {
      this.all.delete(environment);
      await environment.stop();
      throw error;
    }
  }

  private async acquire(): Promise<Environment> {
    if (this.closed) throw this.stoppedError();
    for (;;) {
      const environment = this.idle.pop();
      if (!environment) break;
      if (environment.alive) return environment;
      this.all.delete(environment);
    }
    if (this.all.size < this.maxEnvironments) return this.start();
    return new Promise<Environment>((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  private release(environment: Environment): void {
    if (!environment.alive || this.closed) {
      this.all.delete(environment);
      environment.kill();
      // A waiter may now start an environment of its own in the freed place.
      const waiter = this.waiting.shift();
      if (waiter) this.start().then(waiter.resolve, waiter.reject);
      return;
    }
    const waiter = this.waiting.shift();
    if (waiter) waiter.resolve(environment);
    else this.idle.push(environment);
  }
}
