import {
  type LocalRequest,
  type LocalResponse,
  operationOf,
  type TransportResponse,
} from '../../local-server/in-process-transport';
import type { StoreTransport } from '../../local-server/local-authorizer';

/**
 * What the store does for the local authorizer: `pass` answers as usual; `hang` never answers (nothing reaches the
 * store); `refuse` fails at once as a refused connection does; `throttle` answers every call with DynamoDB's
 * ProvisionedThroughputExceededException (400), `server-error` with InternalServerError (500); `lose-next-write`
 * lets the next UpdateItem reach the store and be applied, drops its answer, then passes again.
 */
export type StoreFault = 'pass' | 'hang' | 'refuse' | 'throttle' | 'server-error' | 'lose-next-write';

function dynamoError(statusCode: number, type: string, message: string): { response: TransportResponse } {
  return {
    response: {
      statusCode,
      headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': 'FAULT' },
      body: new TextEncoder().encode(JSON.stringify({ __type: `com.amazonaws.dynamodb.v20120810#${type}`, message })),
    },
  };
}

/**
 * Wraps the local authorizer's transport to the embedded store (startTestApi's `authorizerTransport`), so the store
 * misbehaves for the authorizer alone while the test reads and writes it as usual.
 */
export class StoreFaults {
  mode: StoreFault = 'pass';
  /** The DynamoDB operations the authorizer sent, each attempt counted. */
  readonly operations: string[] = [];

  /** The wrapper to hand to the service: every call goes through `mode`. */
  readonly wrap = (inner: StoreTransport): StoreTransport => ({
    handle: (request: LocalRequest) => this.handle(inner, request),
    updateHttpClientConfig: () => inner.updateHttpClientConfig(),
    httpHandlerConfigs: () => inner.httpHandlerConfigs(),
  });

  private async handle(inner: StoreTransport, request: LocalRequest): Promise<{ response: LocalResponse }> {
    const operation = operationOf(request.headers) ?? '';
    this.operations.push(operation);
    switch (this.mode) {
      case 'pass':
        return inner.handle(request);
      case 'hang':
        return new Promise(() => undefined);
      case 'refuse':
        throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8000'), { code: 'ECONNREFUSED' });
      case 'throttle':
        return dynamoError(
          400,
          'ProvisionedThroughputExceededException',
          'The level of configured provisioned throughput for the table was exceeded.',
        );
      case 'server-error':
        return dynamoError(500, 'InternalServerError', 'Internal server error');
      case 'lose-next-write': {
        if (operation !== 'UpdateItem') return inner.handle(request);
        this.mode = 'pass';
        await inner.handle(request);
        return new Promise(() => undefined);
      }
    }
  }

  /** How many of `operation` the authorizer has sent so far. */
  count(operation: string): number {
    return this.operations.filter((op) => op === operation).length;
  }
}
