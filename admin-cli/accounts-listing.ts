/**
 * Every account of the accounts table, for the operator's admin CLI. The table has no index over accounts (its two
 * indexes hold key items only), so listing is a Scan of the whole table filtered to the `ACCOUNT#` items: an
 * operator's tool whose cost grows with the table (key and usage items are read and filtered out, each counted
 * against the read capacity), never something a request path may call.
 */
import { type DynamoDBDocumentClient, GetCommand, paginateScan } from '@aws-sdk/lib-dynamodb';
import { type Account, accountFromItem, MalformedItemError } from '../lambdas/core/store/account-items';
import { accountKey } from '../lambdas/core/store/tables';

/** An account as the operator sees it: with `owner`, the dashboard user's `sub`, when it signed up there. */
export interface AccountSummary extends Account {
  owner?: string;
}

/** The attributes an account summary reads; `pk` only names a malformed item in the error. */
const ATTRIBUTES = [
  'pk',
  'account_id',
  'plan',
  'status',
  'verified',
  'email',
  'overrides',
  'active_keys',
  'created_at',
  'owner',
] as const;

/** An `ACCOUNT#` item as a summary; `owner` is read here, beside the attributes `accountFromItem` checks. */
export function summaryFromItem(item: Readonly<Record<string, unknown>>): AccountSummary {
  const summary: AccountSummary = accountFromItem(item);
  const owner = item.owner;
  if (owner !== undefined) {
    if (typeof owner !== 'string') throw new MalformedItemError('account', 'owner', 'a string');
    summary.owner = owner;
  }
  return summary;
}

const byCreationThenId = (a: AccountSummary, b: AccountSummary): number => {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
  if (a.accountId !== b.accountId) return a.accountId < b.accountId ? -1 : 1;
  return 0;
};

/**
 * Every account, oldest first (ties by id). A paginated, strongly consistent Scan, so that an account created a
 * moment ago is listed; a malformed item fails the listing and is named by its key.
 */
export async function listAccounts(client: DynamoDBDocumentClient, tableName: string): Promise<AccountSummary[]> {
  const names = Object.fromEntries(ATTRIBUTES.map((name, i) => [`#a${i}`, name]));
  const accounts: AccountSummary[] = [];
  const pages = paginateScan(
    { client },
    {
      TableName: tableName,
      FilterExpression: 'begins_with(#a0, :prefix)',
      ProjectionExpression: Object.keys(names).join(', '),
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: { ':prefix': accountKey('') },
      ConsistentRead: true,
    },
  );
  for await (const page of pages) {
    for (const item of page.Items ?? []) {
      try {
        accounts.push(summaryFromItem(item));
      } catch (error) {
        if (error instanceof MalformedItemError) error.message = `${error.message} (item ${String(item.pk)})`;
        throw error;
      }
    }
  }
  return accounts.sort(byCreationThenId);
}

/** One account with its owner, or undefined: a strongly consistent GetItem. */
export async function findAccountSummary(
  client: DynamoDBDocumentClient,
  tableName: string,
  accountId: string,
): Promise<AccountSummary | undefined> {
  const out = await client.send(
    new GetCommand({ TableName: tableName, Key: { pk: accountKey(accountId) }, ConsistentRead: true }),
  );
  return out.Item ? summaryFromItem(out.Item) : undefined;
}
