import { randomBytes } from 'node:crypto';
import { type Clock, systemClock } from '../domain/dates';
import type { KeyCreationLimit } from '../domain/key-creation';
import { optionalEnv, requireEnv } from '../env';
import { AccountsStore } from '../store/accounts-store';
import { createMeteringClient, DYNAMODB_ENDPOINT_ENV, documentClient } from '../store/clients';
import { ACCOUNTS_TABLE } from '../store/tables';
import { UsageStore } from '../store/usage-store';

/** Where customers ask for a plan change: an e-mail address or a URL the operator configures; none when unset. */
export const UPGRADE_CONTACT_ENV = 'UPGRADE_CONTACT';

/** Against a stolen session minting keys in a loop: a rolling window (domain/key-creation.ts). */
export const KEY_CREATION_LIMIT: KeyCreationLimit = { max: 10, windowMs: 60 * 60 * 1000 };

export interface DashboardDeps {
  accounts: AccountsStore;
  usage: UsageStore;
  clock: Clock;
  /** `mailto:` or `https:` link, or null. */
  contact: string | null;
  keyCreationLimit: KeyCreationLimit;
}

/** An operator's contact as a link: an e-mail address becomes `mailto:`, a URL stays; anything else is refused. */
export function contactLink(value: string | undefined): string | null {
  const text = value?.trim() ?? '';
  if (text === '') return null;
  if (/^https:\/\/[^\s]+$/.test(text)) return text;
  if (/^(mailto:)?[^\s@:/]+@[^\s@:/]+\.[^\s@:/]+$/.test(text))
    return text.startsWith('mailto:') ? text : `mailto:${text}`;
  throw new Error(`${UPGRADE_CONTACT_ENV} must be an e-mail address or an https:// URL`);
}

let shared: DashboardDeps | undefined;

export function lambdaDashboardDeps(): DashboardDeps {
  if (!shared) {
    const table = requireEnv(ACCOUNTS_TABLE.envVar);
    const document = documentClient();
    // Only the account route reads usage, so its client is built at its first read, not at every route's init.
    const endpoint = process.env[DYNAMODB_ENDPOINT_ENV];
    let usage: UsageStore | undefined;
    shared = {
      accounts: new AccountsStore(document, table, {
        clock: systemClock,
        randomBytes: (n) => randomBytes(n),
      }),
      get usage() {
        usage ??= new UsageStore(createMeteringClient(document, endpoint, { failFast: true }), table, {
          clock: systemClock,
        });
        return usage;
      },
      clock: systemClock,
      contact: contactLink(optionalEnv(UPGRADE_CONTACT_ENV, '')),
      keyCreationLimit: KEY_CREATION_LIMIT,
    };
  }
  return shared;
}
