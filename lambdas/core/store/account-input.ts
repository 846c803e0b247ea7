/** What creating an account and naming a key accept; each refusal names the first field at fault. */
import { isPlanId, type LimitOverrides, MAX_LIMIT, PLAN_IDS, type PlanId } from '../domain/plans';
import { InvalidAccountInputError } from './account-errors';

export interface CreateAccountInput {
  plan: PlanId;
  email?: string;
  overrides?: LimitOverrides;
  verified: boolean;
  /** A chosen id (e.g. for fixed demo accounts); a random `acc_…` id otherwise. */
  accountId?: string;
}

type Fields = Record<string, unknown>;

const INVALID = 'Invalid input';
const EMAIL = /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;
const ACCOUNT_ID = /^[A-Za-z0-9_-]{1,64}$/;

const isFields = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isCount = (min: number, max: number) => (value: unknown) =>
  Number.isSafeInteger(value) && (value as number) >= min && (value as number) <= max;

/** Each override, in the order its refusal is reported, with what it accepts. */
const OVERRIDES: readonly [keyof LimitOverrides, (value: unknown) => boolean][] = [
  ['monthlyLimit', isCount(1, MAX_LIMIT)],
  ['perMinute', isCount(1, MAX_LIMIT)],
  ['overflowPercent', isCount(0, 100)],
  ['overflowAllowed', (value) => typeof value === 'boolean'],
];

// A declaration, not an arrow: TypeScript narrows after a call only to a function declared to return never.
function refuse(path: string, message = INVALID): never {
  throw new InvalidAccountInputError(path ? `${path}: ${message}` : message);
}

function checkOverrides(value: unknown): LimitOverrides {
  if (!isFields(value)) refuse('overrides');
  const checked: Fields = {};
  for (const [name, valid] of OVERRIDES) {
    if (!(name in value)) continue;
    if (value[name] !== undefined && !valid(value[name])) refuse(`overrides.${name}`);
    checked[name] = value[name];
  }
  if (Object.keys(value).some((name) => !OVERRIDES.some(([known]) => known === name))) refuse('overrides');
  return checked as LimitOverrides;
}

/** The input of a new account, or InvalidAccountInputError for the first field at fault. Unknown fields are dropped. */
export function checkCreateAccountInput(input: unknown): CreateAccountInput {
  if (!isFields(input)) refuse('');
  const { plan, email, overrides, verified, accountId } = input;
  if (typeof plan !== 'string' || !isPlanId(plan)) refuse('plan', `plan must be one of ${PLAN_IDS.join(', ')}`);
  if (email !== undefined && (typeof email !== 'string' || email.length > 254 || !EMAIL.test(email))) {
    refuse('email', 'the email address is not valid');
  }
  const checked = { plan } as CreateAccountInput;
  if (email !== undefined) checked.email = email;
  if (overrides !== undefined) checked.overrides = checkOverrides(overrides);
  if (typeof verified !== 'boolean') refuse('verified');
  checked.verified = verified;
  if (accountId === undefined) return checked;
  if (typeof accountId !== 'string') refuse('accountId');
  if (!ACCOUNT_ID.test(accountId)) {
    refuse('accountId', 'account ids are 1 to 64 characters of letters, digits, _ and -');
  }
  checked.accountId = accountId;
  return checked;
}

/** A key's name, trimmed; InvalidAccountInputError when it is empty, too long or not printable ASCII. */
export function checkKeyName(name: unknown): string {
  if (typeof name !== 'string') refuse('');
  const trimmed = name.trim();
  if (trimmed.length === 0) refuse('', 'a key name must not be empty');
  if (trimmed.length > 64) refuse('', 'a key name has at most 64 characters');
  if (!/^[\x20-\x7e]+$/.test(trimmed)) refuse('', 'a key name consists of printable ASCII characters');
  return trimmed;
}
