/**
 * The objects an OpenAPI 3.1 document is made of, as this one uses them, and the builders the public API's
 * operations (openapi.ts) and the account dashboard's (openapi-dashboard.ts) share.
 */
import { STATUS_CODES } from 'node:http';
import { ERROR_CATALOG, type ErrorCode } from '../lambdas/core/domain/errors';
import { ERROR_WHEN, type RouteError } from './route-errors';
import { errorBodySchema, type JsonSchema } from './schemas';

export type ServerObject = { url: string; description: string };

export type OpenApiDocument = {
  openapi: '3.1.0';
  info: {
    title: string;
    version: string;
    summary: string;
    description: string;
    license: { name: string; identifier: string };
  };
  servers: ServerObject[];
  security: Record<string, string[]>[];
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, OperationObject>>;
  components: {
    securitySchemes: Record<string, JsonSchema>;
    schemas: Record<string, JsonSchema>;
    headers: Record<string, HeaderObject>;
    responses: Record<string, ResponseObject>;
  };
  /** The error catalog: every code with its status, default message and when it is answered. */
  'x-error-catalog': { code: ErrorCode; status: number; message: string; when: string }[];
};

export type HeaderObject = { description: string; schema: JsonSchema; required?: boolean; example?: unknown };
export type ParameterObject = {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  description: string;
  schema: JsonSchema;
  example?: string;
};
export type ResponseObject = {
  description: string;
  headers?: Record<string, HeaderObject | { $ref: string }>;
  content?: {
    'application/json': { schema: JsonSchema; example?: unknown; examples?: Record<string, unknown> };
    /** The time series' CSV variant. */
    'text/csv'?: { schema: JsonSchema; example?: unknown };
  };
  /** An extension: the error codes this response can carry, for the reference page and the tests. */
  'x-error-codes'?: ErrorCode[];
};
export type RequestBodyObject = {
  description: string;
  required: boolean;
  content: { 'application/json': { schema: JsonSchema; example: unknown } };
};
export type OperationObject = {
  operationId: string;
  tags: string[];
  summary: string;
  description: string;
  /** The dashboard API's operations only: they live at another base path than the document's server. */
  servers?: ServerObject[];
  /** The dashboard API's operations only: they take an ID token, not the document's API key. */
  security?: Record<string, string[]>[];
  parameters: ParameterObject[];
  requestBody?: RequestBodyObject;
  responses: Record<string, ResponseObject>;
};

export const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });

export function cacheControl(value: string, description: string): HeaderObject {
  return { description, schema: { type: 'string', const: value }, required: true };
}

/** An error body's `error`, as an example shows it. */
export type ErrorExample = { code: ErrorCode; message: string; param?: string };

/** A code with its catalog message, as most refusals word it. */
export const catalogError = (code: ErrorCode): ErrorExample => ({ code, message: ERROR_CATALOG[code].message });

interface ErrorResponseOptions {
  headers: NonNullable<ResponseObject['headers']>;
  /** What each code means on this route. */
  when?: (code: ErrorCode) => string;
  /** The example body of each code. */
  example?: (code: ErrorCode, status: number) => ErrorExample;
}

/** The response of one status, with the codes a route answers it with. */
export function errorResponse(
  status: number,
  errors: readonly RouteError[],
  options: ErrorResponseOptions,
): ResponseObject {
  const { headers, when = (code) => ERROR_WHEN[code], example = catalogError } = options;
  const codes = errors.map((e) => e.code);
  const description = [
    `${STATUS_CODES[status] ?? 'Error'}. \`error.code\` is one of:`,
    '',
    ...codes.map((code) => `- \`${code}\`: ${when(code)}`),
  ].join('\n');
  const examples = Object.fromEntries(
    codes.map((code) => [code, { value: { success: false, error: example(code, status) } }]),
  );
  return {
    description,
    headers,
    content: { 'application/json': { schema: errorBodySchema(codes), examples } },
    'x-error-codes': codes,
  };
}
