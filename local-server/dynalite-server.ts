import type { RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import dynalite from 'dynalite';
import { installExpressionCache } from './expression-cache';
import { installGroupCommit, withDurableAnswers } from './group-commit';
import { storeCallAnswerer, withDynaliteStore } from './store-call-answers';
import type { StoreAnswer, StoreCall } from './store-calls';
import type { StoreCheck } from './store-integrity';
import { prepareStore } from './store-open';

export interface RunningDynalite {
  endpoint: string;
  port: number;
  /** The emulator's request listener, for a client in this process to call without a socket. */
  listener: RequestListener;
  /** Answers a store call of a client in this process (store-calls.ts), durably as the listener does. */
  answer(call: StoreCall): Promise<StoreAnswer>;
  /** What reading the store's files found (with `path`): what a crash left and LevelDB ignores, say. */
  check?: StoreCheck;
  close(): Promise<void>;
}

/**
 * dynalite rethrows an error of a request's stream, which ends the thread: a client that goes away before its body
 * is whole (a killed admin CLI, say) would take the store down. Such a request has no one to answer, and dynalite
 * never acts on it without its body's end, so its error is let go.
 */
function survivingClientAborts(listener: RequestListener): RequestListener {
  return (req, res) => {
    listener(req, res);
    req.removeAllListeners('error');
    req.on('error', () => undefined);
  };
}

/**
 * Starts the embedded DynamoDB emulator on a loopback port, so other processes (the admin CLI) can reach it.
 * With `path` the data persists in LevelDB files there, written by group commit (group-commit.ts); without it, in
 * memory. A store whose files are damaged, or
 * that LevelDB cannot open, is refused before dynalite sees it (StoreDamagedError, StoreOpenError: store-open.ts).
 */
export async function startDynalite(
  options: { path?: string; port?: number; host?: string } = {},
): Promise<RunningDynalite> {
  const host = options.host ?? '127.0.0.1';
  const check = options.path ? await prepareStore(options.path) : undefined;
  // On disk, the writes of concurrent requests go to LevelDB together, each answered once its own are there.
  if (options.path) installGroupCommit();
  installExpressionCache();
  const { started: server, store } = withDynaliteStore(() =>
    dynalite({
      createTableMs: 0,
      deleteTableMs: 0,
      updateTableMs: 0,
      ...(options.path ? { path: options.path } : {}),
    }),
  );
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  let listener = survivingClientAborts(server.listeners('request')[0] as RequestListener);
  if (options.path) listener = withDurableAnswers(listener);
  server.removeAllListeners('request');
  server.on('request', listener);
  return {
    endpoint: `http://${host}:${port}`,
    port,
    listener,
    answer: storeCallAnswerer(store, options.path !== undefined),
    ...(check ? { check } : {}),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
