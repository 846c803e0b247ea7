import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { builtDir } from './built';
import { RpcClient } from './port-rpc';

export interface ServiceThread {
  rpc: RpcClient;
  /** Ends the thread; calls in flight and later ones reject. */
  stop(): Promise<void>;
}

/**
 * Starts the local service's store thread (`store-thread.ts`) and returns a client for the methods it serves. If
 * the thread dies, every call to it rejects rather than waiting.
 */
export function startStoreThread(): ServiceThread {
  const name = 'store-thread';
  // Built, the thread starts from its built module; from the sources, through the loader thread-boot.mjs registers.
  const built = builtDir();
  const worker = new Worker(
    built ? join(built, 'local-server', `${name}.js`) : join(import.meta.dirname, 'thread-boot.mjs'),
    {
      ...(built ? {} : { workerData: { entry: join(import.meta.dirname, `${name}.ts`) } }),
      // Under jest, process.env is the test sandbox's copy; hand the thread what this code sees.
      env: { ...process.env },
      // V8 lets each isolate's young generation grow to 48 MiB under a steady allocation rate, and the store's does
      // under load; at 8 MiB the server holds about 27 MiB less after a load run, at the same throughput.
      resourceLimits: { maxYoungGenerationSizeMb: 8 },
    },
  );
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
