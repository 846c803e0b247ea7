import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { ACCOUNTS_TABLE, RATES_TABLE } from '../lambdas/core/store/tables';
import { Api } from './api';
import type { DeployConfig } from './config';
import { DashboardApi } from './dashboard-api';
import { DashboardSite } from './dashboard-site';
import { DashboardUsers } from './dashboard-users';
import { Data } from './data';
import { Ingestion } from './ingestion';
import { Monitoring } from './monitoring';

/**
 * The stateful half: the tables and the dashboard's user pool. Kept in a stack of its own so the service stack can
 * be replaced, or deleted and redeployed, without going near the data; it only exports names, ids and ARNs, which
 * never change.
 */
export class DataStack extends Stack {
  readonly data: Data;
  readonly users: DashboardUsers;

  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);
    this.data = new Data(this, 'Data');
    this.users = new DashboardUsers(this, 'DashboardUsers');
    new CfnOutput(this, 'RatesTableName', {
      value: this.data.rates.tableName,
      description: `Rates table (${RATES_TABLE.envVar})`,
    });
    new CfnOutput(this, 'AccountsTableName', {
      value: this.data.accounts.tableName,
      description: `Accounts table (${ACCOUNTS_TABLE.envVar}); pass it to the admin CLI as --accounts-table`,
    });
    new CfnOutput(this, 'UserPoolId', {
      value: this.users.userPool.userPoolId,
      description: 'Cognito user pool of the dashboard customers',
    });
    new CfnOutput(this, 'UserPoolClientId', {
      value: this.users.client.userPoolClientId,
      description: 'App client the dashboard page signs in with',
    });
  }
}

export interface ServiceStackProps extends StackProps {
  data: Data;
  users: DashboardUsers;
  config: DeployConfig;
}

/**
 * The stateless half: the API, ingestion, the customers' account dashboard (its API and its site), and the
 * operations dashboard and alarms over them.
 */
export class ServiceStack extends Stack {
  readonly api: Api;
  readonly ingestion: Ingestion;
  readonly dashboardApi: DashboardApi;
  readonly dashboardSite: DashboardSite;
  readonly monitoring: Monitoring;

  constructor(scope: Construct, id: string, props: ServiceStackProps) {
    super(scope, id, props);
    const { data, users, config } = props;
    this.api = new Api(this, 'Api', { rates: data.rates, accounts: data.accounts, config });
    this.ingestion = new Ingestion(this, 'Ingestion', { rates: data.rates, config });
    this.dashboardApi = new DashboardApi(this, 'DashboardApi', {
      accounts: data.accounts,
      userPool: users.userPool,
      config,
      webAcl: this.api.webAcl,
      loggingRole: this.api.restApi.node.tryFindChild('Account'),
    });
    this.dashboardSite = new DashboardSite(this, 'DashboardSite', {
      userPool: users.userPool,
      client: users.client,
      dashboardApi: this.dashboardApi.restApi,
      publicApiUrl: this.api.restApi.url,
      contact: config.upgradeContact,
    });
    this.monitoring = new Monitoring(this, 'Monitoring', {
      api: this.api,
      dashboardApi: this.dashboardApi,
      ingestion: this.ingestion,
      tables: { rates: data.rates, accounts: data.accounts },
      config,
    });

    new CfnOutput(this, 'ApiUrl', { value: this.api.restApi.url, description: 'Base URL, ending in /v1/' });
    new CfnOutput(this, 'IngestFunctionName', {
      value: this.ingestion.function.function.functionName,
      description: 'Invoke with {"mode":"history"} once to load the full ECB history',
    });
    new CfnOutput(this, 'DashboardUrl', {
      value: this.dashboardSite.url,
      description: 'The customers’ account dashboard: sign up, API keys, usage, plans; also /docs/ and /openapi.json',
    });
    new CfnOutput(this, 'DashboardName', { value: this.monitoring.dashboard.dashboardName });
    new CfnOutput(this, 'AlarmTopicArn', { value: this.monitoring.topic.topicArn });
  }
}
