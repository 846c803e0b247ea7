import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';

/**
 * The DynamoDB actions each function may use, per table. Written out instead of `grantReadData()` and friends,
 * which add Query, Scan, DescribeTable and the index ARNs that no function needs.
 */
export const TABLE_ACCESS = {
  authorizerAccounts: ['GetItem', 'UpdateItem'],
  ingestRates: ['GetItem', 'BatchGetItem', 'PutItem', 'BatchWriteItem'],
} as const satisfies Record<string, readonly string[]>;

/** Allows exactly these actions on the table itself (not its indexes). */
export function grantTable(role: iam.IRole, table: ITable, actions: readonly string[]): void {
  role.addToPrincipalPolicy(
    new iam.PolicyStatement({
      actions: actions.map((a) => `dynamodb:${a}`),
      resources: [table.tableArn],
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
