import {
  accountFromItem,
  keyFromItem,
  MalformedItemError,
  storedOverrides,
} from '../../../lambdas/core/store/account-items';

const accountItem = {
  pk: 'ACCOUNT#acc_1',
  account_id: 'acc_1',
  plan: 'pro',
  status: 'active',
  verified: true,
  active_keys: 2,
  created_at: '2026-09-30T12:00:00Z',
};

const keyItem = {
  pk: 'KEY#ab',
  key_id: 'key_1',
  key_account_id: 'acc_1',
  name: 'ci',
  created_at: '2026-09-30T12:00:00Z',
};

function refusal(read: () => unknown): string {
  try {
    read();
  } catch (error) {
    if (error instanceof MalformedItemError) return error.message;
    throw error;
  }
  throw new Error('expected the item to be refused');
}

describe('account items', () => {
  it('read into an account, ignoring attributes the record does not carry', () => {
    expect(accountFromItem(accountItem)).toEqual({
      accountId: 'acc_1',
      plan: 'pro',
      status: 'active',
      verified: true,
      overrides: {},
      activeKeys: 2,
      createdAt: '2026-09-30T12:00:00Z',
    });
  });

  it('carry the email and the overrides that are stored, and only those', () => {
    const account = accountFromItem({
      ...accountItem,
      email: 'ops@example.com',
      overrides: { monthly_limit: 50_000, overflow_allowed: false },
    });
    expect(account.email).toBe('ops@example.com');
    expect(account.overrides).toEqual({ monthlyLimit: 50_000, overflowAllowed: false });
    expect(accountFromItem({ ...accountItem, email: undefined })).not.toHaveProperty('email');
  });

  it('carry the creation times of the latest dashboard keys when stored, and ignore the clock-hour counter', () => {
    const times = [1_790_000_000_000, 1_790_000_005_000];
    expect(accountFromItem({ ...accountItem, key_created_at: times }).keyCreatedAt).toEqual(times);
    expect(accountFromItem({ ...accountItem, key_creations: 494_000_010 })).not.toHaveProperty('keyCreatedAt');
  });

  it('round-trip overrides through their stored form', () => {
    const overrides = { monthlyLimit: 10, perMinute: 2, overflowPercent: 5, overflowAllowed: true };
    expect(accountFromItem({ ...accountItem, overrides: storedOverrides(overrides) }).overrides).toEqual(overrides);
  });

  it.each([
    [{ account_id: 7 }, 'account_id must be a string'],
    [{ account_id: undefined }, 'account_id must be a string'],
    [{ plan: 'gold' }, 'plan must be one of free, pro, business'],
    [{ plan: 'toString' }, 'plan must be one of free, pro, business'],
    [{ status: 'closed' }, "status must be 'active' or 'suspended'"],
    [{ verified: 'true' }, 'verified must be a boolean'],
    [{ email: null }, 'email must be a string'],
    [{ active_keys: '2' }, 'active_keys must be a number'],
    [{ active_keys: Number.NaN }, 'active_keys must be a number'],
    [{ created_at: undefined }, 'created_at must be a string'],
    [{ overrides: 'none' }, 'overrides must be a map'],
    [{ overrides: null }, 'overrides must be a map'],
    [{ overrides: { monthly_limit: '5' } }, 'overrides.monthly_limit must be a number'],
    [{ overrides: { per_minute: null } }, 'overrides.per_minute must be a number'],
    [{ overrides: { overflow_percent: Number.POSITIVE_INFINITY } }, 'overrides.overflow_percent must be a number'],
    [{ overrides: { overflow_allowed: 1 } }, 'overrides.overflow_allowed must be a boolean'],
    [{ key_created_at: 5 }, 'key_created_at must be a list of numbers'],
    [{ key_created_at: [1, '2'] }, 'key_created_at must be a list of numbers'],
  ])('refuse %j with a message naming the attribute', (change, message) => {
    expect(refusal(() => accountFromItem({ ...accountItem, ...change }))).toBe(`malformed account item: ${message}`);
  });
});

describe('key items', () => {
  it('read into a key record, revoked or not', () => {
    expect(keyFromItem(keyItem)).toEqual({
      keyId: 'key_1',
      accountId: 'acc_1',
      name: 'ci',
      createdAt: '2026-09-30T12:00:00Z',
    });
    expect(keyFromItem({ ...keyItem, revoked_at: '2026-10-01T00:00:00Z' }).revokedAt).toBe('2026-10-01T00:00:00Z');
  });

  it.each([
    [{ key_id: undefined }, 'key_id must be a string'],
    [{ key_account_id: 1 }, 'key_account_id must be a string'],
    [{ name: null }, 'name must be a string'],
    [{ created_at: 0 }, 'created_at must be a string'],
    [{ revoked_at: false }, 'revoked_at must be a string'],
  ])('refuse %j with a message naming the attribute', (change, message) => {
    expect(refusal(() => keyFromItem({ ...keyItem, ...change }))).toBe(`malformed key item: ${message}`);
  });
});
