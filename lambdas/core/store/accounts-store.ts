import {
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  paginateQuery,
  type QueryCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import {
  ACCOUNT_ID_RANDOM_LENGTH,
  accountIdForOwner,
  displayPrefix,
  generateApiKey,
  hashApiKey,
  type RandomBytes,
  randomBase62,
} from '../domain/api-key';
import { formatTimestamp } from '../domain/dates';
import { type KeyCreationLimit, nextKeyCreationAt, secondsUntilInstant } from '../domain/key-creation';
import { isPlanId, type LimitOverrides, PLAN_IDS, PLANS, type PlanId } from '../domain/plans';
import {
  type Account,
  type AccountStatus,
  type ApiKeyRecord,
  accountFromItem,
  KEY_CREATED_AT,
  keyFromItem,
  storedOverrides,
} from './account-items';
import { AccountsReadStore } from './accounts-read-store';
import { isConditionFailure } from './clients';
import { accountKey, apiKeyKey, KEYS_BY_ACCOUNT_INDEX, KEYS_BY_ID_INDEX } from './tables';

export type { KeyCreationLimit } from '../domain/key-creation';
export type { Account, AccountStatus, ApiKeyRecord } from './account-items';

export interface CreatedKey {
  /** The full key: returned here once and never stored. */
  key: string;
  keyId: string;
  record: ApiKeyRecord;
}

export interface RevokeResult {
  key: ApiKeyRecord;
  /** True when the key had been revoked before; nothing was changed then. */
  alreadyRevoked: boolean;
}

export interface CreateAccountInput {
  plan: PlanId;
  email?: string;
  overrides?: LimitOverrides;
  verified: boolean;
  /** A chosen id (e.g. for fixed demo accounts); a random `acc_…` id otherwise. */
  accountId?: string;
}

/** The person behind a dashboard account, as their verified Cognito ID token names them. */
export interface AccountOwner {
  sub: string;
  email: string;
}

export interface CreateKeyOptions {
  creationLimit?: KeyCreationLimit;
}

/** The input schemas of account-input.ts; a type only, so this module never pulls zod into a bundle. */
export type AccountInputChecks = typeof import('./account-input');

export interface AccountsStoreDeps {
  clock: () => Date;
  randomBytes: RandomBytes;
  newId?: (kind: 'account' | 'key') => string;
  /**
   * Loads the checks of createAccount and createKey (account-input-loader.ts). Injected rather than imported: a
   * dashboard function that never creates an account or names a key then bundles no zod; without it those two
   * methods fail.
   */
  accountInput?: () => Promise<AccountInputChecks>;
}

export const DEFAULT_KEY_NAME = 'default';

/** Echoes an identifier in a message only as a short printable token. */
function printable(value: string): string {
  const clean = value.replace(/[^\x20-\x7e]/g, '?');
  return clean.length > 40 ? `${clean.slice(0, 40)}…` : clean;
}

/** A refusal of an accounts or keys operation; `code` is stable for scripts, the message is one human line. */
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
/** "1 active key", "3 active keys". */
const activeKeysText = (count: number): string => (count === 1 ? '1 active key' : `${count} active keys`);

/** Where the operator sees which keys to revoke. */
const keyListHint = (accountId: string): string => `npm run admin -- key list --account ${printable(accountId)}`;

/**
 * No key can be created: the account holds `activeKeys` and its plan allows `max` (the plan's limit when omitted).
 * The message counts what is really active, which after an old downgrade may be more than the plan allows.
 */
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
export function keyCreationLimitedText(limit: KeyCreationLimit, waitSeconds: number): string {
  return (
    `At most ${limit.max} keys can be created in any ${durationText(limit.windowMs)}; ` +
    `the next can be created in ${durationText(waitSeconds * 1000)}.`
  );
}

/**
 * Too many keys created lately; `retryAfterSeconds` says when the oldest creation of the window leaves it, so that
 * a retry then is admitted (unless another creation took the place first).
 */
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

/** The clock-hour counter of key creations that `key_created_at` replaced; a dashboard creation removes it. */
const LEGACY_KEY_CREATIONS = 'key_creations';

/** Attempts at one key creation whose refusal the account, read afterwards, does not explain (it changed meanwhile). */
const CREATE_KEY_ATTEMPTS = 4;

/** An account found under a person's derived id must be theirs; anything else is a fault, never a login. */
function checkOwner(account: Account, owner: AccountOwner): Account {
  if (account.owner !== owner.sub) throw new Error(`account ${account.accountId} belongs to another owner`);
  return account;
}

/** Plans with a key limit, each becoming one clause of the reservation condition. */
const LIMITED_PLANS = PLAN_IDS.flatMap((plan) => {
  const max = PLANS[plan].maxActiveKeys;
  return max === null ? [] : [{ plan, max }];
});

/** A key creation under the dashboard's limit: the limit and the instant the creation is counted at. */
interface CreationAttempt {
  limit: KeyCreationLimit;
  now: number;
}

/**
 * Why the reservation was refused, read from the account afterwards (a failed condition does not say which of its
 * clauses failed; the reservation does not ask for the failed item, which not every DynamoDB implementation returns:
 * a refusal is rare, and one consistent read explains it everywhere). The account's own state comes first, then the
 * plan's key limit, then the creation limit: waiting helps only with the last. Undefined when the account as read
 * allows the key: it changed since the refusal, or its full list of creation times holds stale ones.
 */
function refusedKeyReason(account: Account, creation: CreationAttempt | undefined): AccountsError | undefined {
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

/**
 * Adapts the `ACCOUNT#` and `KEY#` items of the accounts table. It uses no transactions, so that it works on every
 * DynamoDB implementation, emulators included: the key limit is enforced by one conditional update of the account's
 * `active_keys` counter, which is atomic on every backend.
 *
 * Changing the plan never touches existing keys, and a plan is refused to an account holding more active keys than
 * it allows: an account on Pro with three active keys moves to Free only after the operator revokes two of them.
 */
export class AccountsStore extends AccountsReadStore {
  private readonly newId: (kind: 'account' | 'key') => string;

  constructor(
    client: DynamoDBDocumentClient,
    tableName: string,
    private readonly deps: AccountsStoreDeps,
  ) {
    super(client, tableName);
    this.newId =
      deps.newId ??
      ((kind) => `${kind === 'account' ? 'acc' : 'key'}_${randomBase62(ACCOUNT_ID_RANDOM_LENGTH, deps.randomBytes)}`);
  }

  private async inputChecks(): Promise<AccountInputChecks> {
    if (!this.deps.accountInput) throw new Error('this accounts store was built without its input checks');
    return this.deps.accountInput();
  }

  async createAccount(input: CreateAccountInput): Promise<Account> {
    const { CreateAccountInputSchema, firstIssue } = await this.inputChecks();
    const parsed = CreateAccountInputSchema.safeParse(input);
    if (!parsed.success) throw new InvalidAccountInputError(firstIssue(parsed.error));
    const { plan, email, verified } = parsed.data;
    const accountId = parsed.data.accountId ?? this.newId('account');
    const account: Account = {
      accountId,
      plan,
      status: 'active',
      verified,
      overrides: parsed.data.overrides ?? {},
      activeKeys: 0,
      createdAt: formatTimestamp(this.deps.clock()),
    };
    if (email !== undefined) account.email = email;
    if (!(await this.putNewAccount(account))) throw new AccountExistsError(accountId);
    return account;
  }

  async getAccount(accountId: string): Promise<Account> {
    const account = await this.findAccount(accountId, { consistent: true });
    if (!account) throw new UnknownAccountError(accountId);
    return account;
  }

  /**
   * The account of a person signed in to the dashboard, created on their first request: a new account is on Free
   * and verified, since only a verified e-mail address gets a token. Its id is derived from the person's `sub`,
   * so concurrent first requests race on one conditional put and all get the same account.
   */
  async provisionOwnedAccount(owner: AccountOwner): Promise<Account> {
    const accountId = accountIdForOwner(owner.sub);
    const existing = await this.findAccount(accountId, { consistent: true });
    if (existing) return checkOwner(existing, owner);
    const account: Account = {
      accountId,
      plan: 'free',
      status: 'active',
      verified: true,
      email: owner.email,
      owner: owner.sub,
      overrides: {},
      activeKeys: 0,
      createdAt: formatTimestamp(this.deps.clock()),
    };
    if (await this.putNewAccount(account)) return account;
    return checkOwner(await this.getAccount(accountId), owner);
  }

  /** Writes a new account's item unless one exists under its id; false when one does (nothing is written then). */
  private async putNewAccount(account: Account): Promise<boolean> {
    try {
      await this.client.send(
        new PutCommand({
          TableName: this.tableName,
          Item: {
            pk: accountKey(account.accountId),
            account_id: account.accountId,
            plan: account.plan,
            status: account.status,
            verified: account.verified,
            email: account.email,
            owner: account.owner,
            overrides: storedOverrides(account.overrides),
            active_keys: account.activeKeys,
            created_at: account.createdAt,
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async setStatus(accountId: string, status: AccountStatus): Promise<Account> {
    if (status !== 'active' && status !== 'suspended') {
      throw new InvalidAccountInputError(`status must be active or suspended, not '${printable(String(status))}'`);
    }
    return this.updateAccount(accountId, 'SET #status = :value', { '#status': 'status' }, { ':value': status });
  }

  async verify(accountId: string): Promise<Account> {
    return this.updateAccount(accountId, 'SET #verified = :value', { '#verified': 'verified' }, { ':value': true });
  }

  /**
   * A plan with a key limit is refused to an account holding more active keys than it allows: the change is one
   * update conditional on `active_keys` being within the new limit, so a key created at the same moment cannot slip
   * past it (the key's reservation checks the plan in turn). Nothing changes on a refusal; keys are never revoked
   * here, the operator chooses which to revoke.
   */
  async setPlan(accountId: string, plan: PlanId): Promise<Account> {
    if (!isPlanId(plan)) {
      throw new InvalidAccountInputError(
        `plan must be one of ${PLAN_IDS.join(', ')}, not '${printable(String(plan))}'`,
      );
    }
    const max = PLANS[plan].maxActiveKeys;
    if (max === null) {
      return this.updateAccount(accountId, 'SET #plan = :value', { '#plan': 'plan' }, { ':value': plan });
    }
    // A refusal read from an account whose keys were revoked meanwhile is no refusal: the change is tried again.
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.updateAccount(
          accountId,
          'SET #plan = :value',
          { '#plan': 'plan', '#keys': 'active_keys' },
          { ':value': plan, ':max': max },
          '#keys <= :max',
        );
      } catch (error) {
        if (!(error instanceof UnknownAccountError)) throw error;
        const account = await this.findAccount(accountId, { consistent: true });
        if (!account) throw error;
        if (account.activeKeys > max) throw new TooManyKeysForPlanError(accountId, plan, account.activeKeys, max);
        if (attempt >= 3)
          throw new Error(`the active keys of account ${accountId} kept changing during the plan change; try again`);
      }
    }
  }

  /** One conditional update of an existing account; a failed condition is answered as UnknownAccountError. */
  private async updateAccount(
    accountId: string,
    update: string,
    names: Record<string, string>,
    values: Record<string, unknown>,
    condition?: string,
  ): Promise<Account> {
    try {
      const out = await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: accountKey(accountId) },
          UpdateExpression: update,
          ConditionExpression: condition ? `attribute_exists(pk) AND ${condition}` : 'attribute_exists(pk)',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_NEW',
        }),
      );
      if (!out.Attributes) throw new Error('UpdateItem returned no attributes');
      return accountFromItem(out.Attributes);
    } catch (error) {
      if (isConditionFailure(error)) throw new UnknownAccountError(accountId);
      throw error;
    }
  }

  /**
   * Reserves a slot on the account's counter, then writes the key item. The reservation is one conditional
   * update whose condition carries every plan's key limit, so it is exact under concurrency and against a plan
   * change racing it; a failed key write gives the slot back.
   *
   * With a creation limit (the dashboard's), the same update appends the creation's time to `key_created_at` and is
   * admitted only while that list holds fewer than `max` times, so concurrent creations are admitted exactly up to
   * the limit. The list holds the latest creations only: when it is full and some of its times have left the window,
   * a refusal removes them (a conditional write that checks each has) and the creation is tried again.
   * A creation whose key write then fails keeps its time: the limit errs toward refusing.
   */
  async createKey(
    accountId: string,
    name: string = DEFAULT_KEY_NAME,
    options: CreateKeyOptions = {},
  ): Promise<CreatedKey> {
    const { KeyNameSchema, firstIssue } = await this.inputChecks();
    const parsedName = KeyNameSchema.safeParse(name);
    if (!parsedName.success) throw new InvalidAccountInputError(firstIssue(parsedName.error));
    const creation = options.creationLimit
      ? { limit: options.creationLimit, now: this.deps.clock().getTime() }
      : undefined;
    for (let attempt = 1; ; attempt++) {
      if (await this.reserveKeySlot(accountId, creation)) break;
      const account = await this.findAccount(accountId, { consistent: true });
      const refusal = account ? refusedKeyReason(account, creation) : new UnknownAccountError(accountId);
      if (refusal) throw refusal;
      if (creation && account) await this.dropStaleCreations(accountId, account.keyCreatedAt ?? [], creation);
      if (attempt >= CREATE_KEY_ATTEMPTS) {
        throw new Error(`account ${accountId} kept changing while a key was being created; try again`);
      }
    }
    try {
      return await this.putNewKey(accountId, parsedName.data);
    } catch (error) {
      await this.releaseKeySlot(accountId).catch(() => undefined);
      throw error;
    }
  }

  /** The reservation; false when its condition refused it (nothing was written then). */
  private async reserveKeySlot(accountId: string, creation?: CreationAttempt): Promise<boolean> {
    const names: Record<string, string> = { '#status': 'status', '#verified': 'verified', '#keys': 'active_keys' };
    const values: Record<string, unknown> = { ':active': 'active', ':true': true, ':one': 1 };
    const limits = LIMITED_PLANS.map(({ plan, max }, i) => {
      values[`:plan${i}`] = plan;
      values[`:max${i}`] = max;
      return `(#plan <> :plan${i} OR #keys < :max${i})`;
    });
    if (limits.length > 0) names['#plan'] = 'plan';
    let update = 'SET #keys = #keys + :one';
    if (creation) {
      names['#created'] = KEY_CREATED_AT;
      names['#legacy'] = LEGACY_KEY_CREATIONS;
      values[':now'] = [creation.now];
      values[':none'] = [];
      values[':kmax'] = creation.limit.max;
      update += ', #created = list_append(if_not_exists(#created, :none), :now) REMOVE #legacy';
      limits.push('(attribute_not_exists(#created) OR size(#created) < :kmax)');
    }
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: accountKey(accountId) },
          UpdateExpression: update,
          ConditionExpression: ['attribute_exists(pk)', '#verified = :true', '#status = :active', ...limits].join(
            ' AND ',
          ),
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  /**
   * Removes the creation times that have left the window. Each removed position is checked to hold such a time when
   * the write applies, so a concurrent removal or creation can only make this write fail, never remove a time still in
   * the window; a failure is left to the next attempt, which reads the list again. Positions rather than the list's
   * head: times written by functions whose clocks differ slightly need not be in order.
   */
  private async dropStaleCreations(accountId: string, createdAt: readonly number[], creation: CreationAttempt) {
    const cutoff = creation.now - creation.limit.windowMs;
    // Highest position first: DynamoDB reads every position of one REMOVE against the list as it was, while the
    // local server's emulator removes them one after another; in this order both remove the same elements.
    const positions = createdAt.flatMap((at, i) => (at <= cutoff ? [`#created[${i}]`] : [])).reverse();
    if (positions.length === 0) return;
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: accountKey(accountId) },
          UpdateExpression: `REMOVE ${positions.join(', ')}`,
          ConditionExpression: ['attribute_exists(pk)', ...positions.map((p) => `${p} <= :cutoff`)].join(' AND '),
          ExpressionAttributeNames: { '#created': KEY_CREATED_AT },
          ExpressionAttributeValues: { ':cutoff': cutoff },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }

  private async releaseKeySlot(accountId: string): Promise<void> {
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: accountKey(accountId) },
          UpdateExpression: 'SET #keys = #keys - :one',
          ConditionExpression: 'attribute_exists(pk) AND #keys > :zero',
          ExpressionAttributeNames: { '#keys': 'active_keys' },
          ExpressionAttributeValues: { ':one': 1, ':zero': 0 },
        }),
      );
    } catch (error) {
      // A counter already at zero stays there rather than going negative.
      if (!isConditionFailure(error)) throw error;
    }
  }

  private async putNewKey(accountId: string, name: string): Promise<CreatedKey> {
    // A hash collision of 190 random bits will not happen; the condition makes sure it could never overwrite.
    for (let attempt = 1; ; attempt++) {
      const key = generateApiKey(this.deps.randomBytes);
      const keyId = this.newId('key');
      const record: ApiKeyRecord = {
        keyId,
        accountId,
        name,
        createdAt: formatTimestamp(this.deps.clock()),
        prefix: displayPrefix(key),
      };
      try {
        await this.client.send(
          new PutCommand({
            TableName: this.tableName,
            Item: {
              pk: apiKeyKey(hashApiKey(key)),
              key_id: keyId,
              key_account_id: accountId,
              name,
              created_at: record.createdAt,
              key_prefix: record.prefix,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        );
        return { key, keyId, record };
      } catch (error) {
        if (!isConditionFailure(error) || attempt >= 3) throw error;
      }
    }
  }

  /** Every key of the account, revoked ones included, oldest first. */
  async listKeys(accountId: string): Promise<ApiKeyRecord[]> {
    const [account, keys] = await Promise.all([
      this.findAccount(accountId, { consistent: true }),
      this.keysOf(accountId),
    ]);
    if (!account) throw new UnknownAccountError(accountId);
    return keys;
  }

  /** The keys of an account the caller has just read (the dashboard), oldest first: the query alone. */
  async keysOf(accountId: string): Promise<ApiKeyRecord[]> {
    const items = await this.queryAll({
      TableName: this.tableName,
      IndexName: KEYS_BY_ACCOUNT_INDEX,
      KeyConditionExpression: 'key_account_id = :id',
      ExpressionAttributeValues: { ':id': accountId },
    });
    return items
      .map(keyFromItem)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.keyId.localeCompare(b.keyId));
  }

  /**
   * Revoking is idempotent: a second revoke of the same key changes nothing, keeps the first `revokedAt`, and
   * reports `alreadyRevoked`. Only the revoke that sets `revoked_at` gives the account's key slot back.
   */
  async revokeKey(keyId: string, options: { accountId?: string } = {}): Promise<RevokeResult> {
    const items = await this.queryAll({
      TableName: this.tableName,
      IndexName: KEYS_BY_ID_INDEX,
      KeyConditionExpression: 'key_id = :id',
      ExpressionAttributeValues: { ':id': keyId },
    });
    const item = items[0];
    if (!item || typeof item.pk !== 'string') throw new UnknownKeyError(keyId);
    const known = keyFromItem(item);
    // Another account's key is answered exactly as a key that does not exist.
    if (options.accountId !== undefined && known.accountId !== options.accountId) throw new UnknownKeyError(keyId);
    let revoked: Record<string, unknown> | undefined;
    try {
      const out = await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: item.pk },
          UpdateExpression: 'SET revoked_at = :now',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(revoked_at)',
          ExpressionAttributeValues: { ':now': formatTimestamp(this.deps.clock()) },
          ReturnValues: 'ALL_NEW',
        }),
      );
      revoked = out.Attributes;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      const current = await this.client.send(
        new GetCommand({ TableName: this.tableName, Key: { pk: item.pk }, ConsistentRead: true }),
      );
      if (!current.Item) throw new UnknownKeyError(keyId);
      return { key: keyFromItem(current.Item), alreadyRevoked: true };
    }
    await this.releaseKeySlot(known.accountId);
    return { key: revoked ? keyFromItem(revoked) : known, alreadyRevoked: false };
  }

  private async queryAll(input: QueryCommandInput): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    for await (const page of paginateQuery({ client: this.client }, input)) items.push(...(page.Items ?? []));
    return items;
  }
}
