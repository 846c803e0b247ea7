import { type MessagePort, parentPort } from 'node:worker_threads';
import { type RunningDynalite, startDynalite } from './dynalite-server';
import { InProcessTransport, operationOf, type TransportRequest } from './in-process-transport';
import { type RpcMethods, serveRpc } from './port-rpc';
import { DYNAMODB_METHOD } from './thread-transport';

/** What `start` answers: where other processes (the admin CLI) reach the store. */
export interface StoreThreadAddress {
  endpoint: string;
  port: number;
}

export interface StoreThreadOptions {
  /** LevelDB directory; in memory without it. */
  path?: string;
}

/** Requests the store answered, by DynamoDB operation (from X-Amz-Target), since the last reset. */
export type StoreRequestCounts = Record<string, number>;

/**
 * The embedded DynamoDB emulator on a thread of its own: the local server's other threads send it their SDK
 * requests over message ports, and other processes reach it on its loopback port.
 */
function storeThreadMethods(): RpcMethods {
  let dynalite: RunningDynalite | undefined;
  let transport: InProcessTransport | undefined;
  let counts: StoreRequestCounts = {};
  const methods: RpcMethods = {
    start: async (options: StoreThreadOptions): Promise<StoreThreadAddress> => {
      if (dynalite) throw new Error('the store thread is already started');
      dynalite = await startDynalite(options.path ? { path: options.path } : {});
      transport = new InProcessTransport(dynalite.listener);
      return { endpoint: dynalite.endpoint, port: dynalite.port };
    },
    [DYNAMODB_METHOD]: async (request: TransportRequest) => {
      if (!transport) throw new Error('the store thread is not started');
      const operation = operationOf(request.headers) ?? 'Unknown';
      counts[operation] = (counts[operation] ?? 0) + 1;
      return (await transport.handle(request)).response;
    },
    /** Serves a port handed over by the parent, so another thread can send requests without passing through it. */
    attach: (port: MessagePort) => {
      serveRpc(port, methods);
    },
    requests: (reset?: boolean): StoreRequestCounts => {
      const answered = counts;
      if (reset) counts = {};
      return answered;
    },
    close: async () => {
      await dynalite?.close();
      dynalite = undefined;
      transport = undefined;
    },
  };
  return methods;
}

if (!parentPort) throw new Error('store-thread runs as a worker thread');
serveRpc(parentPort, storeThreadMethods());
