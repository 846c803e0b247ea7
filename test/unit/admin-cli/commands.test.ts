import { type AdminStore, runCommand } from '../../../admin-cli/commands';
import { PLANS } from '../../../lambdas/core/domain/plans';
import type { Account } from '../../../lambdas/core/store/account-items';
import { UnknownAccountError } from '../../../lambdas/core/store/accounts-store';

const SUB = '7c1e2f40-93ab-4d5e-8f61-0a2b3c4d5e6f';

const operatorMade: Account = {
  accountId: 'acc_ops',
  plan: 'pro',
  status: 'active',
  verified: true,
  email: 'ops@example.com',
  overrides: { monthlyLimit: 45000 },
  activeKeys: 2,
  createdAt: '2026-03-01T09:00:00Z',
};

const dashboardMade: Account = {
  accountId: 'acc_dash',
  plan: 'free',
  status: 'active',
  verified: true,
  email: 'ada@example.com',
  owner: SUB,
  overrides: {},
  activeKeys: 1,
  createdAt: '2026-03-02T10:30:00Z',
};

const bare: Account = {
  accountId: 'acc_new',
  plan: 'business',
  status: 'suspended',
  verified: false,
  overrides: { overflowAllowed: false },
  activeKeys: 0,
  createdAt: '2026-03-03T00:00:00Z',
};

const unused = (): Promise<never> => Promise.reject(new Error('not used by these commands'));

/** The store as `account show` and `account list` read it; every other method refuses to be called. */
function storeOf(accounts: readonly Account[]): AdminStore {
  return {
    createAccount: unused,
    setStatus: unused,
    verify: unused,
    setPlan: unused,
    createKey: unused,
    listKeys: unused,
    revokeKey: unused,
    getAccount: async (accountId) => {
      const account = accounts.find((a) => a.accountId === accountId);
      if (!account) throw new UnknownAccountError(accountId);
      return account;
    },
    listAccounts: async () => [...accounts],
  };
}

describe('admin CLI output of account show and account list', () => {
  it('shows a dashboard account with its owner in JSON, beside every other field', async () => {
    const { json } = await runCommand({ kind: 'account-show', accountId: 'acc_dash' }, storeOf([dashboardMade]));
    expect(json).toEqual({
      account_id: 'acc_dash',
      plan: 'free',
      status: 'active',
      verified: true,
      email: 'ada@example.com',
      active_keys: 1,
      created_at: '2026-03-02T10:30:00Z',
      owner: SUB,
      limits: {
        monthly_limit: PLANS.free.monthlyLimit,
        per_minute: PLANS.free.perMinute,
        overflow_allowed: false,
        overflow_percent: 0,
        max_active_keys: 1,
      },
    });
  });

  it('gives owner null in JSON and "-" for people when an operator made the account', async () => {
    const output = await runCommand({ kind: 'account-show', accountId: 'acc_new' }, storeOf([bare]));
    expect(output.json).toMatchObject({ account_id: 'acc_new', email: null, owner: null, verified: false });
    expect(output.lines).toContain('  owner     -');
    expect(output.lines.join('\n')).not.toContain('dashboard');
  });

  it('marks a dashboard account as signed up in the dashboard, with the user id, in the human lines', async () => {
    const { lines } = await runCommand({ kind: 'account-show', accountId: 'acc_dash' }, storeOf([dashboardMade]));
    expect(lines).toEqual([
      'Account acc_dash',
      `  plan      Free: ${PLANS.free.monthlyLimit} a month, ${PLANS.free.perMinute} a minute, no overflow`,
      '  status    active, verified',
      '  email     ada@example.com',
      '  keys      1 active (at most 1)',
      '  created   2026-03-02T10:30:00Z',
      `  owner     ${SUB} (signed up in the dashboard)`,
    ]);
  });

  it('lists every account as one {"accounts": [...]} object whose entries are what account show prints', async () => {
    const store = storeOf([operatorMade, dashboardMade, bare]);
    const { json } = await runCommand({ kind: 'account-list' }, store);
    const shown = await Promise.all(
      ['acc_ops', 'acc_dash', 'acc_new'].map(
        async (accountId) => (await runCommand({ kind: 'account-show', accountId }, store)).json,
      ),
    );
    expect(json).toEqual({ accounts: shown });
    expect(Object.keys(json)).toEqual(['accounts']);
    expect((json.accounts as Record<string, unknown>[]).map((a) => [a.account_id, a.owner])).toEqual([
      ['acc_ops', null],
      ['acc_dash', SUB],
      ['acc_new', null],
    ]);
  });

  it('prints one aligned row per account in the store order, then how many signed up in the dashboard', async () => {
    const { lines } = await runCommand({ kind: 'account-list' }, storeOf([operatorMade, dashboardMade, bare]));
    expect(lines).toEqual([
      `ACCOUNT ID  EMAIL            PLAN      STATUS     VERIFIED  KEYS  CREATED               OWNER`,
      `acc_ops     ops@example.com  pro       active     yes       2     2026-03-01T09:00:00Z  -`,
      `acc_dash    ada@example.com  free      active     yes       1     2026-03-02T10:30:00Z  ${SUB}`,
      `acc_new     -                business  suspended  no        0     2026-03-03T00:00:00Z  -`,
      '3 accounts, 1 signed up in the dashboard.',
    ]);
  });

  it('says so when there are no accounts, and lists none in JSON', async () => {
    const output = await runCommand({ kind: 'account-list' }, storeOf([]));
    expect(output.json).toEqual({ accounts: [] });
    expect(output.lines).toEqual(['There are no accounts.']);
  });

  it('refuses to show an unknown account with the store refusal', async () => {
    await expect(runCommand({ kind: 'account-show', accountId: 'acc_gone' }, storeOf([]))).rejects.toThrow(
      UnknownAccountError,
    );
  });
});
