import { RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { ACCOUNTS_TABLE, RATES_TABLE, type TableDefinition } from '../lambdas/core/store/tables';

/**
 * The two tables, built from the same definitions the local bootstrap uses. Both hold state that cannot be
 * re-derived cheaply (accounts, keys, usage; the merged rate history), hence on-demand capacity, point-in-time
 * recovery, deletion protection, and RETAIN when the stack goes away.
 */
export class Data extends Construct {
  readonly rates: dynamodb.Table;
  readonly accounts: dynamodb.Table;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.rates = tableFrom(this, RATES_TABLE);
    this.accounts = tableFrom(this, ACCOUNTS_TABLE);
  }
}

function tableFrom(scope: Construct, def: TableDefinition): dynamodb.Table {
  const table = new dynamodb.Table(scope, def.id, {
    partitionKey: { name: def.partitionKey, type: dynamodb.AttributeType.STRING },
    billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
    deletionProtection: true,
    removalPolicy: RemovalPolicy.RETAIN,
    ...(def.ttlAttribute === undefined ? {} : { timeToLiveAttribute: def.ttlAttribute }),
  });
  for (const index of def.indexes) {
    table.addGlobalSecondaryIndex({
      indexName: index.name,
      partitionKey: { name: index.partitionKey, type: dynamodb.AttributeType.STRING },
      projectionType: dynamodb.ProjectionType.ALL,
    });
  }
  return table;
}
