/**
 * Central Bank of Russia: official rates in RUB, XML in windows-1251 with decimal commas. `Value` is the price of
 * `Nominal` units and `VunitRate` = Value / Nominal, which must agree exactly. A body's day is the date the rates
 * take effect (rates set on a Friday are dated Saturday). Two feeds are read:
 * - the daily table `XML_daily.asp?date_req=DD/MM/YYYY`, one request per day: the canonical fetch;
 * - per-currency series `XML_dynamic.asp`, which name currencies only by the bank's internal ID (R01235 for USD),
 *   resolved with a daily table's ID → code map; read only where a range is recorded that way.
 * The precious-metals feed is not a currency rate and is never fetched.
 */

import { addDays } from '../../domain/dates';
import type { XmlElement } from '../ecb-xml';
import {
  childText,
  DayCollector,
  decimalText,
  decodeBody,
  dmyDay,
  dmySlashes,
  isExactProduct,
  isoCode,
  readXml,
  show,
  unitsText,
} from './helpers';
import type { CentralBankAdapter, OfficialDay } from './official-day';
import { adapterFacts, PublisherFormatError, parseEach } from './official-day';

export const CBR_PUBLISHER = adapterFacts('cbr');

export const CBR_BASE_URL = 'https://www.cbr.ru';
const NAME = CBR_PUBLISHER.name;
const ID = /^R\d{5}[A-Z]?$/;

const fail = (what: string): never => {
  throw new PublisherFormatError(NAME, what);
};

/** The daily table for each day of `from..to`. */
export function cbrRequests(from: string, to: string, base = CBR_BASE_URL): string[] {
  const uris: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) {
    uris.push(`${base}/scripts/XML_daily.asp?date_req=${dmySlashes(day)}`);
  }
  return uris;
}

/** The newest daily table (no date asked): the source of the ID → code map for the series. */
export const cbrLatestRequest = (base = CBR_BASE_URL): string => `${base}/scripts/XML_daily.asp`;

/** One series per currency ID over `from..to`. */
export function cbrSeriesRequests(from: string, to: string, ids: Iterable<string>, base = CBR_BASE_URL): string[] {
  const range = `date_req1=${dmySlashes(from)}&date_req2=${dmySlashes(to)}`;
  return [...ids].map((id) => `${base}/scripts/XML_dynamic.asp?VAL_NM_RQ=${id}&${range}`);
}

function readCbrXml(body: Uint8Array, root: string): XmlElement {
  const element = readXml(decodeBody(body, NAME, 'windows-1251'), NAME, 'windows-1251');
  if (element.name !== root) fail(`expected a ${root} root, found <${show(element.name)}>`);
  return element;
}

/**
 * VunitRate is sometimes written in exponent form (IRR: `5,39256E-05`); it is only a check figure, so it is
 * shifted to plain digits, exactly. Anything else passes through to the strict decimal check.
 */
function plainDecimal(raw: string): string {
  const m = /^(\d+)(?:,(\d+))?E([+-]\d{1,2})$/.exec(raw.trim());
  if (!m) return raw;
  const digits = `${m[1]}${m[2] ?? ''}`;
  const point = (m[1] ?? '').length + Number(m[3]);
  const shifted =
    point <= 0
      ? `0.${'0'.repeat(-point)}${digits}`
      : point >= digits.length
        ? digits + '0'.repeat(point - digits.length)
        : `${digits.slice(0, point)}.${digits.slice(point)}`;
  return shifted.replace(/^0+(?=\d)/, '');
}

/** Nominal and Value of a Valute or Record, checked against VunitRate. */
function quoteOf(element: XmlElement, what: string) {
  const amount = unitsText(childText(element, 'Nominal', NAME, what), NAME, what);
  const price = decimalText(NAME, childText(element, 'Value', NAME, what), what, true);
  const perUnit = decimalText(NAME, plainDecimal(childText(element, 'VunitRate', NAME, what)), what, true);
  if (!isExactProduct(amount, perUnit, price)) fail(`${what}: Value ${price} is not ${amount} × VunitRate ${perUnit}`);
  return { amount, price };
}

function readDaily(body: Uint8Array): {
  date: string;
  valutes: Array<{ id: string; code: string; element: XmlElement }>;
} {
  const root = readCbrXml(body, 'ValCurs');
  const date = dmyDay(root.attributes.get('Date'), NAME, 'the ValCurs Date');
  const valutes = root.children.map((element, i) => {
    if (element.name !== 'Valute') fail(`unexpected <${show(element.name)}> on ${date}`);
    const id = element.attributes.get('ID') ?? '';
    if (!ID.test(id)) fail(`Valute ${i} on ${date} has no valid ID`);
    const code = isoCode(childText(element, 'CharCode', NAME, `${id} on ${date}`), NAME, `${id} on ${date}`);
    return { id, code, element };
  });
  return { date, valutes };
}

/** One daily table: one day. */
export function parseCbrDaily(body: Uint8Array): OfficialDay[] {
  const { date, valutes } = readDaily(body);
  const collector = new DayCollector(CBR_PUBLISHER);
  collector.day(date);
  for (const { code, element } of valutes) collector.add(date, code, quoteOf(element, `${code} on ${date}`));
  return collector.finish();
}

/** The bank's currency IDs and their ISO codes, in the order of a daily table. */
export function cbrCodesById(dailyBody: Uint8Array): Map<string, string> {
  const codes = new Map<string, string>();
  for (const { id, code } of readDaily(dailyBody).valutes) {
    if (codes.has(id)) fail(`ID ${id} appears twice`);
    codes.set(id, code);
  }
  return codes;
}

/** Per-currency series, merged into days; an ID the map does not know makes the body invalid. */
export function parseCbrSeries(bodies: readonly Uint8Array[], codesById: ReadonlyMap<string, string>): OfficialDay[] {
  const collector = new DayCollector(CBR_PUBLISHER);
  for (const body of bodies) {
    const root = readCbrXml(body, 'ValCurs');
    const id = root.attributes.get('ID') ?? '';
    const code = codesById.get(id) ?? fail(`series for unknown currency ID '${show(id)}'`);
    for (const record of root.children) {
      if (record.name !== 'Record') fail(`unexpected <${show(record.name)}> in the ${code} series`);
      if (record.attributes.get('Id') !== id) fail(`a record of the ${code} series names another ID`);
      const date = dmyDay(record.attributes.get('Date'), NAME, `a ${code} record`);
      collector.add(date, code, quoteOf(record, `${code} on ${date}`));
    }
  }
  return collector.finish(undefined, true);
}

const isSeries = (url: string): boolean => url.includes('/XML_dynamic.asp');

/**
 * Upstream: one daily table per calendar day (`date_req`), a weekend answering with the table in force, so a day
 * repeated by a later answer is kept once. Per-currency series (the bundled recordings) are read too: their IDs
 * are named by the daily table among the same answers.
 */
export const CBR: CentralBankAdapter = {
  id: 'cbr',
  requests: cbrRequests,
  reads: (url) => url.includes('/XML_daily.asp') || isSeries(url),
  parse(responses) {
    const daily = responses.filter((r) => !isSeries(r.url));
    const series = responses.filter((r) => isSeries(r.url));
    const days = parseEach(parseCbrDaily)(daily);
    if (series.length === 0) return days;
    const first = daily[0] ?? fail('series need a daily table to name their currencies');
    const known = new Set(days.map((d) => d.date));
    const fromSeries = parseCbrSeries(
      series.map((r) => r.body),
      cbrCodesById(first.body),
    ).filter((d) => !known.has(d.date));
    return [...days, ...fromSeries].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  },
};
