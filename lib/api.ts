import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { GATEWAY_RESPONSES } from '../lambdas/core/http/gateway-responses';
import { API_KEY_HEADER } from '../lambdas/core/http/headers';
import { API_BASE_PATH, ROUTES, type RouteDefinition, type RouteId, routeById } from '../lambdas/core/http/routes';
import { ACCOUNTS_TABLE, RATES_TABLE } from '../lambdas/core/store/tables';
import { ACCESS_LOG_FIELDS } from './access-log';
import type { DeployConfig } from './config';
import { FxratesFunction } from './fxrates-function';
import { grantTable, TABLE_ACCESS } from './grants';
import { addGatewayResponses, addRouteMethods, loggedStageOptions, pascalCase } from './rest-api';
import { WebAcl } from './web-acl';

/** The stage name is the version segment: the deployed base URL ends in `/v1/`, as the API reference documents. */
export const STAGE_NAME = API_BASE_PATH.replace(/^\//, '');

export interface ApiProps {
  rates: ITable;
  accounts: ITable;
  config: DeployConfig;
}

export class Api extends Construct {
  readonly restApi: apigw.RestApi;
  readonly authorizer: apigw.RequestAuthorizer;
  readonly authorizerFunction: FxratesFunction;
  readonly routeFunctions: ReadonlyMap<RouteId, FxratesFunction>;
  readonly accessLogs: logs.LogGroup;
  readonly webAcl: WebAcl | undefined;

  private readonly rates: ITable;

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);
    const { config } = props;
    this.rates = props.rates;

    this.accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: logs.RetentionDays.THREE_MONTHS,
      removalPolicy: RemovalPolicy.DESTROY,
    });

    this.restApi = new apigw.RestApi(this, 'RestApi', {
      restApiName: 'fxrates',
      description: 'fxrates currency exchange rate API',
      endpointTypes: [apigw.EndpointType.REGIONAL],
      // The account-level logging role is a singleton shared by every API of the account and region; creating
      // it from this stack is opt-in (README: prerequisites).
      cloudWatchRole: config.apiGatewayCloudWatchRole,
      ...(config.apiGatewayCloudWatchRole ? { cloudWatchRoleRemovalPolicy: RemovalPolicy.RETAIN } : {}),
      // Responses are per account (metering headers, plan checks): a shared stage cache would be wrong.
      deployOptions: loggedStageOptions(STAGE_NAME, this.accessLogs, ACCESS_LOG_FIELDS, config),
    });

    addGatewayResponses(this.restApi, GATEWAY_RESPONSES);

    this.authorizerFunction = new FxratesFunction(this, 'AuthorizerFunction', {
      name: 'authorizer',
      description: 'fxrates API key authorizer: key lookup and one metered usage write per request',
      timeout: Duration.seconds(5),
      environment: { [ACCOUNTS_TABLE.envVar]: props.accounts.tableName },
    });
    grantTable(this.authorizerFunction.role, props.accounts, TABLE_ACCESS.authorizerAccounts);

    this.authorizer = new apigw.RequestAuthorizer(this, 'Authorizer', {
      authorizerName: 'fxrates-api-key',
      handler: this.authorizerFunction.function,
      identitySources: [apigw.IdentitySource.header(API_KEY_HEADER)],
      // Metering must see every request, so no verdict may be reused.
      resultsCacheTtl: Duration.seconds(0),
    });

    this.routeFunctions = addRouteMethods(this.restApi, ROUTES, (route) => this.endpointFunction(routeById(route.id)), {
      authorizationType: apigw.AuthorizationType.CUSTOM,
      authorizer: this.authorizer,
    });

    const stage = this.restApi.deploymentStage;
    if (config.waf) {
      this.webAcl = new WebAcl(this, 'WebAcl', { stageArn: stage.stageArn, rateLimitPerIp: config.wafRateLimit });
    } else {
      this.webAcl = undefined;
      Validations.of(stage).acknowledge({
        id: 'AwsSolutions-APIG3',
        reason: 'The operator turned the WAF off with the context flag waf=false; stage throttling still applies.',
      });
    }

    const cloudWatchRole = this.restApi.node.tryFindChild('CloudWatchRole');
    if (cloudWatchRole) {
      Validations.of(cloudWatchRole).acknowledge({
        id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
        reason:
          'This is the account-wide role API Gateway itself uses to write logs for every API; AWS maintains its policy for that purpose.',
      });
    }

    for (const method of this.restApi.methods) {
      Validations.of(method).acknowledge({
        id: 'AwsSolutions-COG4',
        reason: 'Callers are machines holding API keys, not Cognito users; the REQUEST authorizer checks every key.',
      });
    }
  }

  private endpointFunction(route: RouteDefinition): FxratesFunction {
    // The infra tests check each function's grants against the store modules its bundle contains, so a route
    // whose endpoint starts reading a table fails them until its registry entry grants it.
    const readsRates = route.ratesTable.length > 0;
    const fn = new FxratesFunction(this, `${pascalCase(route.id)}Function`, {
      name: route.id,
      description: `fxrates ${route.method} ${API_BASE_PATH}${route.path}`,
      timeout: Duration.seconds(10),
      environment: readsRates ? { [RATES_TABLE.envVar]: this.rates.tableName } : {},
    });
    if (readsRates) grantTable(fn.role, this.rates, route.ratesTable);
    return fn;
  }
}
