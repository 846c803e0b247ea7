import { randomBytes } from 'node:crypto';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { ApiError, ERROR_CATALOG } from '../domain/errors';
import { ERROR_CACHE_CONTROL } from './routes';

/**
 * JSON output with exact decimals. `converted` and `amount` are decimal strings that must reach the client
 * digit for digit (999999999999.999999 has no binary double), so they travel as RawNumber and are spliced
 * into the text unquoted. The splice marker is random per process, so no client-supplied string can forge it.
 */
// Why: docs/clever-parts.md#exact-decimals-in-json
interface Marker {
  raw: string;
  escaped: string;
  pattern: RegExp;
}

// Drawn when the first RawNumber is made: most functions never make one.
let marker: Marker | undefined;

function drawMarker(): Marker {
  const raw = `\u0000${randomBytes(12).toString('hex')}`;
  const escaped = JSON.stringify(raw).slice(1, -1);
  const pattern = new RegExp(`"${escaped.replace(/\\/g, '\\\\')}(-?(?:0|[1-9]\\d*)(?:\\.\\d+)?)"`, 'g');
  return { raw, escaped, pattern };
}

const PLAIN_DECIMAL = /^-?(0|[1-9]\d*)(\.\d+)?$/;

export class RawNumber {
  constructor(readonly text: string) {
    if (!PLAIN_DECIMAL.test(text)) throw new RangeError(`not a JSON number: ${text}`);
    marker ??= drawMarker();
  }
  toJSON(): string {
    return `${marker?.raw}${this.text}`;
  }
}

export function stringifyJson(value: unknown): string {
  const text = JSON.stringify(value);
  return marker && text.includes(marker.escaped) ? text.replace(marker.pattern, '$1') : text;
}

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export type HttpResponse = APIGatewayProxyResult & { headers: Record<string, string | number | boolean> };

/** The success envelope's body, for an endpoint that renders it once and passes it to `successResponse` after. */
export function successBody(data: unknown, meta?: Record<string, unknown>): string {
  return stringifyJson(meta ? { success: true, data, meta } : { success: true, data });
}

export function successResponse(
  data: unknown,
  options: { cacheControl?: string; meta?: Record<string, unknown>; body?: string } = {},
): HttpResponse {
  const headers: Record<string, string> = { 'Content-Type': JSON_CONTENT_TYPE };
  if (options.cacheControl) headers['Cache-Control'] = options.cacheControl;
  return { statusCode: 200, headers, body: options.body ?? successBody(data, options.meta) };
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
