import type { DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createAuthorizer } from '../lambdas/core/auth/authorizer';
import { createAuthorizerObserver, logUnavailable } from '../lambdas/core/auth/observe';
import { type Clock, systemClock } from '../lambdas/core/domain/dates';
import { AccountsReadStore } from '../lambdas/core/store/accounts-read-store';
import { createDocumentClient, createMeteringClient, STORE_CALL_LIMITS } from '../lambdas/core/store/clients';
import { type LocalRequest, LocalRequestHandler, type LocalResponse } from './in-process-transport';
import { SharedWriteUsageStore } from './shared-write-usage-store';
import { type StoreAnswer, sendStoreCalls } from './store-calls';

/** How the authorizer's requests reach the store: the SDK's request handler, as the local server's clients use it. */
export type StoreTransport = Pick<LocalRequestHandler, 'handle' | 'updateHttpClientConfig' | 'httpHandlerConfigs'> &
  Partial<Pick<LocalRequestHandler, 'destroy'>>;

export interface LocalAuthorizerOptions {
  /** The store's endpoint, which the SDK signs requests for. */
  endpoint: string;
  accountsTable: string;
  cacheTtlMs?: number;
  clock?: Clock;
  /**
   * Wraps the authorizer's own transport to the store, and only the authorizer's: tests make the store slow,
   * failing or unreachable for it while the rest of the service reads and writes as usual.
   */
  wrapTransport?: (transport: StoreTransport) => StoreTransport;
}

export type LocalAuthorizer = ReturnType<typeof createAuthorizer>;

/** The error the SDK's HTTP handler raises when an attempt passes its requestTimeout; the SDK retries it. */
function timeoutError(ms: number): Error {
  return Object.assign(new Error(`the store did not answer within ${ms} ms`), {
    name: 'TimeoutError',
    code: 'ETIMEDOUT',
  });
}

/**
 * The SDK's request timeout for a transport that replaces its HTTP handler (whose timeouts then no longer apply):
 * an attempt that has not answered in `ms` fails with the same TimeoutError, and the answer that may still come is
 * dropped, as a destroyed socket's would be. With it the local authorizer fails as fast as the Lambda one. The
 * transport it wraps is the service's, which the service closes; destroying this one leaves it open.
 */
export class DeadlineTransport extends LocalRequestHandler {
  constructor(
    private readonly inner: StoreTransport,
    private readonly ms: number,
  ) {
    super();
  }

  handle(request: LocalRequest): Promise<{ response: LocalResponse }> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(timeoutError(this.ms)), this.ms);
    });
    return Promise.race([this.inner.handle(request), deadline]).finally(() => clearTimeout(timer));
  }
}

/**
 * The REQUEST authorizer of the local server: the same module and stores as the Lambda authorizer (the usage
 * store lets requests that arrive together share a write), its DynamoDB requests sent through `client`'s
 * transport to the embedded store, with the Lambda clients' limits (STORE_CALL_LIMITS): each attempt ends after
 * the request timeout, and the SDK tries twice. A store that hangs or fails is then answered 503 with Retry-After,
 * as on AWS.
 */
export function createLocalAuthorizer(
  client: DynamoDBDocumentClient,
  options: LocalAuthorizerOptions,
): LocalAuthorizer {
  const clock = options.clock ?? systemClock;
  const shared = client.config.requestHandler as unknown as StoreTransport;
  const transport = new DeadlineTransport(
    options.wrapTransport ? options.wrapTransport(shared) : shared,
    STORE_CALL_LIMITS.requestTimeoutMs,
  );
  const handler = transport as unknown as DynamoDBClientConfig['requestHandler'];
  const document = sendStoreCalls(createDocumentClient(options.endpoint, handler, { failFast: true }));
  const accounts = new AccountsReadStore(document, options.accountsTable);
  const metering = (maxAttempts: number) =>
    sendStoreCalls(createMeteringClient(document, options.endpoint, { failFast: true, maxAttempts }));
  return createAuthorizer({
    keys: accounts,
    accounts,
    usage: new SharedWriteUsageStore(
      metering(STORE_CALL_LIMITS.maxAttempts),
      options.accountsTable,
      { clock },
      {
        send: async (call) => (await transport.handle(call)).response as StoreAnswer,
        retries: metering(STORE_CALL_LIMITS.maxAttempts - 1),
      },
    ),
    clock,
    observe: createAuthorizerObserver(() => clock().getTime()),
    onUnavailable: logUnavailable,
    ...(options.cacheTtlMs !== undefined ? { cacheTtlMs: options.cacheTtlMs } : {}),
  });
}
