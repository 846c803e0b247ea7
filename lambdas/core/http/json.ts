/**
 * JSON output with exact decimals. `converted` and `amount` are decimal strings that must reach the client
 * digit for digit (999999999999.999999 has no binary double), so they travel as RawNumber and are spliced
 * into the text unquoted.
 */
export class RawNumber {
  constructor(readonly text: string) {
    if (!/^-?\d+(\.\d+)?$/.test(text)) throw new RangeError(`not a plain decimal: ${text}`);
  }
  toJSON(): string {
    return `${RAW_MARK}${this.text}${RAW_MARK}`;
  }
}

const RAW_MARK = '\u0000raw\u0000';
const RAW_PATTERN = /"\\u0000raw\\u0000(-?\d+(?:\.\d+)?)\\u0000raw\\u0000"/g;

export function stringifyJson(value: unknown): string {
  const text = JSON.stringify(value);
  return text.includes('\\u0000raw') ? text.replace(RAW_PATTERN, '$1') : text;
}
