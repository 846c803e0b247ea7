/** The answers the local gateway gives itself, rendered from the table the CDK stack deploys, and those it passes on. */
import type { APIGatewayProxyResult } from 'aws-lambda';
import {
  GATEWAY_RESPONSES,
  type GatewayResponseDefinition,
  type GatewayResponseType,
  gatewayResponse,
  gatewayResponseHeaders,
  renderGatewayTemplate,
} from '../lambdas/core/http/gateway-responses';

export interface GatewayReply {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

export function renderDefinition(
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

export function renderGateway(
  type: GatewayResponseType,
  requestId: string,
  authorizer: Record<string, string> = {},
  table: readonly GatewayResponseDefinition[] = GATEWAY_RESPONSES,
): GatewayReply {
  return renderDefinition(gatewayResponse(type, table), requestId, authorizer);
}

/** A proxy integration's answer as the gateway sends it on: header values as strings, no body as empty. */
export function proxyReply(result: APIGatewayProxyResult): GatewayReply {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(result.headers ?? {})) headers[name] = String(value);
  return { statusCode: result.statusCode, headers, body: result.body ?? '' };
}
