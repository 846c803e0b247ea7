/**
 * The one place where the accounts store's refusals become the API's error codes, in words for the person using the
 * dashboard (the store's own messages name account ids, which are for operators).
 */
import { ApiError, InvalidParameterError, RetryLaterError } from '../domain/errors';
import { PLANS, type PlanId } from '../domain/plans';
import {
  type Account,
  AccountSuspendedError,
  InvalidAccountInputError,
  KeyCreationLimitedError,
  KeyLimitReachedError,
  UnknownKeyError,
} from '../store/accounts-store';

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

/** Why the account cannot take another key, for the keys page; undefined when it can. */
export function cannotCreateReason(account: Account): string | undefined {
  if (account.status !== 'active') return SUSPENDED;
  const max = PLANS[account.plan].maxActiveKeys;
  return max !== null && account.activeKeys >= max ? keyLimitMessage(account.plan, max) : undefined;
}
