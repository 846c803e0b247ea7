/** What every schema file of the document builds with: the schema type, `$ref`s and closed objects. */
export type JsonSchema = { [keyword: string]: unknown };

/** A `$ref` to a schema of the document's components. */
export const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/**
 * A closed object schema. With a type argument, every field of that type must be described, and `required` can
 * only name its fields, so the schema of a shared type follows the type.
 */
export function object<T = Record<string, unknown>>(
  properties: { [K in keyof Required<T>]: JsonSchema },
  required: readonly (keyof T & string)[],
  extra: JsonSchema = {},
): JsonSchema {
  return { type: 'object', properties, required, additionalProperties: false, ...extra };
}
