import { PLANS, resolveLimits } from '../lambdas/core/domain/plans';
import { type Account, AccountsStore, type ApiKeyRecord } from '../lambdas/core/store/accounts-store';
import { listAccounts } from './accounts-listing';
import type { AdminCommand } from './args';

/** What a command prints: the one JSON object for `--json`, and the lines for people otherwise. */
export interface CommandOutput {
  json: Record<string, unknown>;
  lines: string[];
}

export type AdminStore = Pick<
  AccountsStore,
  'createAccount' | 'getAccount' | 'setStatus' | 'verify' | 'setPlan' | 'createKey' | 'listKeys' | 'revokeKey'
> & {
  /** Every account, oldest first. */
  listAccounts(): Promise<Account[]>;
};

/** The accounts store plus what only the operator needs: the listing. */
export class AdminAccountsStore extends AccountsStore implements AdminStore {
  listAccounts(): Promise<Account[]> {
    return listAccounts(this.client, this.tableName);
  }
}

export function accountJson(account: Account): Record<string, unknown> {
  const limits = resolveLimits(account.plan, account.overrides);
  return {
    account_id: account.accountId,
    plan: account.plan,
    status: account.status,
    verified: account.verified,
    email: account.email ?? null,
    active_keys: account.activeKeys,
    created_at: account.createdAt,
    limits: {
      monthly_limit: limits.monthlyLimit,
      per_minute: limits.perMinute,
      overflow_allowed: limits.overflowAllowed,
      overflow_percent: limits.overflowPercent,
      max_active_keys: limits.maxActiveKeys,
    },
  };
}

/** `account show` and each entry of `account list`: the account and its dashboard owner (null when it has none). */
export function summaryJson(account: Account): Record<string, unknown> {
  return { ...accountJson(account), owner: account.owner ?? null };
}

const DASHBOARD_MARKER = 'signed up in the dashboard';

function ownerLine(account: Account): string {
  return `  owner     ${account.owner === undefined ? '-' : `${account.owner} (${DASHBOARD_MARKER})`}`;
}

function accountLines(account: Account): string[] {
  const limits = resolveLimits(account.plan, account.overrides);
  const overflow = limits.overflowAllowed ? `overflow ${limits.overflowPercent}%` : 'no overflow';
  const maxKeys = limits.maxActiveKeys === null ? 'unlimited' : `at most ${limits.maxActiveKeys}`;
  return [
    `  plan      ${PLANS[account.plan].name}: ${limits.monthlyLimit} a month, ${limits.perMinute} a minute, ${overflow}`,
    `  status    ${account.status}, ${account.verified ? 'verified' : 'not verified'}`,
    `  email     ${account.email ?? '-'}`,
    `  keys      ${account.activeKeys} active (${maxKeys})`,
    `  created   ${account.createdAt}`,
  ];
}

function keyJson(key: ApiKeyRecord): Record<string, unknown> {
  return { key_id: key.keyId, name: key.name, created_at: key.createdAt, revoked_at: key.revokedAt ?? null };
}

/** Columns separated by two spaces, each as wide as its widest cell; no trailing spaces. */
function table(rows: readonly (readonly string[])[]): string[] {
  const widths = (rows[0] ?? []).map((_, col) => Math.max(...rows.map((row) => (row[col] ?? '').length)));
  return rows.map((row) =>
    row
      .map((cell, col) => cell.padEnd(widths[col] ?? 0))
      .join('  ')
      .trimEnd(),
  );
}

function keyTable(keys: readonly ApiKeyRecord[]): string[] {
  return table([
    ['KEY ID', 'NAME', 'CREATED', 'REVOKED'],
    ...keys.map((k) => [k.keyId, k.name, k.createdAt, k.revokedAt ?? '-']),
  ]);
}

function accountTable(accounts: readonly Account[]): string[] {
  if (accounts.length === 0) return ['There are no accounts.'];
  const owned = accounts.filter((a) => a.owner !== undefined).length;
  const count = accounts.length === 1 ? '1 account' : `${accounts.length} accounts`;
  return [
    ...table([
      ['ACCOUNT ID', 'EMAIL', 'PLAN', 'STATUS', 'VERIFIED', 'KEYS', 'CREATED', 'OWNER'],
      ...accounts.map((a) => [
        a.accountId,
        a.email ?? '-',
        a.plan,
        a.status,
        a.verified ? 'yes' : 'no',
        String(a.activeKeys),
        a.createdAt,
        a.owner ?? '-',
      ]),
    ]),
    `${count}, ${owned} ${DASHBOARD_MARKER}.`,
  ];
}

export async function runCommand(command: AdminCommand, store: AdminStore): Promise<CommandOutput> {
  switch (command.kind) {
    case 'account-create': {
      const account = await store.createAccount(command.input);
      return {
        json: { account_id: account.accountId },
        lines: [`Created account ${account.accountId}.`, ...accountLines(account)],
      };
    }
    case 'account-show': {
      const account = await store.getAccount(command.accountId);
      return {
        json: summaryJson(account),
        lines: [`Account ${account.accountId}`, ...accountLines(account), ownerLine(account)],
      };
    }
    case 'account-list': {
      const accounts = await store.listAccounts();
      return { json: { accounts: accounts.map(summaryJson) }, lines: accountTable(accounts) };
    }
    case 'account-suspend':
    case 'account-resume': {
      const suspend = command.kind === 'account-suspend';
      const account = await store.setStatus(command.accountId, suspend ? 'suspended' : 'active');
      const what = suspend ? 'Suspended' : 'Resumed';
      return { json: accountJson(account), lines: [`${what} account ${account.accountId}.`, ...accountLines(account)] };
    }
    case 'account-verify': {
      const account = await store.verify(command.accountId);
      return {
        json: accountJson(account),
        lines: [`Verified account ${account.accountId}.`, ...accountLines(account)],
      };
    }
    case 'account-set-plan': {
      // A plan allowing fewer keys than are active is refused by the store (TooManyKeysForPlanError).
      const account = await store.setPlan(command.accountId, command.plan);
      return {
        json: accountJson(account),
        lines: [
          `Account ${account.accountId} is now on the ${PLANS[account.plan].name} plan.`,
          ...accountLines(account),
        ],
      };
    }
    case 'key-create': {
      const created = await store.createKey(command.accountId, command.name);
      return {
        json: { key: created.key, key_id: created.keyId },
        lines: [
          `Created key ${created.keyId} ('${created.record.name}') for account ${command.accountId}.`,
          created.key,
          'Store this key now: it is shown only this once.',
        ],
      };
    }
    case 'key-list': {
      const keys = await store.listKeys(command.accountId);
      return {
        json: { keys: keys.map(keyJson) },
        lines: keys.length === 0 ? [`Account ${command.accountId} has no keys.`] : keyTable(keys),
      };
    }
    case 'key-revoke': {
      const { key, alreadyRevoked } = await store.revokeKey(command.keyId);
      return {
        json: { ...keyJson(key), account_id: key.accountId, already_revoked: alreadyRevoked },
        lines: [
          alreadyRevoked
            ? `Key ${key.keyId} was already revoked at ${key.revokedAt}; nothing changed.`
            : `Revoked key ${key.keyId} of account ${key.accountId} at ${key.revokedAt}.`,
        ],
      };
    }
    case 'backup':
    case 'restore':
      throw new Error(`${command.kind} works on the store's items, not through the accounts store`);
  }
}
