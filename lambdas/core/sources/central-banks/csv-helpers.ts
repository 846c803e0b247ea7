/**
 * Pieces shared by the central-bank adapters: strict decoding, exact decimal text, a CSV line splitter and the
 * day collector that keeps a day whole or refuses the body. Numbers stay text from the body to the quote, so no
 * published digit is lost to binary floating point.
 */
import { isValidDay } from '../../domain/dates';
import { decodeUtf8 } from '../http';
import { printableUpstream } from '../source-day';
import { type AdapterFacts, type OfficialDay, type OfficialQuote, PublisherFormatError } from './official-day';

/** A publisher's facts, as its parser sees them. */
export type PublisherFacts = AdapterFacts;

export const THREE_LETTER_CODE = /^[A-Z]{3}$/;
const DECIMAL = /^\d{1,15}(?:\.\d{1,12})?$/;

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
 * A published positive rate as plain decimal text with every digit kept ('0.70570' stays '0.70570'), a decimal
 * comma turned into a dot where the publisher writes one. Signs, exponents, grouping and zero are refused.
 */
export function decimalText(publisher: string, raw: string, what: string, decimalComma = false): string {
  const text = decimalComma ? raw.replace(',', '.') : raw;
  if (!DECIMAL.test(text) || !/[1-9]/.test(text)) {
    throw new PublisherFormatError(publisher, `${what}: '${printableUpstream(raw)}' is not a positive decimal`);
  }
  return text;
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
  if (!isValidDay(iso)) throw new PublisherFormatError(publisher, `'${printableUpstream(raw)}' is not a day`);
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

/**
 * Collects quotes per day. A currency quoted twice on one day is a damaged body; a day that ends with no quote
 * (every cell empty) is refused by `days()` unless the publisher marks such days as holidays and skips them itself.
 */
export class DayCollector {
  private readonly byDate = new Map<string, Record<string, OfficialQuote>>();

  constructor(
    private readonly facts: PublisherFacts,
    private readonly quoteCurrency: string = facts.quoteCurrency,
  ) {}

  /** Opens a day with no quotes yet, so a day whose quotes are all missing can be told apart from one never seen. */
  open(date: string): void {
    if (!this.byDate.has(date)) this.byDate.set(date, {});
  }

  has(date: string): boolean {
    return this.byDate.has(date);
  }

  add(date: string, code: string, quote: OfficialQuote): void {
    if (!THREE_LETTER_CODE.test(code)) {
      throw new PublisherFormatError(this.facts.name, `'${printableUpstream(code)}' is not a currency code`);
    }
    if (code === this.quoteCurrency) {
      throw new PublisherFormatError(this.facts.name, `${code} is quoted against itself on ${date}`);
    }
    const quotes = this.byDate.get(date) ?? {};
    if (quotes[code]) throw new PublisherFormatError(this.facts.name, `${code} is quoted twice on ${date}`);
    quotes[code] = quote;
    this.byDate.set(date, quotes);
  }

  /** The days oldest first; a day with no quote at all is a damaged body. */
  days(): OfficialDay[] {
    const days: OfficialDay[] = [];
    for (const [date, quotes] of [...this.byDate].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      if (Object.keys(quotes).length === 0) {
        throw new PublisherFormatError(this.facts.name, `the day ${date} has no quotes`);
      }
      days.push({
        publisher: this.facts.id,
        date,
        quoteCurrency: this.quoteCurrency,
        cadence: this.facts.cadence,
        quotes,
      });
    }
    return days;
  }
}

/** Parses JSON with every number kept as its source text, so '0.70570' reaches the quote as written. */
export function parseJsonKeepingNumbers(publisher: string, text: string): unknown {
  let out = '';
  let from = 0;
  let i = 0;
  while (i < text.length) {
    const char = text[i] as string;
    if (char === '"') {
      i += 1;
      while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      i += 1;
    } else if (char === '-' || (char >= '0' && char <= '9')) {
      const end = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i, i + 40))?.[0].length ?? 1;
      out += `${text.slice(from, i)}"${text.slice(i, i + end)}"`;
      i += end;
      from = i;
    } else {
      i += 1;
    }
  }
  try {
    return JSON.parse(out + text.slice(from));
  } catch {
    throw new PublisherFormatError(publisher, 'the body is not complete JSON');
  }
}
