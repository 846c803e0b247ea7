/**
 * Remembered parses of DynamoDB expressions in the embedded store. dynalite parses every request's update,
 * condition and projection expressions with generated PEG parsers: about a quarter of the store thread's time
 * under load, for the same few expressions again and again (an admission's differ only in their values).
 *
 * A parse depends on the expression, the attribute names it resolves and the types of the attribute values it
 * checks, and its result holds the values themselves. So a parse is remembered under (parser, expression, names,
 * value types) with each value replaced by a mark naming it, and a later request with the same key gets a fresh
 * copy with its own values put in, and the same names and values marked used (dynalite refuses unused ones).
 * Expressions whose parse reads a value's content (BETWEEN compares its bounds; attribute_type reads its type name)
 * are parsed every time, as are parses that throw or hold anything but plain data.
 */
// Why: docs/clever-parts.md#remembered-expression-parses
import { createRequire } from 'node:module';

/** What dynalite's validations hand its parsers; the parsers also read its helpers (isReserved, compare). */
export interface ParseContext {
  attrNames?: Record<string, string>;
  attrVals?: Record<string, Record<string, unknown>>;
  unusedAttrNames?: Record<string, boolean>;
  unusedAttrVals?: Record<string, boolean>;
  [helper: string]: unknown;
}
export type Parse = (expression: string, options: { context: ParseContext }) => unknown;
interface ParserModule {
  parse: Parse;
}

/** Stands for the attribute value of that name in a remembered parse. */
class ValueMark {
  constructor(readonly name: string) {}
}

interface Remembered {
  template: unknown;
  usedNames: string[];
  usedValues: string[];
}

/** Enough for every expression the services send within a minute (names carry the minute) many times over. */
const MAX_ENTRIES = 2_000;
const VALUE_READING = /\bbetween\b|\battribute_type\b/i;

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** The parse with each attribute value replaced by its mark; undefined if it holds anything but plain data. */
function templateOf(result: unknown, names: Map<object, string>): unknown {
  let plain = true;
  const walk = (value: unknown): unknown => {
    if (typeof value !== 'object' || value === null) {
      if (typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint') plain = false;
      return value;
    }
    const name = names.get(value);
    if (name !== undefined) return new ValueMark(name);
    if (Array.isArray(value)) return value.map(walk);
    if (!isPlainObject(value)) {
      plain = false;
      return value;
    }
    const copy: Record<string, unknown> = Object.getPrototypeOf(value) === null ? Object.create(null) : {};
    for (const [key, inner] of Object.entries(value)) copy[key] = walk(inner);
    return copy;
  };
  const template = walk(result);
  return plain ? template : undefined;
}

function instantiate(template: unknown, values: Record<string, unknown>): unknown {
  if (typeof template !== 'object' || template === null) return template;
  if (template instanceof ValueMark) return values[template.name];
  if (Array.isArray(template)) return template.map((one) => instantiate(one, values));
  const copy: Record<string, unknown> = Object.getPrototypeOf(template) === null ? Object.create(null) : {};
  for (const key in template) copy[key] = instantiate((template as Record<string, unknown>)[key], values);
  return copy;
}

function valueTypes(values: ParseContext['attrVals']): string {
  if (!values) return '';
  let key = '';
  for (const name in values) key += `${name}=${Object.keys(values[name] ?? {}).join('|')};`;
  return key;
}

/** A parser's parse, remembering results as described above. Exported for its tests. */
export function rememberingParse(parse: Parse): Parse & { entries(): number } {
  let remembered = new Map<string, Remembered | null>();
  const remembering = (expression: string, options: { context: ParseContext }) => {
    const { context } = options;
    if (VALUE_READING.test(expression)) return parse(expression, options);
    const key = `${expression}\u0000${JSON.stringify(context.attrNames ?? null)}\u0000${valueTypes(context.attrVals)}`;
    const known = remembered.get(key);
    if (known) {
      for (const name of known.usedNames) delete context.unusedAttrNames?.[name];
      for (const name of known.usedValues) delete context.unusedAttrVals?.[name];
      return instantiate(known.template, context.attrVals ?? {});
    }
    if (known === null) return parse(expression, options);
    // Parsed against every name and value as unused, so that what it marks used does not depend on what an
    // earlier expression of the same request used.
    const names = Object.keys(context.attrNames ?? {});
    const values = Object.keys(context.attrVals ?? {});
    const probe: ParseContext = {
      ...context,
      unusedAttrNames: Object.fromEntries(names.map((name) => [name, true])),
      unusedAttrVals: Object.fromEntries(values.map((name) => [name, true])),
    };
    const result = parse(expression, { ...options, context: probe });
    const usedNames = names.filter((name) => !(name in (probe.unusedAttrNames ?? {})));
    const usedValues = values.filter((name) => !(name in (probe.unusedAttrVals ?? {})));
    for (const name of usedNames) delete context.unusedAttrNames?.[name];
    for (const name of usedValues) delete context.unusedAttrVals?.[name];
    const byValue = new Map<object, string>();
    for (const [name, value] of Object.entries(context.attrVals ?? {})) byValue.set(value, name);
    const template = templateOf(result, byValue);
    if (remembered.size >= MAX_ENTRIES) remembered = new Map();
    remembered.set(key, template === undefined ? null : { template, usedNames, usedValues });
    return result;
  };
  return Object.assign(remembering, { entries: () => remembered.size });
}

let installed = false;

/** Has dynalite's expression parsers (in this thread) remember their parses. Once per thread. */
export function installExpressionCache(): void {
  if (installed) return;
  installed = true;
  const requireFromDynalite = createRequire(createRequire(import.meta.url).resolve('dynalite'));
  for (const parser of ['conditionParser', 'updateParser', 'projectionParser']) {
    const module = requireFromDynalite(`./db/${parser}`) as ParserModule;
    module.parse = rememberingParse(module.parse);
  }
}
