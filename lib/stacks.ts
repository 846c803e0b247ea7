import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { ACCOUNTS_TABLE, RATES_TABLE } from '../lambdas/core/store/tables';
import { Api } from './api';
import type { DeployConfig } from './config';
import { Data } from './data';
import { Ingestion } from './ingestion';
import { Monitoring } from './monitoring';

/**
 * The stateful half: the tables. Kept in a stack of its own so the service stack can be replaced, or deleted
 * and redeployed, without going near the data; it only exports table names and ARNs, which never change.
 */
export class DataStack extends Stack {
  readonly data: Data;

  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);
    this.data = new Data(this, 'Data');
    new CfnOutput(this, 'RatesTableName', {
      value: this.data.rates.tableName,
      description: `Rates table (${RATES_TABLE.envVar})`,
    });
    new CfnOutput(this, 'AccountsTableName', {
      value: this.data.accounts.tableName,
      description: `Accounts table (${ACCOUNTS_TABLE.envVar}); pass it to the admin CLI as --accounts-table`,
    });
  }
}

export interface ServiceStackProps extends StackProps {
  data: Data;
  config: DeployConfig;
}

/** The stateless half: the API, ingestion, and the dashboard and alarms over both. */
export class ServiceStack extends Stack {
  readonly api: Api;
  readonly ingestion: Ingestion;
  readonly monitoring: Monitoring;

  constructor(scope: Construct, id: string, props: ServiceStackProps) {
    super(scope, id, props);
    const { data, config } = props;
    this.api = new Api(this, 'Api', { rates: data.rates, accounts: data.accounts, config });
    this.ingestion = new Ingestion(this, 'Ingestion', { rates: data.rates, config });
    this.monitoring = new Monitoring(this, 'Monitoring', {
      api: this.api,
      ingestion: this.ingestion,
      tables: { rates: data.rates, accounts: data.accounts },
      config,
    });

    new CfnOutput(this, 'ApiUrl', { value: this.api.restApi.url, description: 'Base URL, ending in /v1/' });
    new CfnOutput(this, 'IngestFunctionName', {
      value: this.ingestion.function.function.functionName,
      description: 'Invoke with {"mode":"history"} once to load the full ECB history',
    });
    new CfnOutput(this, 'DashboardName', { value: this.monitoring.dashboard.dashboardName });
    new CfnOutput(this, 'AlarmTopicArn', { value: this.monitoring.topic.topicArn });
  }
}
