import { randomUUID } from 'node:crypto';
import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type {
  APIGatewayAuthorizerResult,
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  APIGatewayRequestAuthorizerEvent,
  Context,
} from 'aws-lambda';
import { buildSite, OPENAPI_FILE, REFERENCE_PAGE_FILE } from '../api-docs/site';
import {
  DENY_CONTEXT_CODE,
  DENY_CONTEXT_MESSAGE,
  type GatewayResponseType,
  gatewayResponse,
  gatewayResponseHeaders,
  renderGatewayTemplate,
} from '../lambdas/core/http/gateway-responses';
import { API_KEY_HEADER, headerValue } from '../lambdas/core/http/headers';
import { API_BASE_PATH, matchRoute, type RouteId } from '../lambdas/core/http/routes';

export type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;
export type AuthorizerHandler = (
  event: APIGatewayRequestAuthorizerEvent,
  context: Context,
) => Promise<APIGatewayAuthorizerResult>;

export interface LocalGatewayOptions {
  handlers: Readonly<Record<RouteId, ProxyHandler>>;
  authorizer: AuthorizerHandler;
  /** Identity source of the authorizer: a request without this header never reaches it. */
  identityHeader?: string;
  requestId?: () => string;
  stage?: string;
  accountId?: string;
  apiId?: string;
  region?: string;
  onError?: (error: unknown, requestId: string) => void;
}

