/**
 * Czech National Bank: the daily fixing in CZK, one JSON body per calendar year. Each record prices `amount`
 * units (1, 100 or 1000) of a currency on its `validFor` day.
 */

import { arrayOf, field, numberText, readJson } from './exact-json';
import { DayCollector, decimalText, decodeBody, isoCode, isoDay, unitsText } from './helpers';
import type { CentralBankAdapter, OfficialDay } from './official-day';
import { adapterFacts, parseEach } from './official-day';

export const CNB_PUBLISHER = adapterFacts('cnb');

export const CNB_BASE_URL = 'https://api.cnb.cz';
const NAME = CNB_PUBLISHER.name;

/** One whole-year body per calendar year the range touches; the caller keeps the days it asked for. */
export function cnbRequests(from: string, to: string, base = CNB_BASE_URL): string[] {
  const uris: string[] = [];
  for (let year = Number(from.slice(0, 4)); year <= Number(to.slice(0, 4)); year++) {
    uris.push(`${base}/cnbapi/exrates/daily-year?lang=EN&year=${year}`);
  }
  return uris;
}

export function parseCnb(body: Uint8Array): OfficialDay[] {
  const root = readJson(decodeBody(body, NAME), NAME);
  const records = arrayOf(field(root, 'rates', NAME, 'the body'), NAME, 'rates');
  const collector = new DayCollector(CNB_PUBLISHER);
  for (const [i, record] of records.entries()) {
    const where = `record ${i}`;
    const date = isoDay(field(record, 'validFor', NAME, where), NAME, `${where} validFor`);
    const code = isoCode(field(record, 'currencyCode', NAME, where), NAME, `${where} on ${date}`);
    const what = `${code} on ${date}`;
    const amount = unitsText(numberText(field(record, 'amount', NAME, what), NAME, `amount of ${what}`), NAME, what);
    const price = decimalText(NAME, numberText(field(record, 'rate', NAME, what), NAME, `rate of ${what}`), what);
    collector.add(date, code, { amount, price });
  }
  return collector.finish();
}

export const CNB: CentralBankAdapter = {
  id: 'cnb',
  requests: cnbRequests,
  parse: parseEach(parseCnb),
};
