import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PublisherFormatError } from '../../../../lambdas/core/sources/central-banks/official-day';
import { DATA_DIR } from '../../../support/upstream-server';

interface RecordedFile {
  file: string;
  uri: string;
}

/** A publisher's recorded bodies and the request URI of each, from the bundled `source.json`. */
export function recorded(id: string): { facts: Record<string, unknown>; files: { uri: string; body: Buffer }[] } {
  const dir = join(DATA_DIR, 'central-banks', id);
  const facts = JSON.parse(readFileSync(join(dir, 'source.json'), 'utf8')) as Record<string, unknown>;
  const files = (facts.recorded as RecordedFile[]).map((r) => ({ uri: r.uri, body: readFileSync(join(dir, r.file)) }));
  return { facts, files };
}

export const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

/** Runs a parse that must fail with a PublisherFormatError naming the publisher; returns the message. */
export function publisherError(publisher: string, run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(PublisherFormatError);
    const message = (error as Error).message;
    expect(message.startsWith(`${publisher}: `)).toBe(true);
    return message;
  }
  throw new Error('expected a PublisherFormatError');
}

/** The facts every adapter exports, checked against the recorded `source.json`. */
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
  if (facts.rate_type !== null) expect(publisher.rateKind).toBe(facts.rate_type);
}
