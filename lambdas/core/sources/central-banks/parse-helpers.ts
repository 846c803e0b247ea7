/**
 * Strict building blocks the central-bank parsers share: decoding, a JSON reader that keeps numbers as the text the
 * publisher wrote (JSON.parse would turn 2.6410 into 2.641), decimal-text validation, and a collector that builds
 * whole days and refuses duplicates. Every failure is a PublisherFormatError naming the publisher.
 */
import { addDays, isValidDay } from '../../domain/dates';
import { parseXmlDocument, type XmlElement } from '../ecb-xml';
import { SourceFormatError } from '../errors';
import { printableUpstream } from '../source-day';
import type { AdapterFacts, CentralBankId, OfficialDay, OfficialQuote } from './official-day';
import { PublisherFormatError } from './official-day';

/** A publisher's facts, as its parser sees them. */
export type PublisherFacts = AdapterFacts;

/** Splits `from..to` into consecutive spans of at most `maxDays` days, for publishers that cap a request. */
export function spans(from: string, to: string, maxDays: number): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (let start = from; start <= to; start = addDays(start, maxDays)) {
    const end = addDays(start, maxDays - 1);
    out.push([start, end < to ? end : to]);
  }
  return out;
}

const ISO_CODE = /^[A-Z]{3}$/;
const DECIMAL = /^(?:0|[1-9]\d{0,14})(?:\.\d{1,12})?$/;
const UNITS = /^[1-9]\d{0,9}$/;

export const show = printableUpstream;

/** Decodes bytes, refusing invalid UTF-8 (a body in another encoding) instead of replacing characters. */
export function decodeBody(body: Uint8Array, publisher: string, encoding: 'utf-8' | 'windows-1251' = 'utf-8'): string {
  try {
    const text = new TextDecoder(encoding, { fatal: true }).decode(body);
    return text.startsWith('\ufeff') ? text.slice(1) : text;
  } catch {
    throw new PublisherFormatError(publisher, `the body is not valid ${encoding}`);
  }
}

/**
 * A published rate as plain decimal text: a decimal comma becomes a dot, a leading '+' goes, every digit stays.
 * Zero, signs, exponents and anything else are refused.
 */
export function decimalText(raw: string, publisher: string, what: string): string {
  const text = raw.trim().replace(/^\+/, '').replace(',', '.');
  if (!DECIMAL.test(text) || !/[1-9]/.test(text)) {
    throw new PublisherFormatError(publisher, `${what}: '${show(raw)}' is not a positive decimal`);
  }
  return text;
}

/** Units a rate is quoted for (Nominal, amount, multiplier): a positive whole number. */
export function unitsText(raw: string, publisher: string, what: string): string {
  const text = raw.trim();
  if (!UNITS.test(text))
    throw new PublisherFormatError(publisher, `${what}: units '${show(raw)}' are not a whole number`);
  return text;
}

export function isoCode(raw: unknown, publisher: string, what: string): string {
  if (typeof raw !== 'string' || !ISO_CODE.test(raw)) {
    throw new PublisherFormatError(publisher, `${what}: currency '${show(String(raw))}' is not an ISO code`);
  }
  return raw;
}

export function isoDay(raw: unknown, publisher: string, what: string): string {
  if (typeof raw !== 'string' || !isValidDay(raw)) {
    throw new PublisherFormatError(publisher, `${what}: '${show(String(raw))}' is not a calendar day`);
  }
  return raw;
}

/** `DD.MM.YYYY` or `DD/MM/YYYY` → `YYYY-MM-DD`. */
export function dmyDay(raw: unknown, publisher: string, what: string): string {
  const m = typeof raw === 'string' ? /^(\d{2})[./](\d{2})[./](\d{4})$/.exec(raw) : null;
  if (!m) throw new PublisherFormatError(publisher, `${what}: '${show(String(raw))}' is not a calendar day`);
  return isoDay(`${m[3]}-${m[2]}-${m[1]}`, publisher, what);
}

