/** What passes between the local gateway and the functions: request target, events, verdicts and replies. */
import type { APIGatewayAuthorizerResult, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { DashboardRouteMatch } from '../lambdas/core/http/dashboard-routes';
import {
  GATEWAY_RESPONSES,
  type GatewayResponseDefinition,
  type GatewayResponseType,
  gatewayResponse,
  gatewayResponseHeaders,
  renderGatewayTemplate,
} from '../lambdas/core/http/gateway-responses';
import { headerValue } from '../lambdas/core/http/headers';
import type { RouteMatch } from '../lambdas/core/http/routes';

export interface GatewayRequest {
  method: string;
  /** Raw request target: path plus query string, as received. */
  url: string;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  sourceIp?: string;
  /** The body, read only for the dashboard API, whose routes take JSON. */
  body?: string;
}

/**
 * Dot segments (percent-encoded too) removed and `\` read as `/`, as CloudFront normalizes before it picks a cache
 * behaviour (`/v1/../api/keys` is the dashboard API there). A path starting `//` stays a path, not a host.
 */
export function requestTarget(raw: string): URL | undefined {
  try {
    return new URL(raw.startsWith('/') ? `http://local.invalid${raw}` : raw, 'http://local.invalid');
  } catch {
    return undefined;
  }
}

const remainingTime = () => 29_000;
const ignore = () => undefined;

/** A function's names, made once per function: two contexts are made for every request. */
const functionNames = new Map<string, { arn: string; logGroup: string }>();

export function lambdaContext(name: string, requestId: string): Context {
  let names = functionNames.get(name);
  if (!names) {
    names = { arn: `arn:aws:lambda:local:000000000000:function:${name}`, logGroup: `/aws/lambda/${name}` };
    functionNames.set(name, names);
  }
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: name,
    functionVersion: '$LATEST',
    invokedFunctionArn: names.arn,
    memoryLimitInMB: '512',
    awsRequestId: requestId,
    logGroupName: names.logGroup,
    logStreamName: 'local',
    getRemainingTimeInMillis: remainingTime,
    done: ignore,
    fail: ignore,
    succeed: ignore,
  };
}

/** Client-chosen names (`__proto__`, `constructor`) must stay plain keys: collected in a Map, then copied. */
function parseQuery(url: URL) {
  // Reading `searchParams` builds its parser; most requests carry no query at all.
  if (url.search === '') return { single: null, multi: null };
  const search = url.searchParams;
  const multi = new Map<string, string[]>();
  for (const [name, value] of search) multi.set(name, [...(multi.get(name) ?? []), value]);
  if (multi.size === 0) return { single: null, multi: null };
  // API Gateway's single-value map keeps the last value of a repeated parameter.
  const single = Object.fromEntries([...multi].map(([name, values]) => [name, values.at(-1) as string]));
  return { single, multi: Object.fromEntries(multi) };
}

/** A header named `__proto__` must stay a plain key: assigning it would set the object's prototype instead. */
function setPlain<T>(target: Record<string, T>, name: string, value: T): void {
  if (name === '__proto__') {
    Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[name] = value;
  }
}

function flattenHeaders(headers: GatewayRequest['headers']) {
  const single: Record<string, string> = {};
  const multi: Record<string, string[]> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      setPlain(single, name, value.at(-1) ?? '');
      setPlain(multi, name, value);
    } else {
      setPlain(single, name, value);
      setPlain(multi, name, [value]);
    }
  }
  return { single, multi };
}

/** What a proxy integration and a REQUEST authorizer both receive: `requestContext` without its `authorizer`. */
export function describeRequest(
  request: GatewayRequest,
  url: URL,
  match: RouteMatch | DashboardRouteMatch,
  api: { accountId: string; apiId: string; stage: string; requestId: string },
) {
  const { single: headers, multi: multiValueHeaders } = flattenHeaders(request.headers);
  const { single: query, multi: multiQuery } = parseQuery(url);
  const event = {
    resource: match.route.path,
    path: url.pathname,
    httpMethod: request.method,
    headers,
    multiValueHeaders,
    queryStringParameters: query,
    multiValueQueryStringParameters: multiQuery,
    pathParameters: match.pathParameters,
    stageVariables: null,
  };
  // Why: docs/clever-parts.md#no-spread-then-new-keys-on-the-gateways-path
  const requestContext = {
    accountId: api.accountId,
    apiId: api.apiId,
    stage: api.stage,
    requestId: api.requestId,
    httpMethod: request.method,
    path: url.pathname,
    resourcePath: match.route.path,
    resourceId: match.route.id,
    protocol: 'HTTP/1.1',
    requestTimeEpoch: Date.now(),
    identity: { sourceIp: request.sourceIp ?? '127.0.0.1', userAgent: headerValue(headers, 'user-agent') ?? null },
  };
  return { event, requestContext };
}

