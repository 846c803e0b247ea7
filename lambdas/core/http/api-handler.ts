import middy from '@middy/core';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { InvalidParameterError } from '../domain/errors';
import { admission, conditionalGet, errorEnvelope, finalizeResponse } from './middleware';
import type { HttpResponse } from './responses';
import { type RouteId, routeById } from './routes';

export type Endpoint = (event: APIGatewayProxyEvent) => Promise<HttpResponse>;

/**
 * Wraps an endpoint in the one middleware chain every route uses. Registration order matters in middy: `before`
 * hooks run in order, `after`/`onError` in reverse, so the error envelope (registered last) converts an error
 * first and `finalizeResponse` (registered first) adds the common headers to whatever came out.
 */
export function apiHandler(routeId: RouteId, endpoint: Endpoint) {
  const route = routeById(routeId);
  return middy<APIGatewayProxyEvent, HttpResponse, Error, Context>(endpoint)
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
  for (const [name, values] of Object.entries(event.multiValueQueryStringParameters ?? {})) {
    if (known.includes(name) && values && values.length > 1) {
      throw new InvalidParameterError(name, `The parameter '${name.slice(0, 32)}' is given more than once.`);
    }
  }
  const query: Record<string, string> = {};
  for (const [name, value] of Object.entries(event.queryStringParameters ?? {})) {
    if (known.includes(name) && value !== undefined && value !== null) query[name] = value;
  }
  return query;
}

export function pathParams(event: APIGatewayProxyEvent): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(event.pathParameters ?? {})) {
    if (value !== undefined && value !== null) params[name] = value;
  }
  return params;
}
