import middy from '@middy/core';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { InvalidParameterError } from '../domain/errors';
import { isUnavailable } from './authorizer-context';
import { admission, conditionalGet, errorEnvelope, finalizeResponse } from './middleware';
import type { HttpResponse } from './responses';
import { type RouteId, routeById } from './routes';
import { serverErrorCount } from './server-errors';

export type Endpoint = (event: APIGatewayProxyEvent) => Promise<HttpResponse>;

/** The 503 the first middleware renders for the authorizer's `unavailable` verdict: the authorizer's 5xx, not ours. */
function relaysAuthorizerOutage(event: APIGatewayProxyEvent): boolean {
  return isUnavailable(event.requestContext?.authorizer as Record<string, unknown> | null | undefined);
}

/**
 * Wraps an endpoint in the one middleware chain every route uses. Registration order matters in middy: `before`
 * hooks run in order, `after`/`onError` in reverse, so the error envelope (registered last) converts an error
 * first, `finalizeResponse` adds the common headers to whatever came out, and the 5xx count (registered first)
 * sees the finished answer.
 */
export function apiHandler(routeId: RouteId, endpoint: Endpoint) {
  const route = routeById(routeId);
  return middy<APIGatewayProxyEvent, HttpResponse, Error, Context>(endpoint)
    .use(serverErrorCount({ relayed: relaysAuthorizerOutage }))
    .use(finalizeResponse(route))
    .use(admission())
    .use(conditionalGet(route))
    .use(errorEnvelope());
}

/**
 * The query parameters an endpoint reads, as single values. One of them given twice is refused (400
 * invalid-parameter); parameters the endpoint does not read are ignored, repeated or not.
 */
export function singleQuery(event: APIGatewayProxyEvent, known: readonly string[]): Record<string, string> {
  const query: Record<string, string> = {};
  const multi = event.multiValueQueryStringParameters;
  if (multi) {
    for (const name in multi) {
      const values = multi[name];
      if (Object.hasOwn(multi, name) && known.includes(name) && values && values.length > 1) {
        throw new InvalidParameterError(name, `The parameter '${name.slice(0, 32)}' is given more than once.`);
      }
    }
  }
  const single = event.queryStringParameters;
  if (single) {
    for (const name in single) {
      const value = single[name];
      if (Object.hasOwn(single, name) && known.includes(name) && value !== undefined && value !== null) {
        query[name] = value;
      }
    }
  }
  return query;
}

/** What a route's parameter reader takes: the event's path parameters and its query parameters named `known`. */
export function pathAndQuery(event: APIGatewayProxyEvent, known: readonly string[]) {
  return { path: pathParams(event), query: singleQuery(event, known) };
}

function pathParams(event: APIGatewayProxyEvent): Record<string, string> {
  const params: Record<string, string> = {};
  const given = event.pathParameters;
  if (!given) return params;
  for (const name in given) {
    const value = given[name];
    if (Object.hasOwn(given, name) && value !== undefined && value !== null) params[name] = value;
  }
  return params;
}