/** Compiled policy resources: an authorizer's policies name the same few patterns on every request. */
const resourcePatterns = new Map<string, RegExp>();
const MAX_RESOURCE_PATTERNS = 256;

/** API Gateway's wildcard matching of policy resources against the method ARN. */
function resourceMatches(pattern: string, arn: string): boolean {
  let compiled = resourcePatterns.get(pattern);
  if (!compiled) {
    const escaped = pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
    compiled = new RegExp(`^${escaped.join('.*')}$`);
    if (resourcePatterns.size >= MAX_RESOURCE_PATTERNS) resourcePatterns.clear();
    resourcePatterns.set(pattern, compiled);
  }
  return compiled.test(arn);
}

const invokes = (action: string) => action === 'execute-api:Invoke' || action === '*' || action === 'execute-api:*';

/** A policy field holds one string or a list of them. */
function anyOf(field: string | string[] | undefined, test: (value: string) => boolean): boolean {
  if (field === undefined) return false;
  return typeof field === 'string' ? test(field) : field.some(test);
}

export function policyAllows(result: APIGatewayAuthorizerResult, methodArn: string): boolean {
  let allowed = false;
  for (const statement of result.policyDocument?.Statement ?? []) {
    const s = statement as { Effect?: string; Action?: string | string[]; Resource?: string | string[] };
    if (!anyOf(s.Action, invokes)) continue;
    if (!anyOf(s.Resource, (resource) => resourceMatches(resource, methodArn))) continue;
    if (s.Effect === 'Deny') return false;
    if (s.Effect === 'Allow') allowed = true;
  }
  return allowed;
}

/** API Gateway passes authorizer context values to the integration as strings. */
export function stringifyContext(context: APIGatewayAuthorizerResult['context']): Record<string, string> {
  const out: Record<string, string> = {};
  if (!context) return out;
  for (const key in context) {
    const value = context[key];
    if (Object.hasOwn(context, key) && value !== undefined && value !== null) setPlain(out, key, String(value));
  }
  return out;
}

export interface GatewayReply {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

export function renderDefinition(
  definition: GatewayResponseDefinition,
  requestId: string,
  authorizer: Record<string, string> = {},
): GatewayReply {
  const context: Record<string, string> = { requestId };
  for (const [key, value] of Object.entries(authorizer)) context[`authorizer.${key}`] = value;
  const headers: Record<string, string> = {};
  for (const [name, expression] of Object.entries(gatewayResponseHeaders(definition))) {
    headers[name] = expression.startsWith("'")
      ? expression.slice(1, -1)
      : (context[expression.replace(/^context\./, '')] ?? '');
  }
  // The DEFAULT_* rows keep the status of the failure; locally that is a function failing: 500.
  const statusCode = definition.status ?? 500;
  return { statusCode, headers, body: renderGatewayTemplate(definition.template, context) };
}

export function renderGateway(
  type: GatewayResponseType,
  requestId: string,
  authorizer: Record<string, string> = {},
  table: readonly GatewayResponseDefinition[] = GATEWAY_RESPONSES,
): GatewayReply {
  return renderDefinition(gatewayResponse(type, table), requestId, authorizer);
}

/** A proxy integration's answer as the gateway sends it on: header values as strings, no body as empty. */
export function proxyReply(result: APIGatewayProxyResult): GatewayReply {
  const headers: Record<string, string> = {};
  const given = result.headers;
  if (given) for (const name in given) if (Object.hasOwn(given, name)) setPlain(headers, name, String(given[name]));
  return { statusCode: result.statusCode, headers, body: result.body ?? '' };
}
