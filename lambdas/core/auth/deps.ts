import { systemClock } from '../domain/dates';
import { requireEnv } from '../env';
import { AccountsReadStore } from '../store/accounts-read-store';
import { documentClient } from '../store/clients';
import { ACCOUNTS_TABLE } from '../store/tables';
import { usageStore } from '../store/usage-store';
import { type AuthorizerDeps, createAuthorizer } from './authorizer';
import { createAuthorizerObserver } from './observe';

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
    ...overrides,
  });
  if (Object.keys(overrides).length === 0) shared = authorizer;
  return authorizer;
}
