import { exactBytes, LocalRequestHandler, type TransportRequest, type TransportResponse } from './in-process-transport';
import type { RpcClient } from './port-rpc';

/** The store thread's method that answers one DynamoDB HTTP request (see `store-thread.ts`). */
export const DYNAMODB_METHOD = 'dynamodb';

/**
 * An SDK request handler that hands each DynamoDB request, as the SDK built and signed it, to the store thread,
 * which answers it through the embedded emulator's request listener. Only the parts the emulator reads cross
 * the thread boundary, and a body only with its own bytes.
 */
export class ThreadTransport extends LocalRequestHandler {
  constructor(private readonly store: RpcClient) {
    super();
  }

  async handle(request: TransportRequest): Promise<{ response: TransportResponse }> {
    const { method, path, query, headers } = request;
    const body = request.body instanceof Uint8Array ? exactBytes(request.body) : request.body;
    const response = await this.store.call<TransportResponse>(DYNAMODB_METHOD, { method, path, query, headers, body });
    return { response };
  }
}
