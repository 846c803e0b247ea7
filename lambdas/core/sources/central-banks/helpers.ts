/**
 * Strict building blocks every central-bank parser shares: decoding, decimal-text validation, CSV lines, XML, exact
 * midpoints, and a collector that builds whole days and refuses duplicates. Every failure is a
 * PublisherFormatError naming the publisher.
 */
import { addDays, isValidDay } from '../../domain/dates';
import { decimal, multiply, subtract } from '../../domain/decimal';
import { parseXmlDocument, type XmlElement } from '../ecb-xml';
import { SourceFormatError } from '../errors';
import { decodeUtf8 } from '../http';
import { CURRENCY_CODE, DECIMAL_TEXT, printableUpstream } from '../source-day';
import type { AdapterFacts, OfficialDay, OfficialQuote } from './official-day';
import { PublisherFormatError } from './official-day';

/** Splits `from..to` into consecutive spans of at most `maxDays` days, for publishers that cap a request. */
export function spans(from: string, to: string, maxDays: number): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (let start = from; start <= to; start = addDays(start, maxDays)) {
    const end = addDays(start, maxDays - 1);
    out.push([start, end < to ? end : to]);
  }
  return out;
}

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
 * A published positive rate as plain decimal text with every digit kept ('0.70570' stays '0.70570'), a decimal
 * comma turned into a dot where the publisher writes one. Signs, exponents, grouping, leading zeros and zero
 * itself are refused.
 */
export function decimalText(publisher: string, raw: string, what: string, decimalComma = false): string {
  const text = decimalComma ? raw.replace(',', '.') : raw;
  if (!DECIMAL_TEXT.test(text) || !/[1-9]/.test(text)) {
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
  if (typeof raw !== 'string' || !CURRENCY_CODE.test(raw)) {
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
  return subtract(multiply(decimal(a), decimal(b)), decimal(c)).coefficient === 0n;
}

/**
 * Collects quotes per day. A currency quoted twice on one day, or quoted against the publisher's own currency, is a
 * damaged body; so is a day opened but left without quotes (every cell empty), unless the parser skips such days
 * (holidays) itself.
 */
export class DayCollector {
  private readonly byDate = new Map<string, Record<string, OfficialQuote>>();

  constructor(
    private readonly facts: AdapterFacts,
    private readonly quoteCurrency: string = facts.quoteCurrency,
  ) {}

  /** Opens a day with no quotes yet, so a day whose quotes are all missing can be told apart from one never seen. */
  open(date: string): void {
    this.day(date);
  }

  has(date: string): boolean {
    return this.byDate.has(date);
  }

  /** The quotes of `date`, opening the day. */
  day(date: string): Record<string, OfficialQuote> {
    let quotes = this.byDate.get(date);
    if (!quotes) {
      quotes = {};
      this.byDate.set(date, quotes);
    }
    return quotes;
  }

  add(date: string, code: string, quote: OfficialQuote): void {
    const name = this.facts.name;
    if (!CURRENCY_CODE.test(code)) throw new PublisherFormatError(name, `'${show(code)}' is not a currency code`);
    if (code === this.quoteCurrency)
      throw new PublisherFormatError(name, `${code} is quoted against itself on ${date}`);
    const quotes = this.day(date);
    if (quotes[code]) throw new PublisherFormatError(name, `${code} is quoted twice on ${date}`);
    quotes[code] = quote;
  }

  /**
   * The days oldest first, each with its cadence (the publisher's by default). A body with no day at all is
   * refused unless `allowNone` (a feed where a span without any rate, a holiday week, is a normal answer).
   */
  finish(cadenceOf: (date: string) => 'daily' | 'weekly' = () => this.facts.cadence, allowNone = false): OfficialDay[] {
    if (this.byDate.size === 0 && !allowNone) throw new PublisherFormatError(this.facts.name, 'the body holds no days');
    return [...this.byDate.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([date, quotes]) => {
        if (Object.keys(quotes).length === 0) {
          throw new PublisherFormatError(this.facts.name, `the day ${date} has no quotes`);
        }
        return { publisher: this.facts.id, date, quoteCurrency: this.quoteCurrency, cadence: cadenceOf(date), quotes };
      });
  }

  /** The days oldest first, none at all being a normal answer (a span of holidays). */
  days(): OfficialDay[] {
    return this.finish(undefined, true);
  }
}

/** UTF-8 text without its byte-order mark; HTML (an error or login page served with status 200) is refused. */
export function decodeText(publisher: string, body: Uint8Array): string {
  const decoded = decodeUtf8(body);
  if (decoded === undefined) throw new PublisherFormatError(publisher, 'the body is not UTF-8 text');
  const text = decoded.startsWith('\ufeff') ? decoded.slice(1) : decoded;
  if (/^\s*</.test(text)) throw new PublisherFormatError(publisher, 'the body is HTML or XML, not the data');
  if (text.trim() === '') throw new PublisherFormatError(publisher, 'the body is empty');
  return text;
}

/**
 * The lines of a text body, trailing blank lines dropped. The body must end with a line break: a body cut inside
 * its last line could otherwise pass with a shortened last number.
 */
export function completeLines(publisher: string, text: string): string[] {
  if (!text.endsWith('\n')) throw new PublisherFormatError(publisher, 'the body ends inside a line (truncated?)');
  const lines = text.split(/\r?\n/);
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * The exact mean of two decimal texts: scaled to integers, summed, and halved with one more decimal place when the
 * sum is odd, so the result is exact (halving a terminating decimal always terminates).
 */
export function midpoint(a: string, b: string): string {
  const scale = Math.max(fractionDigits(a), fractionDigits(b));
  let sum = scaled(a, scale) + scaled(b, scale);
  let digits = scale;
  if (sum % 2n === 1n) {
    sum *= 10n;
    digits += 1;
  }
  const half = (sum / 2n).toString().padStart(digits + 1, '0');
  return digits === 0 ? half : `${half.slice(0, -digits)}.${half.slice(-digits)}`;
}

const fractionDigits = (text: string): number => text.split('.')[1]?.length ?? 0;

function scaled(text: string, scale: number): bigint {
  const [whole = '0', fraction = ''] = text.split('.');
  return BigInt(whole + fraction.padEnd(scale, '0'));
}

/** `YYYY-MM-DD` from its parts, or a format error when that is no calendar day. */
export function calendarDay(publisher: string, year: string, month: string, day: string, raw: string): string {
  const iso = `${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`;
  if (!isValidDay(iso)) throw new PublisherFormatError(publisher, `'${show(raw)}' is not a day`);
  return iso;
}

/** One CSV line split into fields; double-quoted fields may hold commas and doubled quotes. */
export function csvFields(publisher: string, line: string): string[] {
  if (!line.includes('"')) return line.split(',');
  const fields: string[] = [];
  let at = 0;
  for (;;) {
    if (line[at] === '"') {
      let value = '';
      let i = at + 1;
      for (;;) {
        const close = line.indexOf('"', i);
        if (close === -1) throw new PublisherFormatError(publisher, 'a quoted CSV field is not closed');
        value += line.slice(i, close);
        if (line[close + 1] !== '"') {
          at = close + 1;
          break;
        }
        value += '"';
        i = close + 2;
      }
      fields.push(value);
      if (at === line.length) return fields;
      if (line[at] !== ',') throw new PublisherFormatError(publisher, 'text after a quoted CSV field');
      at += 1;
    } else {
      const comma = line.indexOf(',', at);
      fields.push(line.slice(at, comma === -1 ? undefined : comma));
      if (comma === -1) return fields;
      at = comma + 1;
    }
  }
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
