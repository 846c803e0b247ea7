import { startDynalite } from './dynalite-server';
import { InProcessTransport, LocalRequestHandler, operationOf, type TransportRequest } from './in-process-transport';

/** Requests the store answered, by DynamoDB operation (from X-Amz-Target), since the last reset. */
export type StoreRequestCounts = Record<string, number>;

export interface EmbeddedStore {
  /** Where other processes (the admin CLI) reach the store, and the endpoint the SDK signs requests for. */
  endpoint: string;
  port: number;
  /** An SDK request handler that answers through the emulator's request listener, without a socket. */
  transport: LocalRequestHandler;
  requests(reset?: boolean): StoreRequestCounts;
  /** Notes from reading the store's files before opening them (see store-integrity.ts); none in memory. */
  notes: string[];
  close(): Promise<void>;
}

/**
 * The embedded DynamoDB emulator (dynalite) on a loopback port, with a transport for clients in this thread that
 * counts the requests it carries by operation. With `path` the data persists in LevelDB files there.
 */
export async function openEmbeddedStore(options: { path?: string } = {}): Promise<EmbeddedStore> {
  const dynalite = await startDynalite(options.path ? { path: options.path } : {});
  const inProcess = new InProcessTransport(dynalite.listener);
  let counts: StoreRequestCounts = {};
  class CountingTransport extends LocalRequestHandler {
    handle(request: TransportRequest) {
      const operation = operationOf(request.headers) ?? 'Unknown';
      counts[operation] = (counts[operation] ?? 0) + 1;
      return inProcess.handle(request);
    }
  }
  return {
    endpoint: dynalite.endpoint,
    port: dynalite.port,
    transport: new CountingTransport(),
    notes: dynalite.check?.notes ?? [],
    requests: (reset = false) => {
      const answered = counts;
      if (reset) counts = {};
      return answered;
    },
    close: () => dynalite.close(),
  };
}
