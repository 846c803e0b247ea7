import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PublisherFormatError } from '../../../../lambdas/core/sources/central-banks/official-day';

const ROOT = join(__dirname, '../../../../data/central-banks');

interface Recorded {
  file: string;
  uri: string;
}

/** One recorded response body, byte for byte. */
export const recordedBody = (id: string, file: string): Uint8Array =>
  new Uint8Array(readFileSync(join(ROOT, id, file)));

export function recordedFiles(id: string): Recorded[] {
  return (JSON.parse(readFileSync(join(ROOT, id, 'source.json'), 'utf8')) as { recorded: Recorded[] }).recorded;
}

export const recordedFacts = (id: string): Record<string, unknown> =>
  JSON.parse(readFileSync(join(ROOT, id, 'source.json'), 'utf8')) as Record<string, unknown>;

const latin1 = (body: Uint8Array): string => Buffer.from(body).toString('latin1');
const fromLatin1 = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'latin1'));

/** The body with its first occurrence of `from` replaced; fails the test if `from` is not there. */
export function damaged(body: Uint8Array, from: string | RegExp, to: string): Uint8Array {
  const text = latin1(body);
  const out = text.replace(from, to);
  if (out === text) throw new Error(`damage pattern ${String(from)} not found`);
  return fromLatin1(out);
}

export const truncated = (body: Uint8Array, fraction = 0.6): Uint8Array =>
  body.slice(0, Math.floor(body.byteLength * fraction));

export const HTML_ERROR_PAGE = new TextEncoder().encode(
  '<!DOCTYPE html><html><head><title>503 Service Unavailable</title></head><body>Try later</body></html>',
);

/** The body as a single-byte code page would write it: every two-byte UTF-8 letter becomes one high byte. */
export const singleByte = (body: Uint8Array): Uint8Array => damaged(body, /[\xc2-\xdf][\x80-\xbf]/g, '\xe9');

/** Runs a parse that must fail and returns its message, which must name the publisher. */
export function publisherError(publisherName: string, run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(PublisherFormatError);
    const message = (error as Error).message;
    expect(message.startsWith(`${publisherName}: `)).toBe(true);
    return message;
  }
  throw new Error('expected a PublisherFormatError');
}
