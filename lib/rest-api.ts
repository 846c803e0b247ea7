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
 * A stage with JSON access logs, ERROR-level execution logs without data, tracing, and the configured throttling.
 * No stage cache: every answer depends on who asks.
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
    tracingEnabled: true,
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
 * One Lambda proxy method per route, behind the authorizer. Only path parameters are declared, and they are always
 * present once a route matched; no body model exists. The validator thus never answers before the authorizer, and
 * the functions validate every value and body themselves.
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
      .addMethod(route.method, new apigw.LambdaIntegration(fn.function, { proxy: true, allowTestInvoke: false }), {
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
