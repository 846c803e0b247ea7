import { Annotations, CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
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
import { Releases } from './release';

export interface DataStackProps extends StackProps {
  config: DeployConfig;
}

/** What synth says about the tables, created or re-attached. */
export const TABLES_NOTICE = {
  created:
    'FxratesData creates new, empty tables. Tables of an earlier deploy are retained when their stack is deleted and ' +
    'are NOT used by this one: to keep their accounts, keys and usage, deploy with -c ratesTableName=<name> ' +
    '-c accountsTableName=<name> (docs/deploying.md: "Re-attaching the retained tables").',
  attached: (rates: string, accounts: string) =>
    `FxratesData creates no tables: the service uses the existing tables ${rates} and ${accounts}, which no stack ` +
    'manages (their settings stay as they are).',
} as const;

/** The stateful half (tables, user pool), apart so the service stack can be replaced without going near the data. */
export class DataStack extends Stack {
  readonly data: Data;
  readonly users: DashboardUsers;

  constructor(scope: Construct, id: string, props: DataStackProps) {
    super(scope, id, props);
    const { ratesTableName, accountsTableName } = props.config;
    const existing =
      ratesTableName && accountsTableName ? { rates: ratesTableName, accounts: accountsTableName } : undefined;
    this.data = new Data(this, 'Data', existing ? { existing } : {});
    Annotations.of(this.data).addInfo(
      existing ? TABLES_NOTICE.attached(existing.rates, existing.accounts) : TABLES_NOTICE.created,
    );
    const { sesFromAddress, sesIdentityArn } = props.config;
    this.users = new DashboardUsers(this, 'DashboardUsers', {
      ses: sesFromAddress && sesIdentityArn ? { fromAddress: sesFromAddress, identityArn: sesIdentityArn } : undefined,
    });
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
  readonly releases: Releases;

  constructor(scope: Construct, id: string, props: ServiceStackProps) {
    super(scope, id, props);
    const { data, users, config } = props;
    this.releases = new Releases(this, 'Releases', { canary: config.canary });
    this.api = new Api(this, 'Api', { rates: data.rates, accounts: data.accounts, config, releases: this.releases });
    this.ingestion = new Ingestion(this, 'Ingestion', { rates: data.rates, config });
    this.dashboardApi = new DashboardApi(this, 'DashboardApi', {
      accounts: data.accounts,
      userPool: users.userPool,
      config,
      webAcl: this.api.webAcl,
      loggingRole: this.api.restApi.node.tryFindChild('Account'),
      releases: this.releases,
    });
    this.dashboardSite = new DashboardSite(this, 'DashboardSite', {
      userPool: users.userPool,
      client: users.client,
      dashboardApi: this.dashboardApi.restApi,
      publicApiUrl: this.api.url,
      contact: config.upgradeContact,
      domain:
        config.dashboardDomainName && config.dashboardCertificateArn
          ? { domainName: config.dashboardDomainName, certificateArn: config.dashboardCertificateArn }
          : undefined,
    });
    this.monitoring = new Monitoring(this, 'Monitoring', {
      api: this.api,
      dashboardApi: this.dashboardApi,
      ingestion: this.ingestion,
      tables: { rates: data.rates, accounts: data.accounts },
      config,
    });

    new CfnOutput(this, 'ApiUrl', { value: this.api.url, description: 'Base URL, ending in /v1/' });
    if (this.api.domain) {
      new CfnOutput(this, 'ApiDomainTarget', {
        value: this.api.domain.domainNameAliasDomainName,
        description: `Point ${config.domainName} here: a CNAME, or a Route 53 alias record with the zone ApiDomainZone`,
      });
      new CfnOutput(this, 'ApiDomainZone', { value: this.api.domain.domainNameAliasHostedZoneId });
    }
    new CfnOutput(this, 'IngestFunctionName', {
      value: this.ingestion.function.function.functionName,
      description: 'Invoke with {"mode":"history"} once to load the full ECB history',
    });
    new CfnOutput(this, 'DashboardUrl', {
      value: this.dashboardSite.url,
      description: 'The customers’ account dashboard: sign up, API keys, usage, plans; also /docs/ and /openapi.json',
    });
    if (config.dashboardDomainName) {
      new CfnOutput(this, 'DashboardDomainTarget', {
        value: this.dashboardSite.distribution.distributionDomainName,
        description: `Point ${config.dashboardDomainName} here: a CNAME, or a Route 53 alias record to the distribution`,
      });
    }
    new CfnOutput(this, 'DashboardName', { value: this.monitoring.dashboard.dashboardName });
    new CfnOutput(this, 'ReleaseApplication', {
      value: this.releases.application.applicationName,
      description: 'CodeDeploy application of the canary releases: aws deploy list-deployments --application-name',
    });
    new CfnOutput(this, 'AlarmTopicArn', { value: this.monitoring.topic.topicArn });
  }
}
