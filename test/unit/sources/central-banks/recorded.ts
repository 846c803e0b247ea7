import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PublisherFormatError } from '../../../../lambdas/core/sources/central-banks/official-day';
import { DATA_DIR } from '../../../support/upstream-server';

const ROOT = join(DATA_DIR, 'central-banks');

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

/** A publisher's recorded bodies and the request URI of each, from the bundled `source.json`. */
export function recorded(id: string): { facts: Record<string, unknown>; files: { uri: string; body: Buffer }[] } {
  const dir = join(ROOT, id);
  const facts = JSON.parse(readFileSync(join(dir, 'source.json'), 'utf8')) as Record<string, unknown>;
  const files = (facts.recorded as Recorded[]).map((r) => ({ uri: r.uri, body: readFileSync(join(dir, r.file)) }));
  return { facts, files };
}

export const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

/** A publisher's facts (domain/publishers.ts, as its adapter sees them) against the recorded `source.json`. */
export function expectFactsMatch(publisher: Record<string, unknown>, facts: Record<string, unknown>): void {
  expect(publisher).toMatchObject({
    id: facts.id,
    name: facts.name,
    country: facts.country_code,
    quoteCurrency: facts.pivot_currency,
    dataUrl: facts.data_url,
    termsUrl: facts.terms_url,
    scheduleCronUtc: facts.publish_schedule_cron_utc,
    cadence: facts.publish_cadence,
    coverageStart: facts.coverage_start,
  });
  // The domain's wording may add detail ('average rate (table A daily, table B weekly)') to the recorded one.
  if (facts.rate_type !== null) expect(String(publisher.rateKind).startsWith(String(facts.rate_type))).toBe(true);
}
