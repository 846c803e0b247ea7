import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
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
