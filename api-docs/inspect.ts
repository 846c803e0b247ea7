/**
 * Reading a generated document back, for the tests that hold it against the running server: the outcomes it
 * documents, and a validator of response and request bodies against its schemas (JSON Schema 2020-12, the 3.1
 * dialect).
 */
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import type { OpenApiDocument, ResponseObject } from './openapi';

/** One documented answer: a status of an operation and, for errors, one code it can carry. */
export interface DocumentedOutcome {
  path: string;
  method: string;
  status: string;
  /** The error code; undefined for a success (200, 201) and 304. */
  code?: string;
}

export const outcomeKey = (o: { path: string; method: string; status: string | number; code?: string | undefined }) =>
  `${o.method.toUpperCase()} ${o.path} ${o.status}${o.code ? ` ${o.code}` : ''}`;

export function documentedOutcomes(doc: OpenApiDocument): DocumentedOutcome[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).flatMap(([method, operation]) =>
      Object.entries(operation.responses).flatMap(([status, response]: [string, ResponseObject]) => {
        const codes = response['x-error-codes'];
        if (!codes) return [{ path, method: method.toUpperCase(), status }];
        return codes.map((code) => ({ path, method: method.toUpperCase(), status, code }));
      }),
    ),
  );
}

const DOCUMENT_ID = 'urn:fxrates:openapi';
const pointer = (parts: readonly string[]) =>
  parts.map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** The whole document is one schema, so `#/components/...` references resolve; formats are left to patterns. */
export function bodyValidator(doc: OpenApiDocument) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema(doc as unknown as object, DOCUMENT_ID);
  const compiled = new Map<string, ValidateFunction>();
  const schemaOf = (parts: readonly string[]): ValidateFunction => {
    const ref = `${DOCUMENT_ID}#/${pointer(parts)}`;
    let validate = compiled.get(ref);
    if (!validate) {
      validate = ajv.compile({ $ref: ref });
      compiled.set(ref, validate);
    }
    return validate;
  };
  const errorsAt = (parts: readonly string[], value: unknown): string[] => {
    const validate = schemaOf(parts);
    return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
  };
  return {
    /** Errors of a response body against the schema of (path, method, status); [] when it conforms. */
    response: (path: string, method: string, status: string, body: unknown): string[] =>
      errorsAt(
        ['paths', path, method.toLowerCase(), 'responses', status, 'content', 'application/json', 'schema'],
        body,
      ),
    /** Errors of a request body against the schema of (path, method); [] when it conforms. */
    request: (path: string, method: string, body: unknown): string[] =>
      errorsAt(['paths', path, method.toLowerCase(), 'requestBody', 'content', 'application/json', 'schema'], body),
    /** Errors of a body against the schema of a response of the components, e.g. `NotFound`. */
    componentResponse: (name: string, body: unknown): string[] =>
      errorsAt(['components', 'responses', name, 'content', 'application/json', 'schema'], body),
  };
}
