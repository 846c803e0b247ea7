/**
 * The JSON reader of the central-bank parsers: strict RFC 8259 that keeps every number as the text the publisher
 * wrote (JSON.parse would turn 2.6410 into 2.641), and the accessors that refuse a body of the wrong shape.
 */
import { show } from './helpers';
import { PublisherFormatError } from './official-day';

/** A JSON number exactly as written. */
export class JsonNumber {
  constructor(readonly text: string) {}
}
export type JsonValue = null | boolean | string | JsonNumber | JsonValue[] | { [key: string]: JsonValue };

const JSON_NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
/** Loose on purpose: JSON.parse then refuses control characters and bad escapes inside the token. */
const JSON_STRING = /"(?:[^"\\]|\\[\s\S])*"/y;
const JSON_SPACE = /[ \t\r\n]*/y;
const MAX_JSON_DEPTH = 16;

/** Strict JSON (RFC 8259) whose numbers stay text; duplicate keys and trailing data are refused. */
export function readJson(text: string, publisher: string): JsonValue {
  let at = 0;
  const fail = (what: string): never => {
    throw new PublisherFormatError(publisher, `not JSON: ${what} at offset ${at}`);
  };
  const space = () => {
    JSON_SPACE.lastIndex = at;
    JSON_SPACE.exec(text);
    at = JSON_SPACE.lastIndex;
  };
  const token = (pattern: RegExp): string | undefined => {
    pattern.lastIndex = at;
    const m = pattern.exec(text);
    if (m) at = pattern.lastIndex;
    return m?.[0];
  };
  const string = (what: string): string => {
    const raw = token(JSON_STRING) ?? fail(what);
    try {
      return JSON.parse(raw) as string;
    } catch {
      return fail('malformed string');
    }
  };
  const value = (depth: number): JsonValue => {
    if (depth > MAX_JSON_DEPTH) fail('nested too deeply');
    space();
    const c = text[at];
    if (c === undefined) return fail('truncated');
    if (c === '"') return string('malformed string');
    if (c === '{' || c === '[') {
      at++;
      const close = c === '{' ? '}' : ']';
      const list: JsonValue[] = [];
      const object: Record<string, JsonValue> = Object.create(null);
      space();
      if (text[at] === close) at++;
      else
        for (;;) {
          if (c === '{') {
            space();
            const key = string('expected a key');
            if (Object.hasOwn(object, key)) fail(`duplicate key '${show(key)}'`);
            space();
            if (text[at++] !== ':') fail('expected ":"');
            object[key] = value(depth + 1);
          } else list.push(value(depth + 1));
          space();
          const next = text[at++];
          if (next === close) break;
          if (next !== ',') fail(next === undefined ? 'truncated' : `unexpected '${show(next)}'`);
        }
      return c === '{' ? { ...object } : list;
    }
    for (const [word, result] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (text.startsWith(word, at)) {
        at += word.length;
        return result;
      }
    }
    const number = token(JSON_NUMBER);
    return number === undefined ? fail(`unexpected '${show(c)}'`) : new JsonNumber(number);
  };
  const result = value(0);
  space();
  if (at < text.length) fail('trailing data');
  return result;
}

export const isObject = (v: JsonValue | undefined): v is { [key: string]: JsonValue } =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof JsonNumber);

/** A JSON object's field that must be there. */
export function field(object: JsonValue | undefined, key: string, publisher: string, where: string): JsonValue {
  if (!isObject(object)) throw new PublisherFormatError(publisher, `${where} is not an object`);
  const v = object[key];
  if (v === undefined) throw new PublisherFormatError(publisher, `${where} has no '${key}'`);
  return v;
}

export function numberText(v: JsonValue, publisher: string, what: string): string {
  if (!(v instanceof JsonNumber)) throw new PublisherFormatError(publisher, `${what} is not a number`);
  return v.text;
}

export function arrayOf(v: JsonValue, publisher: string, what: string): JsonValue[] {
  if (!Array.isArray(v)) throw new PublisherFormatError(publisher, `${what} is not a list`);
  return v;
}

/** The JSON value with every number as the text the publisher wrote, for parsers that walk plain objects. */
export function readJsonPlain(text: string, publisher: string): unknown {
  const plain = (v: JsonValue): unknown =>
    v instanceof JsonNumber
      ? v.text
      : Array.isArray(v)
        ? v.map(plain)
        : isObject(v)
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]))
          : v;
  return plain(readJson(text, publisher));
}
