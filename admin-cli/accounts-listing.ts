/**
 * Every account, for the admin CLI: no index holds accounts, so this is a Scan of the whole table whose cost grows
 * with it, never something a request path may call.
 */
import { type DynamoDBDocumentClient, paginateScan } from '@aws-sdk/lib-dynamodb';
import { type Account, accountFromItem, MalformedItemError } from '../lambdas/core/store/account-items';
import { accountKey } from '../lambdas/core/store/tables';

/** The attributes the listing reads; `pk` only names a malformed item in the error. */
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

const byCreationThenId = (a: Account, b: Account): number => {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
  if (a.accountId !== b.accountId) return a.accountId < b.accountId ? -1 : 1;
  return 0;
};

/** Strongly consistent, so an account created a moment ago is listed; a malformed item fails, named. */
export async function listAccounts(client: DynamoDBDocumentClient, tableName: string): Promise<Account[]> {
  const names = Object.fromEntries(ATTRIBUTES.map((name, i) => [`#a${i}`, name]));
  const accounts: Account[] = [];
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
        accounts.push(accountFromItem(item));
      } catch (error) {
        if (error instanceof MalformedItemError) error.message = `${error.message} (item ${String(item.pk)})`;
        throw error;
      }
    }
  }
  return accounts.sort(byCreationThenId);
}
