import { RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { ACCOUNTS_TABLE, RATES_TABLE, type TableDefinition } from '../lambdas/core/store/tables';

/** Names of existing tables to use instead of creating them (context `ratesTableName` and `accountsTableName`). */
export interface ExistingTables {
  rates: string;
  accounts: string;
}

/**
 * State that cannot be re-derived cheaply: point-in-time recovery, deletion protection, and RETAIN. Given the names
 * of retained tables, the stack creates none (docs/deploying.md: "Re-attaching the retained tables").
 */
export class Data extends Construct {
  readonly rates: dynamodb.ITable;
  readonly accounts: dynamodb.ITable;
  /** True when the tables are existing ones, by name, and no stack manages them. */
  readonly attached: boolean;

  constructor(scope: Construct, id: string, props: { existing?: ExistingTables } = {}) {
    super(scope, id);
    const { existing } = props;
    this.attached = existing !== undefined;
    if (existing) {
      this.rates = dynamodb.Table.fromTableName(this, RATES_TABLE.id, existing.rates);
      this.accounts = dynamodb.Table.fromTableName(this, ACCOUNTS_TABLE.id, existing.accounts);
    } else {
      this.rates = tableFrom(this, RATES_TABLE);
      this.accounts = tableFrom(this, ACCOUNTS_TABLE);
    }
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
