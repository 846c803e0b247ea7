import { Annotations, Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import * as logs from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { SOURCES_ENV, type SourceId } from '../lambdas/core/domain/rates';
import { GATEWAY_RESPONSES } from '../lambdas/core/http/gateway-responses';
import { API_KEY_HEADER } from '../lambdas/core/http/headers';
import { API_BASE_PATH, ROUTES, type RouteDefinition, type RouteId, routeById } from '../lambdas/core/http/routes';
import { ACCOUNTS_TABLE, RATES_TABLE } from '../lambdas/core/store/tables';
import { ACCESS_LOG_FIELDS } from './access-log';
import type { DeployConfig } from './config';
import { FxratesFunction } from './fxrates-function';
import { grantTable, grantTableItems, TABLE_ACCESS, USAGE_ITEMS } from './grants';
import type { Releases } from './release';
import { addGatewayResponses, addRouteMethods, enforceTls, loggedStageOptions, pascalCase } from './rest-api';
import { stagePrefix } from './stage';
import { WebAcl } from './web-acl';

/** The stage name is the version segment: the deployed base URL ends in `/v1/`, as the API reference documents. */
export const STAGE_NAME = API_BASE_PATH.replace(/^\//, '');

/** The TLS policy of the optional custom domain: TLS 1.2 and 1.3 only. */
export const DOMAIN_SECURITY_POLICY = apigw.SecurityPolicy.TLS_1_2;

/** What synth says about API Gateway's account-level CloudWatch Logs role, for either setting. */
export const CLOUDWATCH_ROLE_NOTICE = {
  created:
    "This app sets API Gateway's account-level CloudWatch Logs role for this account and region (the logged stages " +
    'cannot be created without one); the role is retained when the stack is deleted. If another stack or person ' +
    'manages that setting, deploy with -c apiGatewayCloudWatchRole=false.',
  required:
    'apiGatewayCloudWatchRole=false: the logged stages need an account-level CloudWatch Logs role for API Gateway, ' +
    'or the deploy fails and rolls back. Check before deploying that ' +
    '`aws apigateway get-account --query cloudwatchRoleArn` prints a role ARN (docs/deploying.md: "The CloudWatch role").',
} as const;

export interface ApiProps {
  rates: ITable;
  accounts: ITable;
  config: DeployConfig;
  /** The CodeDeploy releases the authorizer and the endpoint functions go through. */
  releases: Releases;
}

export class Api extends Construct {
  readonly restApi: apigw.RestApi;
  readonly authorizer: apigw.RequestAuthorizer;
  readonly authorizerFunction: FxratesFunction;
  readonly routeFunctions: ReadonlyMap<RouteId, FxratesFunction>;
  readonly accessLogs: logs.LogGroup;
  readonly webAcl: WebAcl | undefined;
  /** The custom domain, when `domainName` and `certificateArn` are set. */
  readonly domain: apigw.DomainName | undefined;
  /** The base URL clients use, ending in `/v1/`: on the custom domain when there is one. */
  readonly url: string;

  private readonly rates: ITable;
  /** The configured ingestion sources, for the routes that report them. */
  private readonly sources: readonly SourceId[];
  private readonly releases: Releases;

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);
    const { config } = props;
    this.rates = props.rates;
    this.sources = props.config.sources;
    this.releases = props.releases;

    this.accessLogs = new logs.LogGroup(this, 'AccessLogs', {
      retention: logs.RetentionDays.THREE_MONTHS,
      removalPolicy: RemovalPolicy.DESTROY,
    });

    this.restApi = new apigw.RestApi(this, 'RestApi', {
      restApiName: stagePrefix(config.stage),
      description: 'fxrates currency exchange rate API',
      endpointTypes: [apigw.EndpointType.REGIONAL],
      // The account-level logging role is a singleton shared by every API of the account and region. Set here by
      // default, so a fresh account gets a stage that can log; kept when the stack goes (CLOUDWATCH_ROLE_NOTICE).
      cloudWatchRole: config.apiGatewayCloudWatchRole,
      ...(config.apiGatewayCloudWatchRole ? { cloudWatchRoleRemovalPolicy: RemovalPolicy.RETAIN } : {}),
      // With a custom domain, clients use it and only it.
      disableExecuteApiEndpoint: config.domainName !== undefined,
      // Responses are per account (metering headers, plan checks): a shared stage cache would be wrong.
      deployOptions: loggedStageOptions(STAGE_NAME, this.accessLogs, ACCESS_LOG_FIELDS, config),
    });
    enforceTls(this.restApi);
    if (config.apiGatewayCloudWatchRole) {
      Annotations.of(this.restApi).addInfo(CLOUDWATCH_ROLE_NOTICE.created);
    } else {
      Annotations.of(this.restApi).addWarningV2('fxrates:cloudwatch-role', CLOUDWATCH_ROLE_NOTICE.required);
    }

    addGatewayResponses(this.restApi, GATEWAY_RESPONSES);

    this.authorizerFunction = new FxratesFunction(this, 'AuthorizerFunction', {
      name: 'authorizer',
      description: 'fxrates API key authorizer: key lookup and one metered usage write per request',
      timeout: Duration.seconds(5),
      environment: { [ACCOUNTS_TABLE.envVar]: props.accounts.tableName },
      releases: this.releases,
    });
    grantTable(this.authorizerFunction.role, props.accounts, TABLE_ACCESS.authorizerAccounts);
    grantTableItems(this.authorizerFunction.role, props.accounts, TABLE_ACCESS.authorizerUsage, [USAGE_ITEMS]);

    this.authorizer = new apigw.RequestAuthorizer(this, 'Authorizer', {
      authorizerName: 'fxrates-api-key',
      handler: this.authorizerFunction.target,
      identitySources: [apigw.IdentitySource.header(API_KEY_HEADER)],
      // Metering must see every request, so no verdict may be reused.
      resultsCacheTtl: Duration.seconds(0),
    });

    this.routeFunctions = addRouteMethods(this.restApi, ROUTES, (route) => this.endpointFunction(routeById(route.id)), {
      authorizationType: apigw.AuthorizationType.CUSTOM,
      authorizer: this.authorizer,
    });

    if (config.domainName && config.certificateArn) {
      this.domain = new apigw.DomainName(this, 'Domain', {
        domainName: config.domainName,
        certificate: acm.Certificate.fromCertificateArn(this, 'Certificate', config.certificateArn),
        endpointType: apigw.EndpointType.REGIONAL,
        securityPolicy: DOMAIN_SECURITY_POLICY,
      });
      // https://<domain>/v1/...: the same paths as on the stage's own URL.
      this.domain.addBasePathMapping(this.restApi, { basePath: STAGE_NAME, stage: this.restApi.deploymentStage });
      this.url = `https://${config.domainName}/${STAGE_NAME}/`;
    } else {
      this.domain = undefined;
      this.url = this.restApi.url;
    }

    const stage = this.restApi.deploymentStage;
    if (config.waf) {
      this.webAcl = new WebAcl(this, 'WebAcl', {
        stageArn: stage.stageArn,
        rateLimitPerIp: config.wafRateLimit,
        rateLimitPerKey: config.wafKeyRateLimit,
      });
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
      environment: {
        ...(readsRates ? { [RATES_TABLE.envVar]: this.rates.tableName } : {}),
        ...(route.sourcesConfig ? { [SOURCES_ENV]: this.sources.join(',') } : {}),
      },
      releases: this.releases,
    });
    if (readsRates) grantTable(fn.role, this.rates, route.ratesTable);
    return fn;
  }
}
