import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { GATEWAY_RESPONSES, gatewayResponseHeaders } from '../lambdas/core/http/gateway-responses';
import { API_KEY_HEADER } from '../lambdas/core/http/headers';
import { API_BASE_PATH, ROUTES, type RouteDefinition, type RouteId } from '../lambdas/core/http/routes';
import { ACCOUNTS_TABLE, RATES_TABLE } from '../lambdas/core/store/tables';
import type { DeployConfig } from './config';
import { FxratesFunction } from './fxrates-function';
import { grantTable, TABLE_ACCESS } from './grants';
import { WebAcl } from './web-acl';

/** The stage name is the version segment: the deployed base URL ends in `/v1/`, as the API reference documents. */
export const STAGE_NAME = API_BASE_PATH.replace(/^\//, '');

/**
 * One JSON object per request. String values throughout: API Gateway writes `-` for a missing variable, which
 * would break unquoted numbers. The API key header is deliberately absent.
 */
export const ACCESS_LOG_FIELDS: Readonly<Record<string, string>> = {
  requestId: '$context.requestId',
  requestTime: '$context.requestTimeEpoch',
  ip: '$context.identity.sourceIp',
  userAgent: '$context.identity.userAgent',
  method: '$context.httpMethod',
  resourcePath: '$context.resourcePath',
  path: '$context.path',
  status: '$context.status',
  responseLength: '$context.responseLength',
  responseLatency: '$context.responseLatency',
  integrationLatency: '$context.integrationLatency',
  gatewayResponse: '$context.error.responseType',
  authorizerStatus: '$context.authorizer.status',
  authorizerLatency: '$context.authorizer.latency',
  denyCode: '$context.authorizer.errorCode',
  wafStatus: '$context.waf.status',
};

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

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);
    const { config } = props;

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
      deployOptions: {
        stageName: STAGE_NAME,
        accessLogDestination: new apigw.LogGroupLogDestination(this.accessLogs),
        accessLogFormat: apigw.AccessLogFormat.custom(JSON.stringify(ACCESS_LOG_FIELDS)),
        loggingLevel: apigw.MethodLoggingLevel.ERROR,
        dataTraceEnabled: false,
        tracingEnabled: true,
        throttlingRateLimit: config.throttleRate,
        throttlingBurstLimit: config.throttleBurst,
        // Responses are per account (metering headers, plan checks): a shared stage cache would be wrong.
        cachingEnabled: false,
      },
    });

    for (const row of GATEWAY_RESPONSES) {
      this.restApi.addGatewayResponse(row.type, {
        type: apigw.ResponseType.of(row.type),
        ...(row.status === undefined ? {} : { statusCode: String(row.status) }),
        responseHeaders: gatewayResponseHeaders(row),
        templates: { 'application/json': row.template },
      });
    }

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

    // Only path parameters are declared, and they are always present once a route matched; no body model
    // exists. The validator thus never answers before the authorizer, and the endpoints validate the values.
    const validator = this.restApi.addRequestValidator('Validator', {
      requestValidatorName: 'parameters-and-body',
      validateRequestParameters: true,
      validateRequestBody: true,
    });

    const routeFunctions = new Map<RouteId, FxratesFunction>();
    for (const route of ROUTES) {
      const fn = this.endpointFunction(route, props);
      routeFunctions.set(route.id, fn);
      this.restApi.root
        .resourceForPath(route.path)
        .addMethod(route.method, new apigw.LambdaIntegration(fn.function, { proxy: true, allowTestInvoke: false }), {
          authorizationType: apigw.AuthorizationType.CUSTOM,
          authorizer: this.authorizer,
          requestValidator: validator,
          requestParameters: Object.fromEntries(
            pathParameterNames(route.path).map((n) => [`method.request.path.${n}`, true]),
          ),
        });
    }
    this.routeFunctions = routeFunctions;

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

  private endpointFunction(route: RouteDefinition, props: ApiProps): FxratesFunction {
    // The infra tests check each function's grants against the store modules its bundle contains, so a route
    // whose endpoint starts reading a table fails them until its registry entry grants it.
    const readsRates = route.ratesTable.length > 0;
    const fn = new FxratesFunction(this, `${pascalCase(route.id)}Function`, {
      name: route.id,
      description: `fxrates ${route.method} ${API_BASE_PATH}${route.path}`,
      timeout: Duration.seconds(10),
      environment: readsRates ? { [RATES_TABLE.envVar]: props.rates.tableName } : {},
    });
    if (readsRates) grantTable(fn.role, props.rates, route.ratesTable);
    return fn;
  }
}

export function pathParameterNames(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].flatMap((m) => (m[1] === undefined ? [] : [m[1]]));
}

function pascalCase(id: string): string {
  return id.charAt(0).toUpperCase() + id.slice(1);
}
