import { type MessagePort, parentPort } from 'node:worker_threads';
import type { APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { createAuthorizer } from '../lambdas/core/auth/authorizer';
import { createAuthorizerObserver } from '../lambdas/core/auth/observe';
import { systemClock } from '../lambdas/core/domain/dates';
import { AccountsReadStore } from '../lambdas/core/store/accounts-read-store';
import { createDocumentClient, createMeteringClient } from '../lambdas/core/store/clients';
import { UsageStore } from '../lambdas/core/store/usage-store';
import { RpcClient, type RpcMethods, serveRpc } from './port-rpc';
import { sharedClockReader } from './shared-clock';
import { ThreadTransport } from './thread-transport';

export interface AuthorizerThreadOptions {
  /** A port the store thread serves (see its `attach`). */
  store: MessagePort;
  /** The store's endpoint, which the SDK signs requests for. */
  endpoint: string;
  accountsTable: string;
  cacheTtlMs?: number;
  /** A `SharedClock`'s buffer when the service runs on an injected clock; the system clock otherwise. */
  clock?: SharedArrayBuffer;
}

/**
 * The REQUEST authorizer on a thread of its own, as on AWS it is a function of its own: the same module and
 * stores as the Lambda authorizer, its DynamoDB requests sent straight to the store thread.
 */
function authorizerThreadMethods(): RpcMethods {
  let authorizer: ReturnType<typeof createAuthorizer> | undefined;
  return {
    start: (options: AuthorizerThreadOptions) => {
      if (authorizer) throw new Error('the authorizer thread is already started');
      const clock = options.clock ? sharedClockReader(options.clock) : systemClock;
      const client = createDocumentClient(options.endpoint, new ThreadTransport(new RpcClient(options.store)));
      const accounts = new AccountsReadStore(client, options.accountsTable);
      authorizer = createAuthorizer({
        keys: accounts,
        accounts,
        usage: new UsageStore(createMeteringClient(client, options.endpoint), options.accountsTable, { clock }),
        clock,
        observe: createAuthorizerObserver(() => clock().getTime()),
        ...(options.cacheTtlMs !== undefined ? { cacheTtlMs: options.cacheTtlMs } : {}),
      });
    },
    authorize: (event: APIGatewayRequestAuthorizerEvent) => {
      if (!authorizer) throw new Error('the authorizer thread is not started');
      return authorizer.authorize(event);
    },
  };
}

if (!parentPort) throw new Error('authorizer-thread runs as a worker thread');
serveRpc(parentPort, authorizerThreadMethods());
