/**
 * The `ACCOUNT#` and `KEY#` items of the accounts table as records, checked as they are read (hand-written, as
 * every check of the functions is: docs, validation). Pure: no AWS imports; the stores pass the items in.
 */
import { isPlanId, type LimitOverrides, PLAN_IDS, type PlanId } from '../domain/plans';

export type AccountStatus = 'active' | 'suspended';

export interface Account {
  accountId: string;
  plan: PlanId;
  status: AccountStatus;
  verified: boolean;
  email?: string;
  /** The Cognito `sub` of the person who signed up for the account in the dashboard; none for operator-made ones. */
  owner?: string;
  overrides: LimitOverrides;
  /** Keys created and not revoked; the counter that enforces the plan's key limit. */
  activeKeys: number;
  createdAt: string;
  /**
   * When the latest keys made through the dashboard were created (epoch ms, oldest first, at most the creation
   * limit's `max`): the rolling window of the key-creation limit. Absent until the first such key.
   */
  keyCreatedAt?: number[];
}

export interface ApiKeyRecord {
  keyId: string;
  accountId: string;
  name: string;
  createdAt: string;
  revokedAt?: string;
  /** The key's first characters, which are not secret (displayPrefix); absent on keys made before it was kept. */
  prefix?: string;
}

/** The account item's attribute behind `Account.keyCreatedAt`. */
export const KEY_CREATED_AT = 'key_created_at';

export interface StoredOverrides {
  monthly_limit?: number;
  per_minute?: number;
  overflow_percent?: number;
  overflow_allowed?: boolean;
}

/** An item that does not have the shape this code writes: data corruption or a foreign writer. */
export class MalformedItemError extends Error {
  constructor(kind: 'account' | 'key', attribute: string, expected: string) {
    super(`malformed ${kind} item: ${attribute} must be ${expected}`);
    this.name = 'MalformedItemError';
  }
}

type Item = Readonly<Record<string, unknown>>;
type Kind = 'account' | 'key';

interface Check<T> {
  valid: (value: unknown) => value is T;
  expected: string;
}

const STRING: Check<string> = { valid: (v): v is string => typeof v === 'string', expected: 'a string' };
const NUMBER: Check<number> = {
  valid: (v): v is number => typeof v === 'number' && Number.isFinite(v),
  expected: 'a number',
};
const BOOLEAN: Check<boolean> = { valid: (v): v is boolean => typeof v === 'boolean', expected: 'a boolean' };
const PLAN: Check<PlanId> = {
  valid: (v): v is PlanId => typeof v === 'string' && isPlanId(v),
  expected: `one of ${PLAN_IDS.join(', ')}`,
};
const STATUS: Check<AccountStatus> = {
  valid: (v): v is AccountStatus => v === 'active' || v === 'suspended',
  expected: "'active' or 'suspended'",
};
const NUMBER_LIST: Check<number[]> = {
  valid: (v): v is number[] => Array.isArray(v) && v.every((n) => NUMBER.valid(n)),
  expected: 'a list of numbers',
};
const MAP: Check<Item> = { valid: (v): v is Item => typeof v === 'object' && v !== null, expected: 'a map' };

function required<T>(kind: Kind, item: Item, name: string, check: Check<T>, label = name): T {
  const value = item[name];
  if (!check.valid(value)) throw new MalformedItemError(kind, label, check.expected);
  return value;
}

/** Absent (or undefined) is fine; anything else must pass the check. */
function optional<T>(kind: Kind, item: Item, name: string, check: Check<T>, label = name): T | undefined {
  return item[name] === undefined ? undefined : required(kind, item, name, check, label);
}

/** Each stored override attribute, the record field it fills and its check. */
const OVERRIDE_ATTRIBUTES: readonly [keyof StoredOverrides, keyof LimitOverrides, Check<number | boolean>][] = [
  ['monthly_limit', 'monthlyLimit', NUMBER],
  ['per_minute', 'perMinute', NUMBER],
  ['overflow_percent', 'overflowPercent', NUMBER],
  ['overflow_allowed', 'overflowAllowed', BOOLEAN],
];

function overridesFromItem(item: Item): LimitOverrides {
  const stored = optional('account', item, 'overrides', MAP);
  const overrides: Record<string, number | boolean> = {};
  if (!stored) return overrides;
  for (const [attribute, field, check] of OVERRIDE_ATTRIBUTES) {
    const value = optional('account', stored, attribute, check, `overrides.${attribute}`);
    if (value !== undefined) overrides[field] = value;
  }
  return overrides;
}

export function accountFromItem(item: Item): Account {
  const account: Account = {
    accountId: required('account', item, 'account_id', STRING),
    plan: required('account', item, 'plan', PLAN),
    status: required('account', item, 'status', STATUS),
    verified: required('account', item, 'verified', BOOLEAN),
    overrides: overridesFromItem(item),
    activeKeys: required('account', item, 'active_keys', NUMBER),
    createdAt: required('account', item, 'created_at', STRING),
  };
  const email = optional('account', item, 'email', STRING);
  if (email !== undefined) account.email = email;
  const owner = optional('account', item, 'owner', STRING);
  if (owner !== undefined) account.owner = owner;
  const keyCreatedAt = optional('account', item, KEY_CREATED_AT, NUMBER_LIST);
  if (keyCreatedAt !== undefined) account.keyCreatedAt = keyCreatedAt;
  return account;
}

export function keyFromItem(item: Item): ApiKeyRecord {
  const record: ApiKeyRecord = {
    keyId: required('key', item, 'key_id', STRING),
    accountId: required('key', item, 'key_account_id', STRING),
    name: required('key', item, 'name', STRING),
    createdAt: required('key', item, 'created_at', STRING),
  };
  const revokedAt = optional('key', item, 'revoked_at', STRING);
  if (revokedAt !== undefined) record.revokedAt = revokedAt;
  const prefix = optional('key', item, 'key_prefix', STRING);
  if (prefix !== undefined) record.prefix = prefix;
  return record;
}

export function storedOverrides(overrides: LimitOverrides): StoredOverrides {
  return {
    monthly_limit: overrides.monthlyLimit,
    per_minute: overrides.perMinute,
    overflow_percent: overrides.overflowPercent,
    overflow_allowed: overrides.overflowAllowed,
  };
}