/** `YYYY-MM-DD` → `DD/MM/YYYY`, the form several publishers' query strings use. */
export const dmySlashes = (day: string): string => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;

/** `a × b` and `c` as exact decimals, compared without floating point. */
export function isExactProduct(a: string, b: string, c: string): boolean {
  const scaled = (text: string, digits: number): bigint => {
    const [whole = '', fraction = ''] = text.split('.');
    return BigInt(whole + fraction.padEnd(digits, '0'));
  };
  const digitsOf = (text: string): number => text.split('.')[1]?.length ?? 0;
  const productDigits = digitsOf(a) + digitsOf(b);
  const digits = Math.max(productDigits, digitsOf(c));
  const product = scaled(a, digitsOf(a)) * scaled(b, digitsOf(b)) * 10n ** BigInt(digits - productDigits);
  return product === scaled(c, digits);
}

/** Collects quotes per day; a currency twice in a day or a day without quotes makes the whole body invalid. */
export class DayCollector {
  private readonly days = new Map<string, Record<string, OfficialQuote>>();

  constructor(
    private readonly publisher: CentralBankId,
    private readonly name: string,
    private readonly quoteCurrency: string,
  ) {}

  has(date: string): boolean {
    return this.days.has(date);
  }

  day(date: string): Record<string, OfficialQuote> {
    let quotes = this.days.get(date);
    if (!quotes) {
      quotes = {};
      this.days.set(date, quotes);
    }
    return quotes;
  }

  add(date: string, code: string, quote: OfficialQuote): void {
    const quotes = this.day(date);
    if (code === this.quoteCurrency) throw new PublisherFormatError(this.name, `${date} quotes its own currency`);
    if (quotes[code]) throw new PublisherFormatError(this.name, `${code} appears twice on ${date}`);
    quotes[code] = quote;
  }

  /** `allowNone` for feeds where a range without any rate (a holiday week) is a normal answer. */
  finish(cadenceOf: (date: string) => 'daily' | 'weekly' = () => 'daily', allowNone = false): OfficialDay[] {
    if (this.days.size === 0 && !allowNone) throw new PublisherFormatError(this.name, 'the body holds no days');
    return [...this.days.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([date, quotes]) => {
        if (Object.keys(quotes).length === 0) throw new PublisherFormatError(this.name, `${date} has no rates`);
        return { publisher: this.publisher, date, quoteCurrency: this.quoteCurrency, cadence: cadenceOf(date), quotes };
      });
  }
}

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

/** Parses XML with the project's strict reader; the XML declaration must name `encoding` (already decoded). */
export function readXml(text: string, publisher: string, encoding = 'utf-8'): XmlElement {
  let rest = text;
  if (text.startsWith('<?xml')) {
    const end = text.indexOf('?>');
    const declared = /encoding\s*=\s*["']([^"']*)["']/.exec(text.slice(0, end))?.[1] ?? 'utf-8';
    if (end === -1 || declared.toLowerCase() !== encoding) {
      throw new PublisherFormatError(publisher, `unexpected XML declaration '${show(text.slice(0, 60))}'`);
    }
    rest = text.slice(end + 2);
  }
  try {
    return parseXmlDocument(rest);
  } catch (error) {
    if (error instanceof SourceFormatError) {
      throw new PublisherFormatError(publisher, error.message.replace(/^not ECB XML: /, 'malformed XML: '));
    }
    throw error;
  }
}

/** The single text child of an element, e.g. `<Value>53,8359</Value>`. */
export function childText(element: XmlElement, name: string, publisher: string, where: string): string {
  const found = element.children.filter((c) => c.name === name);
  const [only] = found;
  if (!only || found.length > 1 || only.children.length > 0) {
    throw new PublisherFormatError(publisher, `${where} must hold exactly one <${name}>`);
  }
  return only.text;
}
