import { systemClock } from '../domain/dates';
import { requireEnv } from '../env';
import { logger } from '../observability';
import { AccountsReadStore } from '../store/accounts-read-store';
import { documentClient } from '../store/clients';
import { ACCOUNTS_TABLE } from '../store/tables';
import { usageStore } from '../store/usage-store';
import { type AuthorizerDeps, createAuthorizer, type StoreFailure } from './authorizer';
import { createAuthorizerObserver } from './observe';

/**
 * A request answered 503 because the store could not answer: one warning line with the failed call and the error,
 * so an operator sees the outage in the authorizer's log (the API's 5xx alarm counts the 503s themselves).
 */
export function logUnavailable(failure: StoreFailure): void {
  const { stage, accountId, error } = failure;
  logger.warn('store unavailable: answered 503', {
    stage,
    ...(accountId ? { accountId } : {}),
    ...(error === undefined ? {} : { error: error as Error }),
  });
}

let shared: ReturnType<typeof createAuthorizer> | undefined;

/** The module-scope authorizer of a function process: one client, one record cache. */
export function defaultAuthorizer(overrides: Partial<AuthorizerDeps> = {}): ReturnType<typeof createAuthorizer> {
  if (shared && Object.keys(overrides).length === 0) return shared;
  const accounts = new AccountsReadStore(documentClient(), requireEnv(ACCOUNTS_TABLE.envVar));
  const authorizer = createAuthorizer({
    keys: accounts,
    accounts,
    usage: usageStore(),
    clock: systemClock,
    observe: createAuthorizerObserver(),
    onUnavailable: logUnavailable,
    ...overrides,
  });
  if (Object.keys(overrides).length === 0) shared = authorizer;
  return authorizer;
}
