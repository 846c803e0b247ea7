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
import type { KeyCreationLimit } from '../domain/key-creation';
import { isPlanId, PLAN_IDS, PLANS, type PlanId } from '../domain/plans';
import {
  AccountExistsError,
  InvalidAccountInputError,
  printable,
  refusedKeyReason,
  TooManyKeysForPlanError,
  UnknownAccountError,
  UnknownKeyError,
} from './account-errors';
import { type CreateAccountInput, checkCreateAccountInput, checkKeyName } from './account-input';
import {
  type Account,
  type AccountStatus,
  type ApiKeyRecord,
  accountFromItem,
  keyFromItem,
  storedOverrides,
} from './account-items';
import { AccountsReadStore } from './accounts-read-store';
import { isConditionFailure } from './clients';
import { type AccountsTable, dropStaleCreations, releaseKeySlot, reserveKeySlot } from './key-slots';
import { accountKey, apiKeyKey, KEYS_BY_ACCOUNT_INDEX, KEYS_BY_ID_INDEX } from './tables';

export type { KeyCreationLimit } from '../domain/key-creation';
export * from './account-errors';
export type { CreateAccountInput } from './account-input';
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

/** The person behind a dashboard account, as their verified Cognito ID token names them. */
export interface AccountOwner {
  sub: string;
  email: string;
}

export interface CreateKeyOptions {
  creationLimit?: KeyCreationLimit;
}

export interface AccountsStoreDeps {
  clock: () => Date;
  randomBytes: RandomBytes;
  newId?: (kind: 'account' | 'key') => string;
}

export const DEFAULT_KEY_NAME = 'default';

/** Attempts at one key creation whose refusal the account, read afterwards, does not explain (it changed meanwhile). */
const CREATE_KEY_ATTEMPTS = 4;

/** An account found under a person's derived id must be theirs; anything else is a fault, never a login. */
function checkOwner(account: Account, owner: AccountOwner): Account {
  if (account.owner !== owner.sub) throw new Error(`account ${account.accountId} belongs to another owner`);
  return account;
}

/**
 * No transactions, so it works on every DynamoDB implementation: the key limit is one conditional update of the
 * account's `active_keys` counter. A plan change never touches keys; the operator chooses which to revoke.
 */
export class AccountsStore extends AccountsReadStore {
  private readonly newId: (kind: 'account' | 'key') => string;
  private readonly table: AccountsTable;

  constructor(
    client: DynamoDBDocumentClient,
    tableName: string,
    private readonly deps: AccountsStoreDeps,
  ) {
    super(client, tableName);
    this.table = { client, tableName };
    this.newId =
      deps.newId ??
      ((kind) => `${kind === 'account' ? 'acc' : 'key'}_${randomBase62(ACCOUNT_ID_RANDOM_LENGTH, deps.randomBytes)}`);
  }

  async createAccount(input: CreateAccountInput): Promise<Account> {
    const { plan, email, verified, overrides, accountId = this.newId('account') } = checkCreateAccountInput(input);
    const account: Account = {
      accountId,
      plan,
      status: 'active',
      verified,
      overrides: overrides ?? {},
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

  /** The id derives from `sub`, so concurrent first requests race on one conditional put and share an account. */
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

  /** Conditional on `active_keys` within the new limit, so a key created at the same moment cannot slip past. */
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
   * Reserves a slot (key-slots.ts), then writes the key; a failed key write gives the slot back but keeps the
   * creation's time, so the creation limit errs toward refusing.
   */
  async createKey(
    accountId: string,
    name: string = DEFAULT_KEY_NAME,
    options: CreateKeyOptions = {},
  ): Promise<CreatedKey> {
    const keyName = checkKeyName(name);
    const creation = options.creationLimit
      ? { limit: options.creationLimit, now: this.deps.clock().getTime() }
      : undefined;
    for (let attempt = 1; ; attempt++) {
      if (await reserveKeySlot(this.table, accountId, creation)) break;
      const account = await this.findAccount(accountId, { consistent: true });
      const refusal = account ? refusedKeyReason(account, creation) : new UnknownAccountError(accountId);
      if (refusal) throw refusal;
      if (creation && account) await dropStaleCreations(this.table, accountId, account.keyCreatedAt ?? [], creation);
      if (attempt >= CREATE_KEY_ATTEMPTS) {
        throw new Error(`account ${accountId} kept changing while a key was being created; try again`);
      }
    }
    try {
      return await this.putNewKey(accountId, keyName);
    } catch (error) {
      await releaseKeySlot(this.table, accountId).catch(() => undefined);
      throw error;
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

  /** Idempotent; only the revoke that sets `revoked_at` gives the account's key slot back. */
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
    await releaseKeySlot(this.table, known.accountId);
    return { key: revoked ? keyFromItem(revoked) : known, alreadyRevoked: false };
  }

  private async queryAll(input: QueryCommandInput): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    for await (const page of paginateQuery({ client: this.client }, input)) items.push(...(page.Items ?? []));
    return items;
  }
}
