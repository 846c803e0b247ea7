import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import { usageKey } from '../lambdas/core/store/tables';

/**
 * The DynamoDB actions each function may use, per table. Written out instead of `grantReadData()` and friends,
 * which add Query, Scan, DescribeTable and the index ARNs that no function needs.
 */
export const TABLE_ACCESS = {
  // Key and account records are read; only usage items are written (USAGE_ITEMS).
  authorizerAccounts: ['GetItem'],
  authorizerUsage: ['UpdateItem'],
  ingestRates: ['GetItem', 'BatchGetItem', 'PutItem', 'BatchWriteItem'],
  // Only the sources' status item (SOURCES_KEY), one attribute per source (GET /v1/sources).
  ingestSourceStatus: ['UpdateItem'],
  // Only the time series items (SERIES#<code>#<year>) and their marker (META#series), day attributes at a time.
  ingestSeries: ['UpdateItem'],
} as const satisfies Record<string, readonly string[]>;

/** The partition keys of the usage items, as an IAM pattern: `USAGE#<account>#<month>`. */
export const USAGE_ITEMS = usageKey('*', '*');

/** Allows exactly these actions on the table itself (not its indexes). */
export function grantTable(role: iam.IRole, table: ITable, actions: readonly string[]): void {
  role.addToPrincipalPolicy(
    new iam.PolicyStatement({
      actions: actions.map((a) => `dynamodb:${a}`),
      resources: [table.tableArn],
    }),
  );
}

/** Actions that name no partition key, for which a LeadingKeys condition would hold vacuously. */
const KEYLESS_ACTIONS = new Set(['Scan', 'DescribeTable']);

/**
 * Allows these actions on the table only for items whose partition key matches one of the patterns
 * (`dynamodb:LeadingKeys`). ForAllValues: every key a request names must match. A request naming no key at all
 * would match too (ForAllValues over an empty set is true), so actions without keys are refused here.
 * Transactions need no action of their own: each Put, Update or Delete in TransactWriteItems is authorized as
 * PutItem, UpdateItem or DeleteItem on its own key
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis-iam.html).
 */
export function grantTableItems(
  role: iam.IRole,
  table: ITable,
  actions: readonly string[],
  partitionKeyPatterns: readonly string[],
): void {
  const keyless = actions.filter((a) => KEYLESS_ACTIONS.has(a));
  if (keyless.length > 0) throw new Error(`a LeadingKeys condition does not limit ${keyless.join(', ')}`);
  if (partitionKeyPatterns.length === 0) throw new Error('grantTableItems needs at least one partition key pattern');
  role.addToPrincipalPolicy(
    new iam.PolicyStatement({
      actions: actions.map((a) => `dynamodb:${a}`),
      resources: [table.tableArn],
      conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...partitionKeyPatterns] } },
    }),
  );
}

/**
 * Allows Query, and nothing else, on exactly these global secondary indexes of the table. A table grant never
 * reaches its indexes: an index is a resource of its own (`<table ARN>/index/<name>`).
 */
export function grantIndexQuery(role: iam.IRole, table: ITable, indexes: readonly string[]): void {
  if (indexes.length === 0) return;
  role.addToPrincipalPolicy(
    new iam.PolicyStatement({
      actions: ['dynamodb:Query'],
      resources: indexes.map((name) => `${table.tableArn}/index/${name}`),
    }),
  );
}
