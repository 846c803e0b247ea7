import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import type * as cognito from 'aws-cdk-lib/aws-cognito';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct, type IDependable } from 'constructs';
import { UPGRADE_CONTACT_ENV } from '../lambdas/core/dashboard/deps';
import {
  DASHBOARD_BASE_PATH,
  DASHBOARD_ROUTES,
  DASHBOARD_TOKEN_HEADER,
  type DashboardRouteDefinition,
  type DashboardRouteId,
  dashboardRouteById,
} from '../lambdas/core/http/dashboard-routes';
import { DASHBOARD_GATEWAY_RESPONSES } from '../lambdas/core/http/gateway-responses';
import { ACCOUNTS_TABLE } from '../lambdas/core/store/tables';
import { DASHBOARD_ACCESS_LOG_FIELDS } from './access-log';
import { reservedConcurrency } from './concurrency';
import type { DeployConfig } from './config';
import { dashboardItemAccess } from './dashboard-access';
import { FxratesFunction } from './fxrates-function';
import { grantIndexQuery, grantTableItems } from './grants';
import type { Releases } from './release';
import { addGatewayResponses, addRouteMethods, enforceTls, loggedStageOptions, pascalCase } from './rest-api';
import { stagePrefix } from './stage';
import type { WebAcl } from './web-acl';

/** The stage is the base path: CloudFront forwards `/api/...` unchanged, so `/api/keys` is stage `api`, `/keys`. */
export const DASHBOARD_STAGE_NAME = DASHBOARD_BASE_PATH.replace(/^\//, '');

export interface DashboardApiProps {
  accounts: ITable;
  userPool: cognito.IUserPool;
  config: DeployConfig;
  /** The service's web ACL, when the WAF is on. */
  webAcl: WebAcl | undefined;
  /** The account-level logging role, when this app creates it: a logged stage cannot be deployed before it. */
  loggingRole: IDependable | undefined;
  /** The CodeDeploy releases every route function goes through, as the public API's do. */
  releases: Releases;
}

/**
 * The dashboard's JSON API behind CloudFront, its Cognito authorizer on every method; each route is one function
 * with exactly the table actions its registry entry lists, limited to the key prefixes of the items it touches.
 */
export class DashboardApi extends Construct {
  readonly restApi: apigw.RestApi;
  readonly authorizer: apigw.CognitoUserPoolsAuthorizer;
  readonly routeFunctions: ReadonlyMap<DashboardRouteId, FxratesFunction>;
  readonly accessLogs: logs.LogGroup;

  constructor(scope: Construct, id: string, props: DashboardApiProps) {
    super(scope, id);
    const { config } = props;

    this.accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: logs.RetentionDays.THREE_MONTHS,
      removalPolicy: RemovalPolicy.DESTROY,
    });

    this.restApi = new apigw.RestApi(this, 'RestApi', {
      restApiName: `${stagePrefix(config.stage)}-dashboard`,
      description: 'fxrates account dashboard API (behind the dashboard distribution)',
      endpointTypes: [apigw.EndpointType.REGIONAL],
      // The account-level logging role is the public API's concern (lib/api.ts); there is one per account.
      cloudWatchRole: false,
      // Every answer is one person's account data.
      deployOptions: loggedStageOptions(DASHBOARD_STAGE_NAME, this.accessLogs, DASHBOARD_ACCESS_LOG_FIELDS, config),
    });
    if (props.loggingRole) this.restApi.deploymentStage.node.addDependency(props.loggingRole);
    enforceTls(this.restApi);

    addGatewayResponses(this.restApi, DASHBOARD_GATEWAY_RESPONSES);

    this.authorizer = new apigw.CognitoUserPoolsAuthorizer(this, 'Authorizer', {
      authorizerName: 'fxrates-dashboard-cognito',
      cognitoUserPools: [props.userPool],
      identitySource: apigw.IdentitySource.header(DASHBOARD_TOKEN_HEADER),
    });

    this.routeFunctions = addRouteMethods(
      this.restApi,
      DASHBOARD_ROUTES,
      (route) => this.routeFunction(dashboardRouteById(route.id), props),
      { authorizationType: apigw.AuthorizationType.COGNITO, authorizer: this.authorizer },
    );

    const stage = this.restApi.deploymentStage;
    if (props.webAcl) {
      props.webAcl.associate(this, 'WebAclAssociation', stage.stageArn);
    } else {
      Validations.of(stage).acknowledge({
        id: 'AwsSolutions-APIG3',
        reason: 'The operator turned the WAF off with the context flag waf=false; stage throttling still applies.',
      });
    }
  }

  private routeFunction(route: DashboardRouteDefinition, props: DashboardApiProps): FxratesFunction {
    const environment: Record<string, string> = { [ACCOUNTS_TABLE.envVar]: props.accounts.tableName };
    if (props.config.upgradeContact) environment[UPGRADE_CONTACT_ENV] = props.config.upgradeContact;
    const fn = new FxratesFunction(this, `${pascalCase(route.id)}Function`, {
      name: route.id,
      description: `fxrates dashboard ${route.method} ${DASHBOARD_BASE_PATH}${route.path}`,
      timeout: Duration.seconds(10),
      environment,
      releases: props.releases,
      reservedConcurrency: reservedConcurrency(props.config, 'dashboardFunction'),
    });
    for (const { action, partitionKeyPatterns } of dashboardItemAccess(route)) {
      grantTableItems(fn.role, props.accounts, [action], partitionKeyPatterns);
    }
    // The indexes are sparse: only key items carry their attributes, so a query finds key records and nothing else.
    grantIndexQuery(fn.role, props.accounts, route.accountsIndexes);
    return fn;
  }
}
