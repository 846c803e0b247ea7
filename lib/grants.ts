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
 * `dynamodb:LeadingKeys` with ForAllValues, which holds vacuously for a request naming no key, so actions without
 * keys are refused. Each item of TransactWriteItems is authorized as its own PutItem, UpdateItem or DeleteItem.
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

/** A table grant never reaches its indexes: each is a resource of its own (`<table ARN>/index/<name>`). */
export function grantIndexQuery(role: iam.IRole, table: ITable, indexes: readonly string[]): void {
  if (indexes.length === 0) return;
  role.addToPrincipalPolicy(
    new iam.PolicyStatement({
      actions: ['dynamodb:Query'],
      resources: indexes.map((name) => `${table.tableArn}/index/${name}`),
    }),
  );
}
