/**
 * The refusals of account and key operations: each an AccountsError subclass whose `code` is stable for scripts and
 * whose message is one line for the operator (the dashboard words them for its users, dashboard/errors.ts).
 */
import { type KeyCreationLimit, nextKeyCreationAt, secondsUntilInstant } from '../domain/key-creation';
import { PLANS, type PlanId } from '../domain/plans';
import type { Account } from './account-items';

/** Echoes an identifier in a message only as a short printable token. */
export function printable(value: string): string {
  const clean = value.replace(/[^\x20-\x7e]/g, '?');
  return clean.length > 40 ? `${clean.slice(0, 40)}…` : clean;
}

export class AccountsError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'AccountsError';
  }
}

/** One refusal: an AccountsError subclass with its own name and code, its message built from its arguments. */
function refusal<Args extends unknown[]>(name: string, code: string, message: (...args: Args) => string) {
  const Refusal = class extends AccountsError {
    constructor(...args: Args) {
      super(code, message(...args));
      this.name = name;
    }
  };
  Object.defineProperty(Refusal, 'name', { value: name });
  return Refusal;
}

const accountMessage = (text: string) => (accountId: string) => `Account '${printable(accountId)}' ${text}`;

export const UnknownAccountError = refusal('UnknownAccountError', 'unknown-account', accountMessage('does not exist.'));
export const AccountExistsError = refusal('AccountExistsError', 'account-exists', accountMessage('already exists.'));
export const AccountNotVerifiedError = refusal(
  'AccountNotVerifiedError',
  'account-not-verified',
  accountMessage('is not verified; verify it before creating keys.'),
);
export const AccountSuspendedError = refusal(
  'AccountSuspendedError',
  'account-suspended',
  accountMessage('is suspended; resume it before creating keys.'),
);
const activeKeysText = (count: number): string => (count === 1 ? '1 active key' : `${count} active keys`);

/** Where the operator sees which keys to revoke. */
const keyListHint = (accountId: string): string => `npm run admin -- key list --account ${printable(accountId)}`;

/** Counts what is really active, which after an old downgrade may be more than the plan allows. */
export const KeyLimitReachedError = refusal(
  'KeyLimitReachedError',
  'key-limit-reached',
  (accountId: string, plan: PlanId, activeKeys: number, max: number = PLANS[plan].maxActiveKeys ?? activeKeys) => {
    // At least one: a key revoked between the refusal and the read that explains it leaves fewer than the limit.
    const excess = Math.max(1, activeKeys - max + 1);
    const revoke = activeKeys === 1 ? 'Revoke it' : `Revoke ${excess === 1 ? 'one' : excess} of them`;
    return `Account '${printable(accountId)}' has ${activeKeysText(activeKeys)}; the ${PLANS[plan].name} plan allows ${max}. ${revoke} (${keyListHint(accountId)}) or change the plan before creating another.`;
  },
);
/** A plan change refused because the account holds more active keys than the new plan allows; nothing changed. */
export const TooManyKeysForPlanError = refusal(
  'TooManyKeysForPlanError',
  'too-many-active-keys',
  (accountId: string, plan: PlanId, activeKeys: number, max: number) =>
    `Account '${printable(accountId)}' has ${activeKeysText(activeKeys)}; the ${PLANS[plan].name} plan allows ${max}. Revoke ${activeKeys - max} of them (${keyListHint(accountId)}) and change the plan again.`,
);
export const UnknownKeyError = refusal(
  'UnknownKeyError',
  'unknown-key',
  (keyId: string) => `Key '${printable(keyId)}' does not exist.`,
);
/** "60 minutes", "2 hours": a window or a wait in whole minutes or hours, rounded up. */
function durationText(ms: number): string {
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  if (minutes % 60 === 0 && minutes > 60) return `${minutes / 60} hours`;
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

/** Why the creation limit refuses a key now, in words for the person: how many, over what window, how long to wait. */
function keyCreationLimitedText(limit: KeyCreationLimit, waitSeconds: number): string {
  return (
    `At most ${limit.max} keys can be created in any ${durationText(limit.windowMs)}; ` +
    `the next can be created in ${durationText(waitSeconds * 1000)}.`
  );
}

/** `retryAfterSeconds`: when the oldest creation of the window leaves it. */
export class KeyCreationLimitedError extends AccountsError {
  constructor(
    readonly limit: KeyCreationLimit,
    readonly retryAfterSeconds: number,
  ) {
    super('key-creation-limited', keyCreationLimitedText(limit, retryAfterSeconds));
    this.name = 'KeyCreationLimitedError';
  }
}

export const InvalidAccountInputError = refusal(
  'InvalidAccountInputError',
  'invalid-input',
  (message: string) => message,
);

/** A key creation under the dashboard's limit: the limit and the instant the creation is counted at. */
export interface CreationAttempt {
  limit: KeyCreationLimit;
  now: number;
}

/**
 * Read from the account afterwards: a failed condition does not say which clause failed, and not every DynamoDB
 * implementation returns the item. Undefined when the account as read allows the key (it changed since).
 */
export function refusedKeyReason(account: Account, creation: CreationAttempt | undefined): AccountsError | undefined {
  const { accountId } = account;
  if (account.status !== 'active') return new AccountSuspendedError(accountId);
  if (!account.verified) return new AccountNotVerifiedError(accountId);
  const max = PLANS[account.plan].maxActiveKeys;
  if (max !== null && account.activeKeys >= max) {
    return new KeyLimitReachedError(accountId, account.plan, account.activeKeys, max);
  }
  if (!creation) return undefined;
  const next = nextKeyCreationAt(account.keyCreatedAt ?? [], creation.limit, creation.now);
  if (next === undefined) return undefined;
  return new KeyCreationLimitedError(creation.limit, secondsUntilInstant(next, creation.now));
}
