import type { APIGatewayProxyEvent } from 'aws-lambda';
import {
  DASHBOARD_BASE_PATH,
  DASHBOARD_TOKEN_HEADER,
  matchDashboardRoute,
} from '../lambdas/core/http/dashboard-routes';
import { DASHBOARD_GATEWAY_RESPONSES, type GatewayResponseType } from '../lambdas/core/http/gateway-responses';
import { headerValue } from '../lambdas/core/http/headers';
import type { LocalDashboardOptions } from './gateway';
import {
  describeRequest,
  type GatewayReply,
  type GatewayRequest,
  lambdaContext,
  proxyReply,
  renderGateway,
} from './gateway-events';

export function isDashboardPath(path: string): boolean {
  return path === DASHBOARD_BASE_PATH || path.startsWith(`${DASHBOARD_BASE_PATH}/`);
}

/**
 * The dashboard API as API Gateway runs it behind a Cognito authorizer: route match (an unknown method or path is
 * a 404), the token checked before any function runs, the claims handed to the function as strings under
 * `requestContext.authorizer.claims`, and the dashboard API's own gateway responses.
 */
export async function handleDashboard(
  dashboard: LocalDashboardOptions,
  request: GatewayRequest,
  url: URL,
  ids: { requestId: string; accountId: string },
  onError: (error: unknown, requestId: string) => void,
): Promise<GatewayReply> {
  const { requestId, accountId } = ids;
  const render = (type: GatewayResponseType) => renderGateway(type, requestId, {}, DASHBOARD_GATEWAY_RESPONSES);
  const match = matchDashboardRoute(request.method, url.pathname.slice(DASHBOARD_BASE_PATH.length) || '/');
  if (!match) return render('MISSING_AUTHENTICATION_TOKEN');
  if (request.body === undefined) return render('REQUEST_TOO_LARGE');
  const stage = DASHBOARD_BASE_PATH.slice(1);
  const described = describeRequest(request, url, match, { accountId, apiId: 'local-dashboard', stage, requestId });
  const claims = await dashboard.verifyToken(headerValue(described.event.headers, DASHBOARD_TOKEN_HEADER));
  if (!claims) return render('UNAUTHORIZED');
  const event = {
    ...described.event,
    pathParameters: Object.keys(match.pathParameters).length > 0 ? match.pathParameters : null,
    body: request.body === '' ? null : request.body,
    isBase64Encoded: false,
    requestContext: {
      ...described.requestContext,
      authorizer: { claims: Object.fromEntries(Object.entries(claims).map(([k, v]) => [k, String(v)])) },
    },
  } as unknown as APIGatewayProxyEvent;
  try {
    return proxyReply(await dashboard.handlers[match.route.id](event, lambdaContext(match.route.id, requestId)));
  } catch (error) {
    onError(error, requestId);
    return render('DEFAULT_5XX');
  }
}
