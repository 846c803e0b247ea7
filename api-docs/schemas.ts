/**
 * JSON Schemas (2020-12, the OpenAPI 3.1 dialect) of every response body: each route's `data`, the envelopes and
 * the error, for the public API and the dashboard API; and the dashboard's one request body. Objects are closed
 * (`additionalProperties: false`), so a field an endpoint adds without documenting it fails the HTTP test that
 * validates real responses against the document. The public API's are in schemas-public.ts, the dashboard API's in
 * schemas-dashboard.ts; the error body, shared by both, is here with the assembly of `components.schemas`.
 */
import { ERROR_CATALOG, type ErrorCode } from '../lambdas/core/domain/errors';
import type { DashboardRouteId } from '../lambdas/core/http/dashboard-routes';
import type { RouteId } from '../lambdas/core/http/routes';
import { type JsonSchema, object, ref } from './json-schema';
import {
  DASHBOARD_BASICS,
  DASHBOARD_DATA,
  DASHBOARD_REQUESTS,
  dashboardEnvelope,
  dashboardSuccessSchemaName,
} from './schemas-dashboard';
import { BASICS, ROUTE_DOCS, successEnvelope, successSchemaName } from './schemas-public';

export { type JsonSchema, ref } from './json-schema';
export {
  dashboardSuccessSchemaName,
  KEY_ID_PATTERN,
  KEY_NAME_MAX_LENGTH,
  NEW_KEY_REQUEST_SCHEMA,
} from './schemas-dashboard';
export { successSchemaName } from './schemas-public';

export const ERROR_CODES = Object.keys(ERROR_CATALOG) as ErrorCode[];

const ERROR_SCHEMAS: Record<string, JsonSchema> = {
  ErrorCode: {
    type: 'string',
    enum: ERROR_CODES,
    description: 'What went wrong, in kebab-case; clients branch on it. See the error catalog.',
  },
  Error: object<{ code: string; message: string; param: string }>(
    {
      code: ref('ErrorCode'),
      message: {
        type: 'string',
        description: 'One human sentence; never a stack trace or an internal name.',
        examples: ["Currency 'XYZ' is not supported."],
      },
      param: {
        type: 'string',
        description:
          'The one input at fault, when there is one: a parameter name (`from`, `to`, `base`, `date`, ' +
          '`amount`, `locale`, …) or `X-API-Key`.',
        examples: ['to'],
      },
    },
    ['code', 'message'],
  ),
  ErrorResponse: object({ success: { const: false }, error: ref('Error') }, ['success', 'error']),
};

/** Every schema of `components.schemas`: the public API's, then the dashboard API's. */
export function componentSchemas(
  routes: readonly RouteId[],
  dashboardRoutes: readonly DashboardRouteId[] = [],
): Record<string, JsonSchema> {
  const schemas: Record<string, JsonSchema> = { ...BASICS };
  for (const route of routes) {
    const { data } = ROUTE_DOCS[route];
    schemas[data.name] = data.schema;
    schemas[successSchemaName(route)] = successEnvelope(route);
  }
  Object.assign(schemas, ERROR_SCHEMAS);
  if (dashboardRoutes.length === 0) return schemas;
  const add = (name: string, schema: JsonSchema) => {
    if (name in schemas) throw new Error(`two schemas are named ${name}`);
    schemas[name] = schema;
  };
  for (const [name, schema] of Object.entries(DASHBOARD_BASICS)) add(name, schema);
  for (const route of dashboardRoutes) {
    add(DASHBOARD_DATA[route].name, DASHBOARD_DATA[route].schema);
    add(dashboardSuccessSchemaName(route), dashboardEnvelope(route));
  }
  for (const [name, schema] of Object.entries(DASHBOARD_REQUESTS)) add(name, schema);
  return schemas;
}

/** The error body of one response, its `code` narrowed to the codes that status can carry on that route. */
export function errorBodySchema(codes: readonly ErrorCode[]): JsonSchema {
  return {
    allOf: [ref('ErrorResponse')],
    properties: { error: { properties: { code: { enum: [...codes] } } } },
  };
}
