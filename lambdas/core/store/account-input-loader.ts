/**
 * The accounts store's `accountInput` dependency. Whoever imports this bundles zod, so only the code that creates
 * accounts or names keys does (the keys-create function, the admin CLI, the local servers); the import stays
 * dynamic so that even there zod is evaluated at the first check, not at every cold start.
 */
import type { AccountInputChecks } from './accounts-store';

let loaded: Promise<AccountInputChecks> | undefined;

export function loadAccountInput(): Promise<AccountInputChecks> {
  loaded ??= import('./account-input');
  return loaded;
}
