import { randomUUID } from 'node:crypto';
import { type IncomingMessage, type Server, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type {
  APIGatewayAuthorizerResult,
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  APIGatewayRequestAuthorizerEvent,
  Context,
} from 'aws-lambda';
import { buildSite, OPENAPI_FILE, REFERENCE_PAGE_CSP, REFERENCE_PAGE_FILE } from '../api-docs/site';
import {
  DASHBOARD_BASE_PATH,
  DASHBOARD_MAX_BODY_BYTES,
  DASHBOARD_TOKEN_HEADER,
  type DashboardRouteId,
  matchDashboardRoute,
} from '../lambdas/core/http/dashboard-routes';
import {
  DASHBOARD_GATEWAY_RESPONSES,
  DENY_CONTEXT_CODE,
  DENY_CONTEXT_MESSAGE,
  GATEWAY_RESPONSES,
  type GatewayResponseDefinition,
  type GatewayResponseType,
  gatewayResponse,
  gatewayResponseHeaders,
  renderGatewayTemplate,
  TOO_MANY_HEADERS_RESPONSE,
} from '../lambdas/core/http/gateway-responses';
import { API_KEY_HEADER, headerValue } from '../lambdas/core/http/headers';
import { API_BASE_PATH, matchRoute, type RouteId } from '../lambdas/core/http/routes';
import { createStaticEncoder, type StaticReply } from './static-encoding';

export type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

/**
 * What a handler throws when its Lambda function failed as Lambda reports it (it threw, timed out, or could not
 * start): API Gateway answers a proxy integration's function error with 502, not the 500 of a local handler's throw.
 * https://docs.aws.amazon.com/lambda/latest/dg/services-apigateway-errors.html
 */
export class FunctionError extends Error {
  override readonly name = 'FunctionError';
  /** The status API Gateway answers this failure with. */
  readonly gatewayStatus = 502;
}
export type AuthorizerHandler = (
  event: APIGatewayRequestAuthorizerEvent,
  context: Context,
) => Promise<APIGatewayAuthorizerResult>;

/** A file the local server serves as it is, beside the API: the dashboard page and its config. */
export interface StaticPage {
  headers: Record<string, string>;
  body: string;
}

/** The account dashboard's API on the local server, as CloudFront forwards `/api/*` to it on AWS. */
export interface LocalDashboardOptions {
  handlers: Readonly<Record<DashboardRouteId, ProxyHandler>>;
  /** API Gateway's Cognito authorizer: the token's claims when it accepts the token, else undefined. */
  verifyToken: (authorization: string | undefined) => Promise<Readonly<Record<string, unknown>> | undefined>;
  /** The page's files by path (`/`, `/app.js`, `/config.json`, …). */
  pages: ReadonlyMap<string, StaticPage>;
}

export interface LocalGatewayOptions {
  handlers: Readonly<Record<RouteId, ProxyHandler>>;
  dashboard?: LocalDashboardOptions;
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
  /** The body, read only for the dashboard API, whose routes take JSON. */
  body?: string;
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

/** The largest body the local gateway reads: the dashboard's routes read at most DASHBOARD_MAX_BODY_BYTES. */
export const MAX_GATEWAY_BODY_BYTES = 16 * DASHBOARD_MAX_BODY_BYTES;

/**
 * The most header fields a request may have (Node's default count). A request with more is refused as having too
 * many headers, rather than read without the fields past the limit.
 */
export const MAX_REQUEST_HEADERS = 2000;

/**
 * Whether the bytes the parser refused start with a well-formed method token followed by a space (or the end of what
 * arrived): an unknown method such as `FOO`, rather than garbage or a request line without a target (`GET`).
 */
function isMethodToken(packet: Buffer | undefined): boolean {
  if (packet === undefined) return true;
  return /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+( |$)/.test(packet.subarray(0, 64).toString('latin1'));
}

function isDashboardPath(path: string): boolean {
  return path === DASHBOARD_BASE_PATH || path.startsWith(`${DASHBOARD_BASE_PATH}/`);
}

/**
 * The request target as the gateway decides on it, once for everything it decides (whether it reads a body,
 * which page or route answers): dot segments removed, `.`/`..` and their percent-encoded spellings, as RFC 3986
 * 5.2.4 removes them (and `\` read as `/`, as WHATWG URL parsing does); undefined when it is not a URL.
 * On AWS this port's paths are split between two hosts. CloudFront (the page, /docs/, /openapi.json, /api/*)
 * documents that it normalizes the path this way before it picks a cache behaviour, so `/v1/../api/keys` there is
 * a request to the dashboard API; API Gateway's own handling of a raw `..` is not documented. Browsers, fetch and
 * curl remove dot segments before they send, so only a hand-built request carries them, and here it gets the
 * answer its normalized path gets. A path starting `//` stays a path (`new URL` alone would read its first
 * segment as a host).
 */
function requestTarget(raw: string): URL | undefined {
  try {
    return new URL(raw.startsWith('/') ? `http://local.invalid${raw}` : raw, 'http://local.invalid');
  } catch {
    return undefined;
  }
}

/** The body as text, or undefined when it is larger than `limit` bytes (the rest is then not read). */
function readBody(req: IncomingMessage, limit: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (value: string | undefined) => {
      if (done) return;
      done = true;
      resolve(value);
    };
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.pause();
        finish(undefined);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => finish(Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => finish(undefined));
  });
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
          'Content-Security-Policy': REFERENCE_PAGE_CSP,
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
  const staticFiles = createStaticEncoder();

  /** What is served at `path` for GET and HEAD, if anything: a file, or the `/docs` redirect. */
  function pageAt(path: string): StaticPage | undefined {
    return documentation.get(path) ?? options.dashboard?.pages.get(path);
  }

  function renderGateway(
    type: GatewayResponseType,
    requestId: string,
    authorizer: Record<string, string> = {},
    table: readonly GatewayResponseDefinition[] = GATEWAY_RESPONSES,
  ): GatewayReply {
    return renderDefinition(gatewayResponse(type, table), requestId, authorizer);
  }

  function renderDefinition(
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

  async function handle(request: GatewayRequest): Promise<GatewayReply> {
    const requestId = newRequestId();
    const url = requestTarget(request.url);
    if (!url) return renderGateway('MISSING_AUTHENTICATION_TOKEN', requestId);
    const path = url.pathname;
    const page = pageAt(path);
    if (page && (request.method === 'GET' || request.method === 'HEAD')) {
      const statusCode = 'Location' in page.headers ? 301 : 200;
      return { statusCode, headers: { ...page.headers, 'X-Request-Id': requestId }, body: page.body };
    }
    if (options.dashboard && isDashboardPath(path)) {
      return handleDashboard(options.dashboard, request, url, requestId);
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
      // API Gateway answers a Lambda authorizer that fails (throws, times out) with AUTHORIZER_CONFIGURATION_ERROR.
      // The authorizer throws only for faults of the deployment (a missing table, a refused permission); a store
      // outage is its `unavailable` verdict, which the endpoint renders as 503.
      options.onError?.(error, requestId);
      return renderGateway('AUTHORIZER_CONFIGURATION_ERROR', requestId);
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
      const reply = renderGateway('DEFAULT_5XX', requestId);
      return error instanceof FunctionError ? { ...reply, statusCode: error.gatewayStatus } : reply;
    }
  }

  /**
   * The dashboard API as API Gateway runs it behind a Cognito authorizer: route match (an unknown method or path is
   * a 404), the token checked before any function runs, the claims handed to the function as strings under
   * `requestContext.authorizer.claims`, and the dashboard API's own gateway responses.
   */
  async function handleDashboard(
    dashboard: LocalDashboardOptions,
    request: GatewayRequest,
    url: URL,
    requestId: string,
  ): Promise<GatewayReply> {
    const render = (type: GatewayResponseType) => renderGateway(type, requestId, {}, DASHBOARD_GATEWAY_RESPONSES);
    const resourcePath = url.pathname.slice(DASHBOARD_BASE_PATH.length) || '/';
    const match = matchDashboardRoute(request.method, resourcePath);
    if (!match) return render('MISSING_AUTHENTICATION_TOKEN');
    if (request.body === undefined) return render('REQUEST_TOO_LARGE');
    const { single: headers, multi: multiValueHeaders } = flattenHeaders(request.headers);
    const claims = await dashboard.verifyToken(headerValue(headers, DASHBOARD_TOKEN_HEADER));
    if (!claims) return render('UNAUTHORIZED');
    const { single: query, multi: multiQuery } = parseQuery(url.searchParams);
    const event = {
      resource: match.route.path,
      path: url.pathname,
      httpMethod: request.method,
      headers,
      multiValueHeaders,
      queryStringParameters: query,
      multiValueQueryStringParameters: multiQuery,
      pathParameters: Object.keys(match.pathParameters).length > 0 ? match.pathParameters : null,
      stageVariables: null,
      body: request.body === '' ? null : request.body,
      isBase64Encoded: false,
      requestContext: {
        accountId,
        apiId: 'local-dashboard',
        stage: DASHBOARD_BASE_PATH.slice(1),
        requestId,
        httpMethod: request.method,
        path: url.pathname,
        resourcePath: match.route.path,
        resourceId: match.route.id,
        protocol: 'HTTP/1.1',
        requestTimeEpoch: Date.now(),
        identity: { sourceIp: request.sourceIp ?? '127.0.0.1', userAgent: headerValue(headers, 'user-agent') ?? null },
        authorizer: { claims: Object.fromEntries(Object.entries(claims).map(([k, v]) => [k, String(v)])) },
      },
    } as unknown as APIGatewayProxyEvent;
    try {
      const result = await dashboard.handlers[match.route.id](event, lambdaContext(match.route.id, requestId));
      const replyHeaders: Record<string, string> = {};
      for (const [name, value] of Object.entries(result.headers ?? {})) replyHeaders[name] = String(value);
      return { statusCode: result.statusCode, headers: replyHeaders, body: result.body ?? '' };
    } catch (error) {
      options.onError?.(error, requestId);
      return render('DEFAULT_5XX');
    }
  }

  /** What the listener refuses before routing: what Node's parser let through but the gateway cannot answer. */
  function refusal(req: IncomingMessage, requestId: string): GatewayReply | undefined {
    // Node keeps the first maxHeadersCount fields and drops the rest unseen; attachLocalGateway sets that count
    // one above the limit, so a request that reaches it has lost fields (an X-API-Key among them, perhaps).
    if (req.rawHeaders.length / 2 > MAX_REQUEST_HEADERS) return renderDefinition(TOO_MANY_HEADERS_RESPONSE, requestId);
    // HTTP/1.1 requires Host (RFC 9112 3.2); Node's own check answers without the envelope, so the gateway checks.
    if (req.httpVersion === '1.1' && req.headers.host === undefined) {
      const reply = renderGateway('BAD_REQUEST_PARAMETERS', requestId);
      return { ...reply, headers: { ...reply.headers, Connection: 'close' } };
    }
    return undefined;
  }

  /**
   * Node http listener. Only the dashboard API's bodies are read (every public route is GET), up to the gateway's
   * limit; a larger body is refused unread. Oversized headers are refused by Node (see clientError).
   */
  async function listener(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = req.url ?? '/';
    const method = req.method ?? 'GET';
    const refused = refusal(req, newRequestId());
    const path = requestTarget(raw)?.pathname;
    const page = refused || path === undefined || (method !== 'GET' && method !== 'HEAD') ? undefined : pageAt(path);
    if (page && !('Location' in page.headers)) {
      await serveFile(req, res, page);
      return;
    }
    const readsBody = !refused && options.dashboard !== undefined && path !== undefined && isDashboardPath(path);
    const body = readsBody ? await readBody(req, MAX_GATEWAY_BODY_BYTES) : '';
    const reply =
      refused ??
      (await handle({
        method,
        url: raw,
        headers: req.headers,
        sourceIp: req.socket.remoteAddress ?? '127.0.0.1',
        ...(body === undefined ? {} : { body }),
      }).catch((error: unknown) => {
        const requestId = newRequestId();
        options.onError?.(error, requestId);
        return renderGateway('DEFAULT_5XX', requestId);
      }));
    res.writeHead(reply.statusCode, reply.headers);
    res.end(reply.statusCode === 304 ? undefined : reply.body);
    req.resume();
  }

  /**
   * A file of the page or the reference, in the coding the client accepts best (static-encoding.ts), with an ETag
   * per coding and 304 for a matching If-None-Match; 406 when the client refuses every coding, identity included.
   */
  async function serveFile(req: IncomingMessage, res: ServerResponse, page: StaticPage): Promise<void> {
    const requestId = newRequestId();
    let reply: StaticReply | GatewayReply | undefined;
    try {
      reply = await staticFiles.reply(page, {
        method: req.method ?? 'GET',
        acceptEncoding: req.headers['accept-encoding'],
        ifNoneMatch: req.headers['if-none-match'],
      });
      reply ??= { ...renderGateway('DEFAULT_4XX', requestId), statusCode: 406 };
    } catch (error) {
      options.onError?.(error, requestId);
      reply = renderGateway('DEFAULT_5XX', requestId);
    }
    res.writeHead(reply.statusCode, { ...reply.headers, 'X-Request-Id': requestId });
    res.end(reply.statusCode === 304 ? undefined : reply.body);
    req.resume();
  }

  /** A gateway reply written straight onto a socket Node no longer reads HTTP from; the connection then closes. */
  function answerOnSocket(socket: Duplex, reply: GatewayReply): void {
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

  /**
   * A request Node's HTTP parser refused never reaches the listener; it is still answered in the envelope with a
   * request id, as API Gateway answers what it refuses: an unknown method (a well-formed token Node does not know,
   * such as `FOO`) as any unknown method, 404 not-found; headers over Node's size limit as a request too large; a
   * request not finished in time as a 408; anything else malformed as 400 invalid-parameter.
   */
  function clientError(error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex): void {
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const requestId = newRequestId();
    let reply: GatewayReply;
    if (error.code === 'HPE_INVALID_METHOD' && isMethodToken(error.rawPacket)) {
      reply = renderGateway('MISSING_AUTHENTICATION_TOKEN', requestId);
    } else if (error.code === 'HPE_HEADER_OVERFLOW') {
      reply = renderGateway('REQUEST_TOO_LARGE', requestId);
    } else if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      // DEFAULT_4XX keeps the status of the failure, as on API Gateway.
      reply = { ...renderGateway('DEFAULT_4XX', requestId), statusCode: 408 };
    } else {
      reply = renderGateway('BAD_REQUEST_PARAMETERS', requestId);
    }
    answerOnSocket(socket, reply);
  }

  /**
   * CONNECT: Node hands the socket over (and, with no listener, closes it without a byte). API Gateway routes no
   * CONNECT method, so it is an unknown method: 404 not-found, and the connection closes.
   */
  function connect(_req: IncomingMessage, socket: Duplex): void {
    // Node has removed its own listeners from the socket: a reset by the client must not become an uncaught error.
    socket.on('error', () => socket.destroy());
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    answerOnSocket(socket, renderGateway('MISSING_AUTHENTICATION_TOKEN', newRequestId()));
  }

  /** An `Expect` other than 100-continue: Node would answer a bare 417; the gateway answers it in the envelope. */
  function checkExpectation(req: IncomingMessage, res: ServerResponse): void {
    const reply = { ...renderGateway('DEFAULT_4XX', newRequestId()), statusCode: 417 };
    res.writeHead(reply.statusCode, reply.headers);
    res.end(reply.body);
    req.resume();
  }

  return { handle, listener, clientError, connect, checkExpectation, renderGateway };
}

export type LocalGateway = ReturnType<typeof createLocalGateway>;

/**
 * Serves `gateway` on `server`, created without a request listener (`attachLocalGateway(createServer(), gateway)`),
 * so that every request reaching the port is answered in the envelope with an X-Request-Id: requests ('request'),
 * what Node's parser refuses ('clientError'), CONNECT ('connect') and unmet expectations ('checkExpectation'). No
 * 'upgrade' listener is registered on purpose: without one, Node passes a request asking for a protocol upgrade
 * (`Upgrade: websocket`) to 'request' like any other, and it is answered as API Gateway answers it, without
 * switching protocols. The header-count limit is set here (see refusal).
 */
export function attachLocalGateway(server: Server, gateway: LocalGateway): Server {
  server.maxHeadersCount = MAX_REQUEST_HEADERS + 1;
  // Node's check would answer a missing Host with a bare 400; the listener answers it in the envelope instead.
  (server as Server & { requireHostHeader: boolean }).requireHostHeader = false;
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    void gateway.listener(req, res);
  });
  server.on('clientError', gateway.clientError);
  server.on('connect', gateway.connect);
  server.on('checkExpectation', gateway.checkExpectation);
  return server;
}
