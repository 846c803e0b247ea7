/**
 * The one place where the accounts store's refusals become the API's error codes, in words for the person using the
 * dashboard (the store's own messages name account ids, which are for operators).
 */
import { formatTimestamp } from '../domain/dates';
import { ApiError, InvalidParameterError, RetryLaterError } from '../domain/errors';
import { type KeyCreationLimit, nextKeyCreationAt } from '../domain/key-creation';
import { PLANS, type PlanId } from '../domain/plans';
import {
  AccountSuspendedError,
  InvalidAccountInputError,
  KeyCreationLimitedError,
  KeyLimitReachedError,
  refusedKeyReason,
  UnknownKeyError,
} from '../store/account-errors';
import type { Account } from '../store/account-items';

const SUSPENDED = 'The account is suspended, so no keys can be created; ask the operator to resume it.';

function keyLimitMessage(plan: PlanId, max: number): string {
  const { name } = PLANS[plan];
  return max === 1
    ? `The ${name} plan allows 1 active key; revoke it before creating another, or ask for a plan with more.`
    : `The ${name} plan allows ${max} active keys; revoke one before creating another.`;
}

/** The refusal as an ApiError; undefined for anything that is not a known refusal (a fault: 500, logged). */
export function dashboardError(error: unknown, account?: Account): ApiError | undefined {
  if (error instanceof ApiError) return error;
  if (error instanceof KeyLimitReachedError) {
    const max = account ? PLANS[account.plan].maxActiveKeys : null;
    return new ApiError('key-limit-reached', account && max !== null ? keyLimitMessage(account.plan, max) : undefined);
  }
  if (error instanceof UnknownKeyError)
    return new ApiError('not-found', 'No key with this id belongs to your account.');
  if (error instanceof AccountSuspendedError) return new ApiError('account-inactive', SUSPENDED);
  if (error instanceof InvalidAccountInputError) {
    return new InvalidParameterError('name', `The key name is not valid: ${error.message}.`);
  }
  if (error instanceof KeyCreationLimitedError) return new RetryLaterError(error.message, error.retryAfterSeconds);
  return undefined;
}

/** Rounded up to the second (timestamps carry none): at the time it names, a key is admitted. Null: now. */
export function nextKeyAt(account: Account, limit: KeyCreationLimit, now: Date): string | null {
  const next = nextKeyCreationAt(account.keyCreatedAt ?? [], limit, now.getTime());
  return next === undefined ? null : formatTimestamp(Math.ceil(next / 1000) * 1000);
}

/** Why the account cannot take another key, for the keys page: the refusal a creation would meet now, if any. */
export function cannotCreateReason(account: Account, limit: KeyCreationLimit, now: Date): string | undefined {
  // Dashboard accounts are verified from their first request; the store's verification refusal is the operator's.
  const refusal = refusedKeyReason({ ...account, verified: true }, { limit, now: now.getTime() });
  return refusal && dashboardError(refusal, account)?.message;
}
