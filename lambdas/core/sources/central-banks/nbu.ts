/**
 * National Bank of Ukraine: official rates in UAH, set for every calendar day (weekend days repeat the last
 * business day's rates, and are dropped after they are read). Each record gives `rate`, the price of `units` units, and `rate_per_unit` = rate / units;
 * the quote keeps `rate` for `units`, and the per-unit figure must agree exactly or the record is refused.
 */

import { arrayOf, field, numberText, readJson } from './exact-json';
import { DayCollector, decimalText, decodeBody, dmyDay, isExactProduct, isoCode, spans, unitsText } from './helpers';
import type { CentralBankAdapter, OfficialDay } from './official-day';
import { adapterFacts, PublisherFormatError, parseEach } from './official-day';

export const NBU_PUBLISHER = adapterFacts('nbu');

export const NBU_BASE_URL = 'https://bank.gov.ua';
/** About 45 currencies a day at ~215 bytes each: a month keeps a body near 300 kB. */
const MAX_SPAN_DAYS = 31;
const NAME = NBU_PUBLISHER.name;

const compact = (day: string): string => day.replaceAll('-', '');

export function nbuRequests(from: string, to: string, base = NBU_BASE_URL): string[] {
  return spans(from, to, MAX_SPAN_DAYS).map(
    ([start, end]) =>
      `${base}/NBU_Exchange/exchange_site?end=${compact(end)}&json=&order=asc&sort=exchangedate&start=${compact(start)}`,
  );
}

export function parseNbu(body: Uint8Array): OfficialDay[] {
  const records = arrayOf(readJson(decodeBody(body, NAME), NAME), NAME, 'the body');
  const collector = new DayCollector(NBU_PUBLISHER);
  for (const [i, record] of records.entries()) {
    const where = `record ${i}`;
    const date = dmyDay(field(record, 'exchangedate', NAME, where), NAME, `${where} exchangedate`);
    const code = isoCode(field(record, 'cc', NAME, where), NAME, `${where} on ${date}`);
    const what = `${code} on ${date}`;
    const price = decimalText(NAME, numberText(field(record, 'rate', NAME, what), NAME, `rate of ${what}`), what);
    const units = unitsText(numberText(field(record, 'units', NAME, what), NAME, `units of ${what}`), NAME, what);
    const perUnitText = numberText(field(record, 'rate_per_unit', NAME, what), NAME, `rate_per_unit of ${what}`);
    const perUnit = decimalText(NAME, perUnitText, what);
    if (!isExactProduct(units, perUnit, price)) {
      throw new PublisherFormatError(NAME, `${what}: rate ${price} is not units ${units} × rate_per_unit ${perUnit}`);
    }
    collector.add(date, code, { amount: units, price });
  }
  // Weekend days only repeat Friday's rates, and neither the ECB nor any other publisher has one: kept, they would
  // make a Saturday a day with data, where a history request must stay 404 no-data-available.
  return collector.finish().filter((day) => !isWeekend(day.date));
}

function isWeekend(date: string): boolean {
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
  return weekday === 0 || weekday === 6;
}

export const NBU: CentralBankAdapter = {
  id: 'nbu',
  requests: nbuRequests,
  parse: parseEach(parseNbu),
};
