import {
  exactBytes,
  type LocalRequest,
  LocalRequestHandler,
  type LocalResponse,
  type TransportResponse,
} from './in-process-transport';
import type { RpcClient } from './port-rpc';
import { isStoreCall, type StoreAnswer } from './store-calls';

/** The store thread's method that answers one DynamoDB HTTP request (see `store-thread.ts`). */
export const DYNAMODB_METHOD = 'dynamodb';

/**
 * The request headers the emulator reads (dynalite's request listener): the SDK's others (user agent, invocation id,
 * retry count, content length) would only be copied to the store thread and dropped there.
 */
const EMULATOR_HEADERS = new Set([
  'authorization',
  'content-type',
  'date',
  'x-amz-date',
  'x-amz-target',
  'origin',
  'access-control-request-headers',
  'access-control-request-method',
]);

/**
 * An SDK request handler that hands each DynamoDB request, as the SDK built and signed it, to the store thread,
 * which answers it through the embedded emulator's request listener. Only the parts the emulator reads cross
 * the thread boundary, and a body only with its own bytes.
 */
export class ThreadTransport extends LocalRequestHandler {
  constructor(private readonly store: RpcClient) {
    super();
  }

  async handle(request: LocalRequest): Promise<{ response: LocalResponse }> {
    if (isStoreCall(request)) return { response: await this.store.call<StoreAnswer>(DYNAMODB_METHOD, request) };
    const { method, path, query } = request;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (EMULATOR_HEADERS.has(name.toLowerCase())) headers[name] = value;
    }
    const body = request.body instanceof Uint8Array ? exactBytes(request.body) : request.body;
    const response = await this.store.call<TransportResponse>(DYNAMODB_METHOD, { method, path, query, headers, body });
    return { response };
  }
}
