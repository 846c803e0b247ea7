import { parentPort } from 'node:worker_threads';
import { type EmbeddedStore, openEmbeddedStore, type StoreRequestCounts } from './embedded-store';
import type { TransportRequest } from './in-process-transport';
import { type RpcMethods, serveRpc } from './port-rpc';
import type { StoreCall } from './store-calls';
import { DYNAMODB_METHOD } from './thread-transport';

export type { StoreRequestCounts };

/** What `start` answers: where other processes (the admin CLI) reach the store. */
export interface StoreThreadAddress {
  endpoint: string;
  port: number;
  /** Notes from reading the store's files before opening them (see store-integrity.ts). */
  notes: string[];
}

export interface StoreThreadOptions {
  /** LevelDB directory; in memory without it. */
  path?: string;
}

/**
 * The embedded DynamoDB emulator on a thread of its own: the local server's main thread sends it its SDK requests
 * over the worker's message port, and other processes reach it on its loopback port.
 */
function storeThreadMethods(): RpcMethods {
  let store: EmbeddedStore | undefined;
  return {
    start: async (options: StoreThreadOptions): Promise<StoreThreadAddress> => {
      if (store) throw new Error('the store thread is already started');
      store = await openEmbeddedStore(options.path ? { path: options.path } : {});
      return { endpoint: store.endpoint, port: store.port, notes: store.notes };
    },
    [DYNAMODB_METHOD]: async (request: TransportRequest | StoreCall) => {
      if (!store) throw new Error('the store thread is not started');
      return (await store.transport.handle(request)).response;
    },
    requests: (reset?: boolean): StoreRequestCounts => store?.requests(reset) ?? {},
    close: async () => {
      await store?.close();
      store = undefined;
    },
  };
}

if (!parentPort) throw new Error('store-thread runs as a worker thread');
serveRpc(parentPort, storeThreadMethods());
