import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createAuthorizer } from '../lambdas/core/auth/authorizer';
import { createAuthorizerObserver } from '../lambdas/core/auth/observe';
import { type Clock, systemClock } from '../lambdas/core/domain/dates';
import { AccountsReadStore } from '../lambdas/core/store/accounts-read-store';
import { createMeteringClient } from '../lambdas/core/store/clients';
import { UsageStore } from '../lambdas/core/store/usage-store';

export interface LocalAuthorizerOptions {
  /** The store's endpoint, which the SDK signs requests for. */
  endpoint: string;
  accountsTable: string;
  cacheTtlMs?: number;
  clock?: Clock;
}

export type LocalAuthorizer = ReturnType<typeof createAuthorizer>;

/**
 * The REQUEST authorizer of the local server: the same module and stores as the Lambda authorizer, its DynamoDB
 * requests sent through `client`'s transport to the embedded store.
 */
export function createLocalAuthorizer(
  client: DynamoDBDocumentClient,
  options: LocalAuthorizerOptions,
): LocalAuthorizer {
  const clock = options.clock ?? systemClock;
  const accounts = new AccountsReadStore(client, options.accountsTable);
  return createAuthorizer({
    keys: accounts,
    accounts,
    usage: new UsageStore(createMeteringClient(client, options.endpoint), options.accountsTable, { clock }),
    clock,
    observe: createAuthorizerObserver(() => clock().getTime()),
    ...(options.cacheTtlMs !== undefined ? { cacheTtlMs: options.cacheTtlMs } : {}),
  });
}
