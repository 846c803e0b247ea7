import { join } from 'node:path';
import { MessageChannel, Worker } from 'node:worker_threads';
import type { AuthorizerThreadOptions } from './authorizer-thread';
import { RpcClient } from './port-rpc';

export interface ServiceThread {
  rpc: RpcClient;
  /** Ends the thread; calls in flight and later ones reject. */
  stop(): Promise<void>;
}

/**
 * Starts one of the local service's threads (`store-thread`, `authorizer-thread`) and returns a client for the
 * methods it serves. If the thread dies, every call to it rejects rather than waiting.
 */
export function startServiceThread(name: 'store-thread' | 'authorizer-thread'): ServiceThread {
  const worker = new Worker(join(__dirname, 'thread-boot.cjs'), {
    workerData: { entry: join(__dirname, `${name}.ts`) },
    // Under jest, process.env is the test sandbox's copy; hand the thread what this code sees.
    env: { ...process.env },
  });
  const rpc = new RpcClient(worker);
  worker.on('error', (error) => rpc.fail(error));
  worker.on('exit', (code) => rpc.fail(new Error(`the ${name} thread exited with code ${code}`)));
  return {
    rpc,
    stop: async () => {
      await worker.terminate();
    },
  };
}

/**
 * Starts the authorizer on its thread with a port of its own to the store thread, so admission writes do not
 * pass through the thread that serves HTTP.
 */
export async function connectAuthorizer(
  authorizer: ServiceThread,
  store: ServiceThread,
  options: Omit<AuthorizerThreadOptions, 'store'>,
): Promise<void> {
  const { port1, port2 } = new MessageChannel();
  await store.rpc.call('attach', port1, [port1]);
  await authorizer.rpc.call('start', { ...options, store: port2 } satisfies AuthorizerThreadOptions, [port2]);
}
