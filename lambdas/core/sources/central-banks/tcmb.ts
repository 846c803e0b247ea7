/**
 * Central Bank of the Republic of Türkiye: indicative rates from its EVDS data service, one JSON body for a date
 * range with a buying (`TP_DK_<code>_A_YTL`) and a selling (`TP_DK_<code>_S_YTL`) series per currency, in lira per
 * unit (per 100 for the yen). Weekends and holidays come as days whose every series is null.
 */
import { printableUpstream } from '../source-day';
import { calendarDay, DayCollector, decimalText, decodeText, midpoint } from './helpers';
import type { CentralBankAdapter, OfficialDay } from './official-day';
import { adapterFacts, PublisherFormatError, parseEach } from './official-day';

export const TCMB_PUBLISHER = adapterFacts('tcmb');

export const TCMB_BASE_URL = 'https://evds3.tcmb.gov.tr';
const NAME = TCMB_PUBLISHER.name;

/** The currencies the EVDS indicative-rate table carries, in the order the series are requested. */
export const TCMB_CURRENCIES = [
  'AED',
  'AUD',
  'AZN',
  'CAD',
  'CHF',
  'CNY',
  'DKK',
  'EUR',
  'GBP',
  'JPY',
  'KRW',
  'KWD',
  'KZT',
  'NOK',
  'PKR',
  'QAR',
  'RON',
  'RUB',
  'SAR',
  'SEK',
  'USD',
] as const;

/** TCMB prices the yen per 100 units (28.0072 lira on 2 March 2026, when one yen was about 0.28 lira). */
const UNITS: Readonly<Record<string, string>> = { JPY: '100' };

const evdsDay = (day: string): string => `${day.slice(8, 10)}-${day.slice(5, 7)}-${day.slice(0, 4)}`;

/** One request covers the whole range: every buying and selling series, days as `DD-MM-YYYY`. */
export function tcmbRequests(from: string, to: string, origin = TCMB_BASE_URL): string[] {
  const series = TCMB_CURRENCIES.flatMap((code) => [`TP.DK.${code}.A.YTL`, `TP.DK.${code}.S.YTL`]).join('-');
  return [
    `${origin}/igmevdsms-dis/series=${series}&startDate=${evdsDay(from)}&endDate=${evdsDay(to)}&type=json&frequency=1`,
  ];
}

const SERIES = /^TP_DK_([A-Z]{3})_([AS])_YTL$/;
const DATE = /^(\d{2})-(\d{2})-(\d{4})$/;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Parses an EVDS body into one day per date with quotes. The rate taken is the mid of the buying and selling
 * rates, (buying + selling) / 2, computed exactly in decimal text: TCMB publishes no mid itself. A date whose
 * series are all null is a day without rates (weekend, holiday) and is skipped; a date where only some are null
 * keeps the currencies that have both rates, and a currency with one of its two rates missing is a damaged body.
 */
export function parseTcmb(body: Uint8Array): OfficialDay[] {
  const text = decodeText(NAME, body);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new PublisherFormatError(NAME, 'the body is not complete JSON');
  }
  if (!isRecord(json) || !Array.isArray(json.items)) throw new PublisherFormatError(NAME, 'no `items` list');
  if (json.totalCount !== json.items.length) {
    throw new PublisherFormatError(NAME, `totalCount ${String(json.totalCount)} for ${json.items.length} items`);
  }
  const collector = new DayCollector(TCMB_PUBLISHER);
  let seriesFields = 0;
  for (const item of json.items) {
    if (!isRecord(item) || typeof item.Tarih !== 'string') throw new PublisherFormatError(NAME, 'an item has no Tarih');
    const parts = DATE.exec(item.Tarih);
    if (!parts) throw new PublisherFormatError(NAME, `'${printableUpstream(item.Tarih)}' is not a day`);
    const date = calendarDay(NAME, parts[3] as string, parts[2] as string, parts[1] as string, item.Tarih);
    if (collector.has(date)) throw new PublisherFormatError(NAME, `the day ${date} appears twice`);
    const pairs = new Map<string, { A?: string | null; S?: string | null }>();
    for (const [key, value] of Object.entries(item)) {
      if (key === 'Tarih' || key === 'UNIXTIME') continue;
      const series = SERIES.exec(key);
      if (!series) throw new PublisherFormatError(NAME, `unexpected field '${printableUpstream(key)}'`);
      if (value !== null && typeof value !== 'string') {
        throw new PublisherFormatError(NAME, `${key} on ${date} is not a decimal string`);
      }
      seriesFields += 1;
      const pair = pairs.get(series[1] as string) ?? {};
      pair[series[2] as 'A' | 'S'] = value;
      pairs.set(series[1] as string, pair);
    }
    const missing = TCMB_CURRENCIES.find(
      (code) => pairs.get(code)?.A === undefined || pairs.get(code)?.S === undefined,
    );
    if (missing) throw new PublisherFormatError(NAME, `a series of ${missing} is missing on ${date}`);
    if ([...pairs.values()].every((pair) => pair.A == null && pair.S == null)) continue;
    collector.open(date);
    for (const [code, pair] of pairs) {
      if (pair.A == null && pair.S == null) continue;
      if (pair.A == null || pair.S == null) {
        throw new PublisherFormatError(NAME, `${code} on ${date} has only one of its buying and selling rates`);
      }
      const buying = decimalText(NAME, pair.A, `${code} buying on ${date}`);
      const selling = decimalText(NAME, pair.S, `${code} selling on ${date}`);
      collector.add(date, code, { amount: UNITS[code] ?? '1', price: midpoint(buying, selling) });
    }
  }
  // JSON.parse keeps the last of two equal keys, so a series written twice in one item is counted in the text.
  if ((text.match(/"TP_DK_[A-Z]{3}_[AS]_YTL"\s*:/g) ?? []).length !== seriesFields) {
    throw new PublisherFormatError(NAME, 'a series appears twice in one day');
  }
  return collector.days();
}

export const TCMB: CentralBankAdapter = {
  id: 'tcmb',
  requests: tcmbRequests,
  parse: parseEach(parseTcmb),
};
