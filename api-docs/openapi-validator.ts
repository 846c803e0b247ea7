/**
 * Validation of a document against the official OpenAPI JSON Schemas, by @seriousme/openapi-schema-validator,
 * which ships them (3.1 included) and so works offline. The package is ES modules only: it is imported
 * dynamically, and jest (CommonJS) reaches it through the command line in validate-openapi.ts.
 */
export interface ValidationResult {
  valid: boolean;
  /** The OpenAPI version the document was validated as, e.g. `3.1`. */
  version: string;
  errors?: unknown;
}

export async function validateOpenApi(document: object): Promise<ValidationResult> {
  const { Validator } = await import('@seriousme/openapi-schema-validator');
  const validator = new Validator();
  const result = await validator.validate(document as Record<string, unknown>);
  return { valid: result.valid, version: validator.version, ...(result.valid ? {} : { errors: result.errors }) };
}
