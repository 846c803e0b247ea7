/**
 * A stand-in for API Gateway (REST) in front of the same handlers, with gateway responses from the table the CDK
 * stack deploys; beside the API it serves the reference and the dashboard. gateway-http.ts puts it on a server.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type {
  APIGatewayAuthorizerResult,
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  APIGatewayRequestAuthorizerEvent,
  Context,
} from 'aws-lambda';
import { buildSite, OPENAPI_FILE, REFERENCE_PAGE_CSP, REFERENCE_PAGE_FILE } from '../api-docs/site';
import { DENY_CONTEXT_CODE, DENY_CONTEXT_MESSAGE } from '../lambdas/core/http/authorizer-context';
import {
  DASHBOARD_BASE_PATH,
  DASHBOARD_MAX_BODY_BYTES,
  DASHBOARD_TOKEN_HEADER,
  type DashboardRouteId,
  matchDashboardRoute,
} from '../lambdas/core/http/dashboard-routes';
import { DASHBOARD_GATEWAY_RESPONSES, type GatewayResponseType } from '../lambdas/core/http/gateway-responses';
import { API_KEY_HEADER, headerValue } from '../lambdas/core/http/headers';
import { API_BASE_PATH, matchRoute, type RouteId, type RouteMatch } from '../lambdas/core/http/routes';
import {
  describeRequest,
  type GatewayReply,
  type GatewayRequest,
  lambdaContext,
  policyAllows,
  proxyReply,
  renderGateway,
  requestTarget,
  stringifyContext,
} from './gateway-events';
import { type GatewayCore, httpSide, MAX_REQUEST_HEADERS } from './gateway-http';
import { createStaticEncoder } from './static-encoding';

export { MAX_REQUEST_HEADERS } from './gateway-http';

export type ProxyHandler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

/** A Lambda function error: API Gateway answers it with 502, not the 500 of a local handler's throw. */
export class FunctionError extends Error {
  override readonly name = 'FunctionError';
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

/** The largest body the local gateway reads: the dashboard's routes read at most DASHBOARD_MAX_BODY_BYTES. */
export const MAX_GATEWAY_BODY_BYTES = 16 * DASHBOARD_MAX_BODY_BYTES;

/** Where the reference is served: outside the versioned API, without a key. `/docs` redirects to `/docs/`. */
export const OPENAPI_PATH = `/${OPENAPI_FILE}`;
export const DOCS_PATH = '/docs/';

/** The local server's own addition, which API Gateway does not serve. */
function documentationPages(): ReadonlyMap<string, StaticPage> {
  const site = buildSite();
  const common = { 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' };
  const html = { ...common, 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': REFERENCE_PAGE_CSP };
  return new Map([
    [
      OPENAPI_PATH,
      { headers: { ...common, 'Content-Type': 'application/json; charset=utf-8' }, body: site[OPENAPI_FILE] },
    ],
    [DOCS_PATH, { headers: html, body: site[REFERENCE_PAGE_FILE] }],
    [DOCS_PATH.slice(0, -1), { headers: { ...common, Location: DOCS_PATH }, body: '' }],
  ]);
}

interface Gateway extends GatewayCore, Required<Omit<LocalGatewayOptions, 'dashboard' | 'requestId' | 'onError'>> {
  dashboard: LocalDashboardOptions | undefined;
  /** Each route's method ARN, made at its first request. */
  methodArns: Map<RouteId, string>;
}

export function createLocalGateway(options: LocalGatewayOptions) {
  const documentation = documentationPages();
  const gateway: Gateway = {
    handlers: options.handlers,
    dashboard: options.dashboard,
    authorizer: options.authorizer,
    identityHeader: options.identityHeader ?? API_KEY_HEADER,
    newRequestId: options.requestId ?? randomUUID,
    stage: options.stage ?? API_BASE_PATH.slice(1),
    accountId: options.accountId ?? '000000000000',
    apiId: options.apiId ?? 'local',
    region: options.region ?? 'local',
    onError: options.onError ?? (() => undefined),
    pageAt: (path) => documentation.get(path) ?? options.dashboard?.pages.get(path),
    bodyLimitAt: (path) => (options.dashboard && isDashboardPath(path) ? MAX_GATEWAY_BODY_BYTES : undefined),
    route: (request, url) => routeRequest(gateway, request, url),
    staticFiles: createStaticEncoder(),
    methodArns: new Map(),
  };
  return {
    handle: (request: GatewayRequest) => routeRequest(gateway, request, requestTarget(request.url)),
    ...httpSide(gateway),
    renderGateway,
  };
}

export type LocalGateway = ReturnType<typeof createLocalGateway>;

/** Which of the three answers a request: a page (GET and HEAD only), the dashboard API, or the public API. */
async function routeRequest(gateway: Gateway, request: GatewayRequest, url: URL | undefined): Promise<GatewayReply> {
  const requestId = gateway.newRequestId();
  if (!url) return renderGateway('MISSING_AUTHENTICATION_TOKEN', requestId);
  const page = gateway.pageAt(url.pathname);
  if (page && (request.method === 'GET' || request.method === 'HEAD')) {
    const statusCode = 'Location' in page.headers ? 301 : 200;
    return { statusCode, headers: { ...page.headers, 'X-Request-Id': requestId }, body: page.body };
  }
  if (gateway.dashboard && isDashboardPath(url.pathname)) {
    return handleDashboard(gateway, gateway.dashboard, request, url, requestId);
  }
  const prefix = `/${gateway.stage}`;
  const path = url.pathname;
  const resourcePath = path === prefix ? '/' : path.startsWith(`${prefix}/`) ? path.slice(prefix.length) : undefined;
  // The one place the public API's route registry is consulted.
  const match = resourcePath === undefined ? undefined : matchRoute(resourcePath);
  if (!match || request.method !== match.route.method) return renderGateway('MISSING_AUTHENTICATION_TOKEN', requestId);
  return handleApi(gateway, request, url, match, requestId);
}

/** The public API: the identity source, the REQUEST authorizer and its policy, then the route's function. */
async function handleApi(
  gateway: Gateway,
  request: GatewayRequest,
  url: URL,
  match: RouteMatch,
  requestId: string,
): Promise<GatewayReply> {
  const { accountId, apiId, stage, region } = gateway;
  const { event, requestContext } = describeRequest(request, url, match, { accountId, apiId, stage, requestId });
  const identity = headerValue(event.headers, gateway.identityHeader);
  if (identity === undefined || identity === '') return renderGateway('UNAUTHORIZED', requestId);

  // routeRequest has checked that the request's method is the route's.
  let methodArn = gateway.methodArns.get(match.route.id);
  if (methodArn === undefined) {
    methodArn = `arn:aws:execute-api:${region}:${accountId}:${apiId}/${stage}/${match.route.method}${match.route.path}`;
    gateway.methodArns.set(match.route.id, methodArn);
  }
  // Why: docs/clever-parts.md#no-spread-then-new-keys-on-the-gateways-path (here and below: new keys first).
  const authorizerEvent = { type: 'REQUEST', methodArn, requestContext, ...event };
  const verdict = await authorize(gateway, authorizerEvent as unknown as APIGatewayRequestAuthorizerEvent, requestId);
  if ('statusCode' in verdict) return verdict;
  const context = stringifyContext(verdict.context);
  if (!policyAllows(verdict, methodArn)) {
    context[DENY_CONTEXT_CODE] ??= 'invalid-api-key';
    context[DENY_CONTEXT_MESSAGE] ??= 'The API key is not valid.';
    return renderGateway('ACCESS_DENIED', requestId, context);
  }

  context.principalId = verdict.principalId;
  const proxyEvent = {
    body: null,
    isBase64Encoded: false,
    requestContext: { authorizer: context, ...requestContext },
    ...event,
  } as unknown as APIGatewayProxyEvent;
  try {
    return proxyReply(await gateway.handlers[match.route.id](proxyEvent, lambdaContext(match.route.id, requestId)));
  } catch (error) {
    gateway.onError(error, requestId);
    const reply = renderGateway('DEFAULT_5XX', requestId);
    return error instanceof FunctionError ? { ...reply, statusCode: error.gatewayStatus } : reply;
  }
}

/** The authorizer's verdict, or the gateway's answer when it denies (`Unauthorized`) or fails. */
async function authorize(
  gateway: Gateway,
  event: APIGatewayRequestAuthorizerEvent,
  requestId: string,
): Promise<APIGatewayAuthorizerResult | GatewayReply> {
  try {
    return await gateway.authorizer(event, lambdaContext('authorizer', requestId));
  } catch (error) {
    if (error instanceof Error && error.message === 'Unauthorized') return renderGateway('UNAUTHORIZED', requestId);
    // As API Gateway answers a Lambda authorizer that throws or times out (gateway-responses.ts says when).
    gateway.onError(error, requestId);
    return renderGateway('AUTHORIZER_CONFIGURATION_ERROR', requestId);
  }
}

function isDashboardPath(path: string): boolean {
  return path === DASHBOARD_BASE_PATH || path.startsWith(`${DASHBOARD_BASE_PATH}/`);
}

/** The dashboard API as API Gateway runs it behind a Cognito authorizer (claims as strings, its own responses). */
async function handleDashboard(
  gateway: Gateway,
  dashboard: LocalDashboardOptions,
  request: GatewayRequest,
  url: URL,
  requestId: string,
): Promise<GatewayReply> {
  const { accountId } = gateway;
  const render = (type: GatewayResponseType) => renderGateway(type, requestId, {}, DASHBOARD_GATEWAY_RESPONSES);
  const match = matchDashboardRoute(request.method, url.pathname.slice(DASHBOARD_BASE_PATH.length) || '/');
  if (!match) return render('MISSING_AUTHENTICATION_TOKEN');
  if (request.body === undefined) return render('REQUEST_TOO_LARGE');
  const stage = DASHBOARD_BASE_PATH.slice(1);
  const described = describeRequest(request, url, match, { accountId, apiId: 'local-dashboard', stage, requestId });
  const claims = await dashboard.verifyToken(headerValue(described.event.headers, DASHBOARD_TOKEN_HEADER));
  if (!claims) return render('UNAUTHORIZED');
  const event = {
    body: request.body === '' ? null : request.body,
    isBase64Encoded: false,
    requestContext: {
      authorizer: { claims: Object.fromEntries(Object.entries(claims).map(([k, v]) => [k, String(v)])) },
      ...described.requestContext,
    },
    ...described.event,
    pathParameters: Object.keys(match.pathParameters).length > 0 ? match.pathParameters : null,
  } as unknown as APIGatewayProxyEvent;
  try {
    return proxyReply(await dashboard.handlers[match.route.id](event, lambdaContext(match.route.id, requestId)));
  } catch (error) {
    gateway.onError(error, requestId);
    return render('DEFAULT_5XX');
  }
}

/**
 * `server` is created without a request listener, so every request is answered in the envelope. No 'upgrade'
 * listener on purpose: Node then passes `Upgrade: websocket` to 'request', answered without switching protocols.
 */
export function attachLocalGateway(server: Server, gateway: LocalGateway): Server {
  // One above the limit, so that a request that lost fields to Node's count is seen and refused (gateway-http.ts).
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
