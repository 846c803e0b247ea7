import { ERROR_CATALOG, type ErrorCode } from '../domain/errors';
import { DENY_CONTEXT_CODE, DENY_CONTEXT_MESSAGE } from './authorizer-context';
import { API_KEY_HEADER } from './headers';
import { ERROR_CACHE_CONTROL } from './routes';

/** Responses API Gateway renders itself; the CDK stack deploys these rows and the local gateway renders them. */
export type GatewayResponseType =
  | 'ACCESS_DENIED'
  | 'UNAUTHORIZED'
  | 'MISSING_AUTHENTICATION_TOKEN'
  | 'RESOURCE_NOT_FOUND'
  | 'THROTTLED'
  | 'QUOTA_EXCEEDED'
  | 'AUTHORIZER_FAILURE'
  | 'AUTHORIZER_CONFIGURATION_ERROR'
  | 'BAD_REQUEST_PARAMETERS'
  | 'BAD_REQUEST_BODY'
  | 'REQUEST_TOO_LARGE'
  | 'WAF_FILTERED'
  | 'INTEGRATION_FAILURE'
  | 'INTEGRATION_TIMEOUT'
  | 'API_CONFIGURATION_ERROR'
  | 'DEFAULT_4XX'
  | 'DEFAULT_5XX';

export interface GatewayResponseDefinition {
  type: GatewayResponseType;
  /** Undefined for the DEFAULT_* catch-alls: API Gateway keeps the status it chose (a 415 stays a 415). */
  status?: number;
  template: string;
  /** Headers of this response on top of GATEWAY_RESPONSE_HEADERS, as API Gateway mapping expressions. */
  headers?: Readonly<Record<string, string>>;
}

function envelope(code: ErrorCode, message: string = ERROR_CATALOG[code].message, param?: string): string {
  const error = param === undefined ? { code, message } : { code, message, param };
  return JSON.stringify({ success: false, error });
}

export const GATEWAY_RESPONSES: readonly GatewayResponseDefinition[] = [
  {
    // The authorizer's Deny: it puts the code (missing-api-key or invalid-api-key) and message in its context.
    type: 'ACCESS_DENIED',
    status: 401,
    template: `{"success":false,"error":{"code":"$context.authorizer.${DENY_CONTEXT_CODE}","message":"$context.authorizer.${DENY_CONTEXT_MESSAGE}","param":"${API_KEY_HEADER}"}}`,
  },
  // API Gateway answers UNAUTHORIZED itself when the identity source header is absent.
  { type: 'UNAUTHORIZED', status: 401, template: envelope('missing-api-key', undefined, API_KEY_HEADER) },
  { type: 'MISSING_AUTHENTICATION_TOKEN', status: 404, template: envelope('not-found') },
  { type: 'RESOURCE_NOT_FOUND', status: 404, template: envelope('not-found') },
  {
    type: 'THROTTLED',
    status: 429,
    template: envelope('rate-limit-exceeded', 'Too many requests reach the service right now; retry shortly.'),
    // Stage throttling is a token bucket refilled every second: one second is when a retry can succeed.
    headers: { 'Retry-After': "'1'" },
  },
  { type: 'QUOTA_EXCEEDED', status: 429, template: envelope('quota-exceeded') },
  // API Gateway's answer when it cannot use an authorizer's result; a store outage is the authorizer's 503 instead.
  { type: 'AUTHORIZER_FAILURE', status: 503, template: envelope('service-unavailable') },
  // A Lambda authorizer that throws or times out: a fault of the deployment (a missing table, a refused permission).
  { type: 'AUTHORIZER_CONFIGURATION_ERROR', status: 500, template: envelope('internal-error') },
  { type: 'BAD_REQUEST_PARAMETERS', status: 400, template: envelope('invalid-parameter') },
  { type: 'BAD_REQUEST_BODY', status: 400, template: envelope('invalid-parameter', 'Requests take no body.') },
  { type: 'REQUEST_TOO_LARGE', status: 400, template: envelope('invalid-parameter', 'The request is too large.') },
  {
    // A WAF block without a custom response: the IP reputation list or the common rule set (rate-limited requests
    // get the web ACL's own 429 rate-limit-exceeded, lib/web-acl.ts). Refused, not malformed.
    type: 'WAF_FILTERED',
    status: 403,
    template: envelope('request-blocked'),
  },
  { type: 'INTEGRATION_FAILURE', status: 503, template: envelope('service-unavailable') },
  {
    type: 'INTEGRATION_TIMEOUT',
    status: 504,
    template: envelope('service-unavailable', 'The request timed out; please retry.'),
  },
  { type: 'API_CONFIGURATION_ERROR', status: 500, template: envelope('internal-error') },
  { type: 'DEFAULT_4XX', template: envelope('invalid-parameter', 'The request was refused.') },
  { type: 'DEFAULT_5XX', template: envelope('internal-error') },
];

/** For more header fields than the local parser keeps: not told that a header past the limit is missing. */
export const TOO_MANY_HEADERS_RESPONSE: GatewayResponseDefinition = {
  ...gatewayResponse('REQUEST_TOO_LARGE'),
  template: envelope('invalid-parameter', 'The request has too many headers.'),
};

/**
 * The public rows, except the Cognito authorizer's UNAUTHORIZED and ACCESS_DENIED, both `unauthenticated` to the
 * page (it asks the person to sign in again); bodies are JSON here, so a refused body is named.
 */
export const DASHBOARD_GATEWAY_RESPONSES: readonly GatewayResponseDefinition[] = GATEWAY_RESPONSES.map((row) => {
  switch (row.type) {
    case 'UNAUTHORIZED':
    case 'ACCESS_DENIED':
      return { type: row.type, status: 401, template: envelope('unauthenticated') };
    case 'BAD_REQUEST_BODY':
      return { ...row, template: envelope('invalid-parameter', 'The request body is not valid.', 'body') };
    default:
      return row;
  }
});

/** Headers of every gateway response; values are API Gateway mapping expressions. */
export const GATEWAY_RESPONSE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': "'application/json; charset=utf-8'",
  'Cache-Control': `'${ERROR_CACHE_CONTROL}'`,
  'X-Request-Id': 'context.requestId',
};

export function gatewayResponseHeaders(definition: GatewayResponseDefinition): Record<string, string> {
  return { ...GATEWAY_RESPONSE_HEADERS, ...definition.headers };
}

export function gatewayResponse(
  type: GatewayResponseType,
  table: readonly GatewayResponseDefinition[] = GATEWAY_RESPONSES,
): GatewayResponseDefinition {
  const found = table.find((r) => r.type === type);
  if (!found) throw new Error(`no gateway response ${type}`);
  return found;
}

/** Values go in unescaped, as on API Gateway: the authorizer's Deny context must be JSON-safe (catalog messages). */
export function renderGatewayTemplate(template: string, context: Readonly<Record<string, string | undefined>>): string {
  return template.replace(/\$context\.([A-Za-z0-9_.]+)/g, (_, name: string) => context[name] ?? '');
}
