import { startDynalite } from './dynalite-server';
import { InProcessTransport, type LocalRequest, LocalRequestHandler, operationOf } from './in-process-transport';
import { isStoreCall } from './store-calls';

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
    async handle(request: LocalRequest) {
      const operation = operationOf(request.headers) ?? 'Unknown';
      counts[operation] = (counts[operation] ?? 0) + 1;
      if (isStoreCall(request)) return { response: await dynalite.answer(request) };
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
