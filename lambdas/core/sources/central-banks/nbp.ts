/**
 * Narodowy Bank Polski: average rates in PLN. Table A (about 32 major currencies) is published every business day,
 * table B (about 115 others) once a week, on Wednesdays. Each JSON body is a list of tables of one kind; the
 * separate gold-price series is not a currency rate and is never fetched.
 */

import { arrayOf, field, numberText, readJson } from './exact-json';
import { DayCollector, decimalText, decodeBody, isoCode, isoDay, spans } from './helpers';
import type { CentralBankAdapter, OfficialDay } from './official-day';
import { adapterFacts, PublisherFormatError, parseEach } from './official-day';

export const NBP_PUBLISHER = adapterFacts('nbp');

export const NBP_BASE_URL = 'https://api.nbp.pl';
/** The API refuses a range longer than 93 days. */
const MAX_SPAN_DAYS = 93;
const NAME = NBP_PUBLISHER.name;

/** Tables A and B for every day of `from..to`; a span without any table answers 404, which the caller skips. */
export function nbpRequests(from: string, to: string, base = NBP_BASE_URL): string[] {
  return spans(from, to, MAX_SPAN_DAYS).flatMap(([start, end]) =>
    ['A', 'B'].map((table) => `${base}/api/exchangerates/tables/${table}/${start}/${end}/?format=json`),
  );
}

/** Parses one table-A or table-B body; B days come out with cadence `weekly`. */
export function parseNbp(body: Uint8Array): OfficialDay[] {
  const tables = arrayOf(readJson(decodeBody(body, NAME), NAME), NAME, 'the body');
  const collector = new DayCollector(NBP_PUBLISHER);
  let kind: string | undefined;
  for (const [i, table] of tables.entries()) {
    const letter = field(table, 'table', NAME, `table ${i}`);
    if (letter !== 'A' && letter !== 'B') {
      throw new PublisherFormatError(
        NAME,
        `table ${i} is '${String(letter)}', not A or B (C holds buying and selling rates)`,
      );
    }
    if (kind !== undefined && letter !== kind) throw new PublisherFormatError(NAME, 'the body mixes tables A and B');
    kind = letter;
    const date = isoDay(field(table, 'effectiveDate', NAME, `table ${i}`), NAME, `table ${i} effectiveDate`);
    if (typeof field(table, 'no', NAME, `table ${i}`) !== 'string')
      throw new PublisherFormatError(NAME, `table ${i} has no number`);
    if (collector.has(date)) throw new PublisherFormatError(NAME, `table ${letter} appears twice for ${date}`);
    collector.day(date);
    for (const [j, rate] of arrayOf(field(table, 'rates', NAME, date), NAME, `rates of ${date}`).entries()) {
      const code = isoCode(field(rate, 'code', NAME, `rate ${j} of ${date}`), NAME, date);
      const mid = numberText(field(rate, 'mid', NAME, `${code} on ${date}`), NAME, `mid of ${code} on ${date}`);
      collector.add(date, code, { amount: '1', price: decimalText(NAME, mid, `${code} on ${date}`) });
    }
  }
  return collector.finish(() => (kind === 'B' ? 'weekly' : 'daily'));
}

export const NBP: CentralBankAdapter = {
  id: 'nbp',
  requests: nbpRequests,
  // A span without any table (a weekend, or a week without table B) answers 404.
  emptyStatuses: [404],
  reads: (url) => url.includes('/api/exchangerates/tables/'),
  parse: parseEach(parseNbp),
};
