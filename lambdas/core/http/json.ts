import { randomBytes } from 'node:crypto';

/**
 * JSON output with exact decimals. `converted` and `amount` are decimal strings that must reach the client
 * digit for digit (999999999999.999999 has no binary double), so they travel as RawNumber and are spliced
 * into the text unquoted. The splice marker is random per process, so no client-supplied string can forge it.
 */
const RAW_MARK = `\u0000${randomBytes(12).toString('hex')}`;
const ESCAPED_MARK = JSON.stringify(RAW_MARK).slice(1, -1);
const RAW_PATTERN = new RegExp(`"${ESCAPED_MARK.replace(/\\/g, '\\\\')}(-?(?:0|[1-9]\\d*)(?:\\.\\d+)?)"`, 'g');
const PLAIN_DECIMAL = /^-?(0|[1-9]\d*)(\.\d+)?$/;

export class RawNumber {
  constructor(readonly text: string) {
    if (!PLAIN_DECIMAL.test(text)) throw new RangeError(`not a JSON number: ${text}`);
  }
  toJSON(): string {
    return `${RAW_MARK}${this.text}`;
  }
}

export function stringifyJson(value: unknown): string {
  const text = JSON.stringify(value);
  return text.includes(ESCAPED_MARK) ? text.replace(RAW_PATTERN, '$1') : text;
}
