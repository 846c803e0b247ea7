/**
 * Bank of Canada: indicative daily rates in CAD from the Valet API's FX_RATES_DAILY group. Each series
 * `FX<code>CAD` is the CAD price of one unit (FXUSDCAD 1.3617: one US dollar costs 1.3617 CAD). Values are strings;
 * a series the bank no longer publishes is listed in seriesDetail but absent from the observations.
 */

import { arrayOf, field, isObject, readJson } from './exact-json';
import { DayCollector, decimalText, decodeBody, isoDay } from './helpers';
import type { CentralBankAdapter, OfficialDay } from './official-day';
import { adapterFacts, PublisherFormatError, parseEach } from './official-day';

export const BOC_PUBLISHER = adapterFacts('boc');

export const BOC_BASE_URL = 'https://www.bankofcanada.ca';
const NAME = BOC_PUBLISHER.name;
const SERIES = /^FX([A-Z]{3})CAD$/;

/** Everything from `from` to the newest day in one body; `to` is left to the caller's filter (Valet has no cap). */
export function bocRequests(from: string, _to: string, base = BOC_BASE_URL): string[] {
  return [`${base}/valet/observations/group/FX_RATES_DAILY/json?start_date=${from}`];
}

export function parseBoc(body: Uint8Array): OfficialDay[] {
  const root = readJson(decodeBody(body, NAME), NAME);
  const detail = field(root, 'seriesDetail', NAME, 'the body');
  if (!isObject(detail)) throw new PublisherFormatError(NAME, 'seriesDetail is not an object');
  const observations = arrayOf(field(root, 'observations', NAME, 'the body'), NAME, 'observations');
  const collector = new DayCollector(BOC_PUBLISHER);
  for (const [i, observation] of observations.entries()) {
    if (!isObject(observation)) throw new PublisherFormatError(NAME, `observation ${i} is not an object`);
    const date = isoDay(field(observation, 'd', NAME, `observation ${i}`), NAME, `observation ${i} date`);
    if (collector.has(date)) throw new PublisherFormatError(NAME, `${date} appears twice`);
    collector.day(date);
    for (const [series, cell] of Object.entries(observation)) {
      if (series === 'd') continue;
      const code = SERIES.exec(series)?.[1];
      if (!code || detail[series] === undefined) {
        throw new PublisherFormatError(NAME, `${date}: unexpected series '${series.slice(0, 24)}'`);
      }
      const value = field(cell, 'v', NAME, `${series} on ${date}`);
      if (typeof value !== 'string') throw new PublisherFormatError(NAME, `${series} on ${date} is not a string`);
      // Valet writes a missing observation as an empty value; the day keeps the series it has.
      if (value === '') continue;
      collector.add(date, code, { amount: '1', price: decimalText(NAME, value, `${code} on ${date}`) });
    }
  }
  return collector.finish();
}

export const BOC: CentralBankAdapter = {
  id: 'boc',
  requests: bocRequests,
  parse: parseEach(parseBoc),
};
