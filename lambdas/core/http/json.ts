import { randomBytes } from 'node:crypto';

/**
 * JSON output with exact decimals. `converted` and `amount` are decimal strings that must reach the client
 * digit for digit (999999999999.999999 has no binary double), so they travel as RawNumber and are spliced
 * into the text unquoted. The splice marker is random per process, so no client-supplied string can forge it.
 */
// Why: docs/clever-parts.md#exact-decimals-in-json
interface Marker {
  raw: string;
  escaped: string;
  pattern: RegExp;
}

// Drawn when the first RawNumber is made: most functions never make one.
let marker: Marker | undefined;

function drawMarker(): Marker {
  const raw = `\u0000${randomBytes(12).toString('hex')}`;
  const escaped = JSON.stringify(raw).slice(1, -1);
  const pattern = new RegExp(`"${escaped.replace(/\\/g, '\\\\')}(-?(?:0|[1-9]\\d*)(?:\\.\\d+)?)"`, 'g');
  return { raw, escaped, pattern };
}

const PLAIN_DECIMAL = /^-?(0|[1-9]\d*)(\.\d+)?$/;

export class RawNumber {
  constructor(readonly text: string) {
    if (!PLAIN_DECIMAL.test(text)) throw new RangeError(`not a JSON number: ${text}`);
    marker ??= drawMarker();
  }
  toJSON(): string {
    return `${marker?.raw}${this.text}`;
  }
}

export function stringifyJson(value: unknown): string {
  const text = JSON.stringify(value);
  return marker && text.includes(marker.escaped) ? text.replace(marker.pattern, '$1') : text;
}
