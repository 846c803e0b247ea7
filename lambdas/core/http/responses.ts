import type { APIGatewayProxyResult } from 'aws-lambda';
import { ApiError, ERROR_CATALOG } from '../domain/errors';
import { stringifyJson } from './json';
import { ERROR_CACHE_CONTROL } from './routes';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export type HttpResponse = APIGatewayProxyResult & { headers: Record<string, string | number | boolean> };

export function successResponse(
  data: unknown,
  options: { cacheControl?: string; meta?: Record<string, unknown>; body?: string } = {},
): HttpResponse {
  const headers: Record<string, string> = { 'Content-Type': JSON_CONTENT_TYPE };
  if (options.cacheControl) headers['Cache-Control'] = options.cacheControl;
  const envelope = options.meta ? { success: true, data, meta: options.meta } : { success: true, data };
  return { statusCode: 200, headers, body: options.body ?? stringifyJson(envelope) };
}

/** The error envelope; an error that knows how long to wait (a 429's window, a store outage) sends Retry-After. */
export function errorResponse(error: ApiError & { readonly retryAfterSeconds?: number }): HttpResponse {
  const body: { code: string; message: string; param?: string } = { code: error.code, message: error.message };
  if (error.param !== undefined) body.param = error.param;
  const headers: Record<string, string> = { 'Content-Type': JSON_CONTENT_TYPE, 'Cache-Control': ERROR_CACHE_CONTROL };
  if (error.retryAfterSeconds !== undefined) headers['Retry-After'] = String(error.retryAfterSeconds);
  return { statusCode: error.status, headers, body: JSON.stringify({ success: false, error: body }) };
}

export function internalErrorResponse(): HttpResponse {
  return errorResponse(new ApiError('internal-error', ERROR_CATALOG['internal-error'].message));
}
