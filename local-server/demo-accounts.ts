import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hashApiKey, isWellFormedApiKey } from '../lambdas/core/domain/api-key';
import type { PlanId } from '../lambdas/core/domain/plans';
import type { AccountsStore } from '../lambdas/core/store/accounts-store';

export type DemoKeys = Record<PlanId, string>;

const DEMO_PLANS: readonly PlanId[] = ['free', 'pro', 'business'];
const demoAccountId = (plan: PlanId) => `demo-${plan}`;

function readKeys(file: string | undefined): Partial<DemoKeys> {
  if (!file || !existsSync(file)) return {};
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Partial<DemoKeys>;
  } catch {
    return {};
  }
}

async function keyStillWorks(accounts: AccountsStore, plan: PlanId, key: string | undefined): Promise<boolean> {
  if (!key || !isWellFormedApiKey(key)) return false;
  const record = await accounts.findKeyByHash(hashApiKey(key));
  return record !== undefined && !record.revokedAt && record.accountId === demoAccountId(plan);
}

/** The file in the data directory that holds the demo keys. */
export const DEMO_KEYS_FILE = 'demo-keys.json';

/**
 * One verified demo account per plan, with a working key each. A restart reuses the keys on file
 * (`<data dir>/demo-keys.json`); a key that no longer works (revoked, or the file was lost) is replaced, revoking
 * the old ones first so a Free account stays within its one key. The caller writes the keys with `writeDemoKeys`
 * once the server answers, so the file never names keys of a server that did not start.
 */
export async function ensureDemoAccounts(accounts: AccountsStore, dataDir: string | undefined): Promise<DemoKeys> {
  const file = dataDir ? join(dataDir, DEMO_KEYS_FILE) : undefined;
  const known = readKeys(file);
  const keys = {} as DemoKeys;
  for (const plan of DEMO_PLANS) {
    const current = known[plan];
    if (current && (await keyStillWorks(accounts, plan, current))) {
      keys[plan] = current;
      continue;
    }
    const accountId = demoAccountId(plan);
    if (!(await accounts.findAccount(accountId))) {
      await accounts.createAccount({ accountId, plan, verified: true, email: `${plan}@demo.invalid` });
    }
    for (const key of await accounts.listKeys(accountId)) {
      if (!key.revokedAt) await accounts.revokeKey(key.keyId);
    }
    keys[plan] = (await accounts.createKey(accountId, 'demo')).key;
  }
  return keys;
}

/** Writes the demo keys to `<data dir>/demo-keys.json` (0600), whole: written aside, then renamed into place. */
export function writeDemoKeys(dataDir: string, keys: DemoKeys): void {
  const file = join(dataDir, DEMO_KEYS_FILE);
  writeFileSync(`${file}.tmp`, `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600 });
  renameSync(`${file}.tmp`, file);
}