export interface GatewayReply {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

export interface GatewayRequest {
  method: string;
  /** Raw request target: path plus query string, as received. */
  url: string;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  sourceIp?: string;
}

function lambdaContext(name: string, requestId: string): Context {
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: name,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${name}`,
    memoryLimitInMB: '512',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${name}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => 29_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/** API Gateway's wildcard matching of policy resources against the method ARN. */
function resourceMatches(pattern: string, arn: string): boolean {
  const regex = new RegExp(
    `^${pattern
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
  return regex.test(arn);
}

function policyAllows(result: APIGatewayAuthorizerResult, methodArn: string): boolean {
  let allowed = false;
  for (const statement of result.policyDocument?.Statement ?? []) {
    const s = statement as { Effect?: string; Action?: string | string[]; Resource?: string | string[] };
    const actions = ([] as string[]).concat(s.Action ?? []);
    if (!actions.some((a) => a === 'execute-api:Invoke' || a === '*' || a === 'execute-api:*')) continue;
    const resources = ([] as string[]).concat(s.Resource ?? []);
    if (!resources.some((r) => resourceMatches(r, methodArn))) continue;
    if (s.Effect === 'Deny') return false;
    if (s.Effect === 'Allow') allowed = true;
  }
  return allowed;
}

/** API Gateway passes authorizer context values to the integration as strings. */
function stringifyContext(context: APIGatewayAuthorizerResult['context']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(context ?? {})) {
    if (value !== undefined && value !== null) out[key] = String(value);
  }
  return out;
}

/** Client-chosen names (`__proto__`, `constructor`) must stay plain keys: collected in a Map, then copied. */
function parseQuery(search: URLSearchParams): {
  single: Record<string, string> | null;
  multi: Record<string, string[]> | null;
} {
  const multi = new Map<string, string[]>();
  for (const [name, value] of search) multi.set(name, [...(multi.get(name) ?? []), value]);
  if (multi.size === 0) return { single: null, multi: null };
  // API Gateway's single-value map keeps the last value of a repeated parameter.
  const single = Object.fromEntries([...multi].map(([name, values]) => [name, values.at(-1) as string]));
  return { single, multi: Object.fromEntries(multi) };
}

function flattenHeaders(headers: GatewayRequest['headers']): {
  single: Record<string, string>;
  multi: Record<string, string[]>;
} {
  const entries = Object.entries(headers).flatMap(([name, value]) =>
    value === undefined ? [] : [[name, Array.isArray(value) ? value : [value]] as const],
  );
  return {
    single: Object.fromEntries(entries.map(([name, values]) => [name, values.at(-1) ?? ''])),
    multi: Object.fromEntries(entries),
  };
}

interface DocumentationPage {
  headers: Record<string, string>;
  body: string;
}

/** Where the reference is served: outside the versioned API, without a key. `/docs` redirects to `/docs/`. */
export const OPENAPI_PATH = `/${OPENAPI_FILE}`;
export const DOCS_PATH = '/docs/';

/**
 * The OpenAPI document and the reference page, built once from the code (api-docs/): the local server's own
 * addition, which API Gateway does not serve. The page has no scripts and loads nothing.
 */
function documentationPages(): ReadonlyMap<string, DocumentationPage> {
  const site = buildSite();
  const common = { 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' };
  return new Map([
    [
      OPENAPI_PATH,
      { headers: { ...common, 'Content-Type': 'application/json; charset=utf-8' }, body: site[OPENAPI_FILE] },
    ],
    [
      DOCS_PATH,
      {
        headers: {
          ...common,
          'Content-Type': 'text/html; charset=utf-8',
          'Content-Security-Policy':
            "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'",
        },
        body: site[REFERENCE_PAGE_FILE],
      },
    ],
    [DOCS_PATH.slice(0, -1), { headers: { ...common, Location: DOCS_PATH }, body: '' }],
  ]);
}

/**
 * A stand-in for API Gateway (REST) in front of the same handlers: route table matching, the REQUEST authorizer
 * with its identity source, policy evaluation, string context, Lambda proxy events, and gateway responses rendered
 * from the same table the CDK stack deploys.
 */
export function createLocalGateway(options: LocalGatewayOptions) {
  const identityHeader = options.identityHeader ?? API_KEY_HEADER;
  const newRequestId = options.requestId ?? randomUUID;
  const stage = options.stage ?? API_BASE_PATH.slice(1);
  const accountId = options.accountId ?? '000000000000';
  const apiId = options.apiId ?? 'local';
  const region = options.region ?? 'local';
  const documentation = documentationPages();

  function renderGateway(
    type: GatewayResponseType,
    requestId: string,
    authorizer: Record<string, string> = {},
  ): GatewayReply {
    const definition = gatewayResponse(type);
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

  async function handle(request: GatewayRequest): Promise<GatewayReply> {
    const requestId = newRequestId();
    let url: URL;
    try {
      url = new URL(request.url, 'http://local.invalid');
    } catch {
      return renderGateway('MISSING_AUTHENTICATION_TOKEN', requestId);
    }
    const path = url.pathname;
    const page = documentation.get(path);
    if (page && (request.method === 'GET' || request.method === 'HEAD')) {
      const statusCode = 'Location' in page.headers ? 301 : 200;
      return { statusCode, headers: { ...page.headers, 'X-Request-Id': requestId }, body: page.body };
    }
    const prefix = `/${stage}`;
    const resourcePath = path === prefix ? '/' : path.startsWith(`${prefix}/`) ? path.slice(prefix.length) : undefined;
    const match = resourcePath === undefined ? undefined : matchRoute(resourcePath);
    if (!match || request.method !== match.route.method)
      return renderGateway('MISSING_AUTHENTICATION_TOKEN', requestId);

    const { single: headers, multi: multiValueHeaders } = flattenHeaders(request.headers);
    const { single: query, multi: multiQuery } = parseQuery(url.searchParams);
    const identity = headerValue(headers, identityHeader);
    if (identity === undefined || identity === '') return renderGateway('UNAUTHORIZED', requestId);

    const methodArn = `arn:aws:execute-api:${region}:${accountId}:${apiId}/${stage}/${request.method}${match.route.path}`;
    const requestContext = {
      accountId,
      apiId,
      stage,
      requestId,
      httpMethod: request.method,
      path,
      resourcePath: match.route.path,
      resourceId: match.route.id,
      protocol: 'HTTP/1.1',
      requestTimeEpoch: Date.now(),
      identity: { sourceIp: request.sourceIp ?? '127.0.0.1', userAgent: headerValue(headers, 'user-agent') ?? null },
    };
    // What the REQUEST authorizer and the proxy integration both receive about the request.
    const described = {
      resource: match.route.path,
      path,
      httpMethod: request.method,
      headers,
      multiValueHeaders,
      queryStringParameters: query,
      multiValueQueryStringParameters: multiQuery,
      pathParameters: match.pathParameters,
      stageVariables: null,
    };
    const authorizerEvent = {
      type: 'REQUEST',
      methodArn,
      ...described,
      requestContext,
    } as unknown as APIGatewayRequestAuthorizerEvent;

    let verdict: APIGatewayAuthorizerResult;
    try {
      verdict = await options.authorizer(authorizerEvent, lambdaContext('authorizer', requestId));
    } catch (error) {
      if (error instanceof Error && error.message === 'Unauthorized') return renderGateway('UNAUTHORIZED', requestId);
      options.onError?.(error, requestId);
      return renderGateway('AUTHORIZER_FAILURE', requestId);
    }
    const context = stringifyContext(verdict.context);
    if (!policyAllows(verdict, methodArn)) {
      if (!(DENY_CONTEXT_CODE in context) || !(DENY_CONTEXT_MESSAGE in context)) {
        context[DENY_CONTEXT_CODE] ??= 'invalid-api-key';
        context[DENY_CONTEXT_MESSAGE] ??= 'The API key is not valid.';
      }
      return renderGateway('ACCESS_DENIED', requestId, context);
    }

    const proxyEvent = {
      ...described,
      body: null,
      isBase64Encoded: false,
      requestContext: { ...requestContext, authorizer: { ...context, principalId: verdict.principalId } },
    } as unknown as APIGatewayProxyEvent;
    try {
      const handler = options.handlers[match.route.id];
      const result = await handler(proxyEvent, lambdaContext(match.route.id, requestId));
      const replyHeaders: Record<string, string> = {};
      for (const [name, value] of Object.entries(result.headers ?? {})) replyHeaders[name] = String(value);
      return { statusCode: result.statusCode, headers: replyHeaders, body: result.body ?? '' };
    } catch (error) {
      options.onError?.(error, requestId);
      return renderGateway('DEFAULT_5XX', requestId);
    }
  }

  /** Node http listener. Bodies are not read (every route is GET); oversized requests are refused by Node. */
  async function listener(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const reply = await handle({
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      headers: req.headers,
      sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
    }).catch((error: unknown) => {
      const requestId = newRequestId();
      options.onError?.(error, requestId);
      return renderGateway('DEFAULT_5XX', requestId);
    });
    res.writeHead(reply.statusCode, reply.headers);
    res.end(reply.statusCode === 304 ? undefined : reply.body);
    req.resume();
  }

  /**
   * A request Node's HTTP parser refused (oversized headers, a malformed line) never reaches the listener; it is
   * still answered in the envelope with a request id, as API Gateway answers what it refuses.
   */
  function clientError(error: NodeJS.ErrnoException, socket: Duplex): void {
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const type = error.code === 'HPE_HEADER_OVERFLOW' ? 'REQUEST_TOO_LARGE' : 'BAD_REQUEST_PARAMETERS';
    const reply = renderGateway(type, newRequestId());
    const headers = {
      ...reply.headers,
      'Content-Length': String(Buffer.byteLength(reply.body)),
      Connection: 'close',
    };
    const head = [
      `HTTP/1.1 ${reply.statusCode} ${STATUS_CODES[reply.statusCode] ?? ''}`,
      ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    ];
    socket.end(`${head.join('\r\n')}\r\n\r\n${reply.body}`);
  }

  return { handle, listener, clientError, renderGateway };
}
