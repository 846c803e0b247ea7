import middy from '@middy/core';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import type { DashboardEndpoint } from '../dashboard/endpoint';
import { dashboardError } from '../dashboard/errors';
import { ApiError } from '../domain/errors';
import { logger } from '../observability';
import type { AccountOwner } from '../store/accounts-store';
import { DASHBOARD_CACHE_CONTROL, type DashboardRouteId, dashboardRouteById } from './dashboard-routes';
import { errorResponse, type HttpResponse, internalErrorResponse } from './responses';
import { serverErrorCount } from './server-errors';

type Middleware = middy.MiddlewareObj<APIGatewayProxyEvent, HttpResponse, Error, Context>;

/** The longest e-mail address a token may name (RFC 5321's path limit); Cognito allows no longer ones. */
const MAX_EMAIL_LENGTH = 254;

/** AWS passes claims as strings, the local gateway as the token's JSON values: both spellings of `true` are read. */
export function ownerOf(event: APIGatewayProxyEvent): AccountOwner {
  const claims = (event.requestContext?.authorizer as { claims?: Record<string, unknown> } | null | undefined)?.claims;
  const sub = claims?.sub;
  const email = claims?.email;
  if (!claims) {
    // API Gateway never calls the function without verified claims: a request without them is a wiring fault.
    throw new Error('dashboard request reached the function without token claims');
  }
  // Claims that name nobody come from a token no account can own: refused as any bad token is.
  if (typeof sub !== 'string' || sub === '') throw new ApiError('unauthenticated');
  const verified = claims.email_verified === true || claims.email_verified === 'true';
  if (!verified || typeof email !== 'string' || email === '' || email.length > MAX_EMAIL_LENGTH) {
    throw new ApiError('email-not-verified');
  }
  return { sub, email };
}

/** Converts any error into the envelope; known refusals keep their code, anything else is 500 and logged. */
function errorEnvelope(): Middleware {
  return {
    onError: (request) => {
      const error = dashboardError(request.error);
      if (!error) {
        const requestId = request.event.requestContext?.requestId ?? 'unknown';
        logger.error('unhandled dashboard error', { requestId, error: request.error as Error });
        request.response = internalErrorResponse();
        return;
      }
      request.response = errorResponse(error);
    },
  };
}

/** Headers every dashboard response carries: the request id, and never a cache. */
function finalizeResponse(): Middleware {
  const finish = (request: middy.Request<APIGatewayProxyEvent, HttpResponse, Error, Context>) => {
    const response = request.response ?? internalErrorResponse();
    response.headers['X-Request-Id'] = request.event.requestContext?.requestId ?? 'unknown';
    response.headers['Cache-Control'] = DASHBOARD_CACHE_CONTROL;
    response.headers['X-Content-Type-Options'] = 'nosniff';
    request.response = response;
  };
  return { after: finish, onError: finish };
}

/** The 5xx count first (it runs last, on the finished answer), the error envelope last (it converts first). */
export function dashboardHandler(routeId: DashboardRouteId, endpoint: DashboardEndpoint) {
  dashboardRouteById(routeId);
  return middy<APIGatewayProxyEvent, HttpResponse, Error, Context>((event: APIGatewayProxyEvent) =>
    endpoint({ event, owner: ownerOf(event) }),
  )
    .use(serverErrorCount())
    .use(finalizeResponse())
    .use(errorEnvelope());
}
