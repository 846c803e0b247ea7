/**
 * What the service's two REST APIs (the public API, lib/api.ts, and the dashboard's, lib/dashboard-api.ts) build
 * alike from their registries: the access-logged stage, the gateway responses of their table, and one proxy method
 * per route, each behind the API's authorizer.
 */
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import type * as logs from 'aws-cdk-lib/aws-logs';
import { type GatewayResponseDefinition, gatewayResponseHeaders } from '../lambdas/core/http/gateway-responses';
import type { DeployConfig } from './config';
import type { FxratesFunction } from './fxrates-function';

/**
 * The TLS policy of both APIs' execute-api endpoints: TLS 1.3 and 1.2 only (a regional endpoint otherwise keeps the
 * legacy TLS_1_0 policy). REST APIs take a security policy since the enhanced policies arrived; these need an endpoint
 * access mode, and BASIC keeps how requests reach the API as it was (STRICT would also refuse requests whose SNI host
 * is not the API's own). A custom domain has its own policy (lib/api.ts).
 */
export const API_TLS = { securityPolicy: 'SecurityPolicy_TLS13_1_2_2021_06', endpointAccessMode: 'BASIC' } as const;

/** Sets API_TLS on a REST API, which the RestApi construct has no property for. */
export function enforceTls(restApi: apigw.RestApi): void {
  const resource = restApi.node.defaultChild as apigw.CfnRestApi;
  resource.securityPolicy = API_TLS.securityPolicy;
  resource.endpointAccessMode = API_TLS.endpointAccessMode;
}

/**
 * A stage with JSON access logs, ERROR-level execution logs without data, X-Ray tracing when the context flag
 * `tracing` is on, and the configured throttling. No stage cache: every answer depends on who asks.
 */
export function loggedStageOptions(
  stageName: string,
  accessLogs: logs.ILogGroup,
  accessLogFields: Readonly<Record<string, string>>,
  config: DeployConfig,
): apigw.StageOptions {
  return {
    stageName,
    accessLogDestination: new apigw.LogGroupLogDestination(accessLogs),
    accessLogFormat: apigw.AccessLogFormat.custom(JSON.stringify(accessLogFields)),
    loggingLevel: apigw.MethodLoggingLevel.ERROR,
    dataTraceEnabled: false,
    tracingEnabled: config.tracing,
    throttlingRateLimit: config.throttleRate,
    throttlingBurstLimit: config.throttleBurst,
    cachingEnabled: false,
  };
}

/** One GatewayResponse per row of the API's table. */
export function addGatewayResponses(restApi: apigw.RestApi, table: readonly GatewayResponseDefinition[]): void {
  for (const row of table) {
    restApi.addGatewayResponse(row.type, {
      type: apigw.ResponseType.of(row.type),
      ...(row.status === undefined ? {} : { statusCode: String(row.status) }),
      responseHeaders: gatewayResponseHeaders(row),
      templates: { 'application/json': row.template },
    });
  }
}

interface RegistryRoute<Id extends string> {
  id: Id;
  method: string;
  path: string;
}

/**
 * One Lambda proxy method per route, behind the authorizer, invoking the function's `target` (its alias `live` when
 * it is released through CodeDeploy). Only path parameters are declared, and they are always present once a route
 * matched; no body model exists. The validator thus never answers before the authorizer, and the functions validate
 * every value and body themselves.
 */
export function addRouteMethods<Id extends string>(
  restApi: apigw.RestApi,
  routes: readonly RegistryRoute<Id>[],
  functionOf: (route: RegistryRoute<Id>) => FxratesFunction,
  auth: { authorizationType: apigw.AuthorizationType; authorizer: apigw.IAuthorizer },
): ReadonlyMap<Id, FxratesFunction> {
  const validator = restApi.addRequestValidator('Validator', {
    requestValidatorName: 'parameters-and-body',
    validateRequestParameters: true,
    validateRequestBody: true,
  });
  const functions = new Map<Id, FxratesFunction>();
  for (const route of routes) {
    const fn = functionOf(route);
    functions.set(route.id, fn);
    restApi.root
      .resourceForPath(route.path)
      .addMethod(route.method, new apigw.LambdaIntegration(fn.target, { proxy: true, allowTestInvoke: false }), {
        ...auth,
        requestValidator: validator,
        requestParameters: Object.fromEntries(
          pathParameterNames(route.path).map((n) => [`method.request.path.${n}`, true]),
        ),
      });
  }
  return functions;
}

export function pathParameterNames(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].flatMap((m) => (m[1] === undefined ? [] : [m[1]]));
}

/** A route id as part of a construct id: `keys-list` becomes `KeysList`. */
export function pascalCase(id: string): string {
  return id
    .split('-')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}
