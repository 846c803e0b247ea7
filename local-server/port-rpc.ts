import type { MessagePort } from 'node:worker_threads';

/** Either end of a channel between threads: a worker seen from its parent, or a port. */
type Port = Pick<MessagePort, 'postMessage'> & {
  on(event: 'message', listener: (message: unknown) => void): unknown;
};

interface RpcCall {
  id: number;
  method: string;
  payload: unknown;
}

/** An error as it crosses the boundary: its name, message, code and causes (stacks stay in their thread). */
interface ErrorShape {
  name: string;
  message: string;
  code?: string;
  cause?: ErrorShape;
}

interface RpcReply {
  id: number;
  result?: unknown;
  error?: ErrorShape;
}

// biome-ignore lint/suspicious/noExplicitAny: each method declares its own payload type
export type RpcMethods = Record<string, (payload: any) => unknown>;

/** So that a caller can word it as it would an error of its own thread. */
export class RemoteCallError extends Error {
  readonly code: string | undefined;
  constructor(name: string, message: string, code?: string, cause?: Error) {
    super(message, cause ? { cause } : undefined);
    this.name = name;
    this.code = code;
  }

  static of(shape: ErrorShape): RemoteCallError {
    return new RemoteCallError(shape.name, shape.message, shape.code, shape.cause && RemoteCallError.of(shape.cause));
  }
}

/** `fail` rejects every call in flight and every later one, so nothing waits forever on a dead thread. */
export class RpcClient {
  private nextId = 0;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private failure: Error | undefined;

  constructor(private readonly port: Port) {
    port.on('message', (message) => this.settle(message as RpcReply));
  }

  call<T>(method: string, payload?: unknown): Promise<T> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise<T>((resolve, reject) => {
      const id = ++this.nextId;
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      try {
        this.port.postMessage({ id, method, payload } satisfies RpcCall);
      } catch (error) {
        // A payload that cannot be cloned never leaves this thread, so no reply will come for it.
        this.pending.delete(id);
        reject(error);
      }
    });
  }

  fail(error: Error): void {
    this.failure ??= error;
    for (const waiting of this.pending.values()) waiting.reject(this.failure);
    this.pending.clear();
  }

  private settle(reply: RpcReply): void {
    const waiting = this.pending.get(reply.id);
    if (!waiting) return;
    this.pending.delete(reply.id);
    if (reply.error) waiting.reject(RemoteCallError.of(reply.error));
    else waiting.resolve(reply.result);
  }
}

function errorShape(error: unknown, depth = 0): ErrorShape {
  // Duck-typed, not `instanceof Error`: a DOMException (DataCloneError) or an error from another realm is one too.
  const { name, message, code, cause } = (typeof error === 'object' && error !== null ? error : {}) as {
    name?: unknown;
    message?: unknown;
    code?: unknown;
    cause?: unknown;
  };
  if (typeof name !== 'string' || typeof message !== 'string') return { name: 'Error', message: String(error) };
  return {
    name,
    message,
    ...(typeof code === 'string' ? { code } : {}),
    // LevelDB's "Database failed to open" says why only in its causes; a few levels are plenty.
    ...(cause !== undefined && cause !== null && depth < 5 ? { cause: errorShape(cause, depth + 1) } : {}),
  };
}

/** A throwing method, or a result that cannot be cloned, rejects that call only. */
const errorReply = (id: number, error: unknown): RpcReply => ({ id, error: errorShape(error) });

export function serveRpc(port: Port, methods: RpcMethods): void {
  port.on('message', (message) => {
    const call = message as RpcCall;
    const method = methods[call.method];
    new Promise((resolve) => {
      if (!method) throw new Error(`no method '${call.method}' on this thread`);
      resolve(method(call.payload));
    }).then(
      (result) => {
        try {
          port.postMessage({ id: call.id, result } satisfies RpcReply);
        } catch (error) {
          port.postMessage(errorReply(call.id, error));
        }
      },
      (error: unknown) => port.postMessage(errorReply(call.id, error)),
    );
  });
}
