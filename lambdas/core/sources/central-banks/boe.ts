/**
 * Bank of England: daily spot rates from its statistical database, one CSV for a date range with a `DATE` column
 * (`DD Mon YYYY`) and one column per series code. Every `XUDL…S` / `XUDLBK…` series requested here is the spot
 * rate of a currency into sterling, units of the currency per £1, so each becomes `{ amount: rate, price: '1' }`
 * in GBP. Days without rates (UK holidays) are absent rows.
 */
import { printableUpstream } from '../source-day';
import { calendarDay, completeLines, csvFields, DayCollector, decimalText, decodeText } from './helpers';
import type { CentralBankAdapter, OfficialDay } from './official-day';
import { adapterFacts, PublisherFormatError, parseEach } from './official-day';

export const BOE_PUBLISHER = adapterFacts('boe');

export const BOE_BASE_URL = 'https://www.bankofengland.co.uk';
const NAME = BOE_PUBLISHER.name;

/** Series code → currency, in the order requested: the spot rates into sterling the database publishes daily. */
export const BOE_SERIES: Readonly<Record<string, string>> = {
  XUDLUSS: 'USD',
  XUDLERS: 'EUR',
  XUDLJYS: 'JPY',
  XUDLCDS: 'CAD',
  XUDLSFS: 'CHF',
  XUDLADS: 'AUD',
  XUDLNDS: 'NZD',
  XUDLNKS: 'NOK',
  XUDLSKS: 'SEK',
  XUDLDKS: 'DKK',
  XUDLHDS: 'HKD',
  XUDLSGS: 'SGD',
  XUDLSRS: 'SAR',
  XUDLZRS: 'ZAR',
  XUDLTWS: 'TWD',
  XUDLBK25: 'CZK',
  XUDLBK33: 'HUF',
  XUDLBK47: 'PLN',
  XUDLBK78: 'ILS',
  XUDLBK83: 'MYR',
  XUDLBK87: 'THB',
  XUDLBK89: 'CNY',
  XUDLBK93: 'KRW',
  XUDLBK95: 'TRY',
  XUDLBK97: 'INR',
  XUDLZOS4: 'RON',
};

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DATE = /^(\d{2}) ([A-Z][a-z]{2}) (\d{4})$/;

const boeDay = (day: string): string => `${day.slice(8, 10)}/${MONTHS[Number(day.slice(5, 7)) - 1]}/${day.slice(0, 4)}`;

/** One request covers the whole range and every series. */
export function boeRequests(from: string, to: string, origin = BOE_BASE_URL): string[] {
  return [
    `${origin}/boeapps/database/_iadb-fromshowcolumns.asp?CSVF=TN&Datefrom=${boeDay(from)}&Dateto=${boeDay(to)}` +
      `&SeriesCodes=${Object.keys(BOE_SERIES).join(',')}&UsingCodes=Y&csv.x=yes`,
  ];
}

/**
 * Parses the CSV. An empty cell is a series without a rate that day and is skipped; an unknown series code, a
 * row of the wrong width, a bad number or date, a day twice or a row without any rate rejects the body.
 */
export function parseBoe(body: Uint8Array): OfficialDay[] {
  const lines = completeLines(NAME, decodeText(NAME, body));
  const header = csvFields(NAME, lines[0] ?? '');
  if (header[0] !== 'DATE' || header.length < 2) {
    throw new PublisherFormatError(NAME, `not a rates CSV: header '${printableUpstream(lines[0] ?? '')}'`);
  }
  const codes = header.slice(1).map((series) => {
    const code = BOE_SERIES[series];
    if (code === undefined) throw new PublisherFormatError(NAME, `unknown series '${printableUpstream(series)}'`);
    return code;
  });
  const collector = new DayCollector(BOE_PUBLISHER);
  for (let row = 1; row < lines.length; row++) {
    const fields = csvFields(NAME, lines[row] as string);
    if (fields.length !== header.length) {
      throw new PublisherFormatError(NAME, `line ${row + 1} has ${fields.length} fields, expected ${header.length}`);
    }
    const raw = fields[0] as string;
    const parts = DATE.exec(raw);
    const month = parts ? MONTHS.indexOf(parts[2] as string) + 1 : 0;
    if (!parts || month === 0) throw new PublisherFormatError(NAME, `'${printableUpstream(raw)}' is not a day`);
    const date = calendarDay(NAME, parts[3] as string, String(month), parts[1] as string, raw);
    if (collector.has(date)) throw new PublisherFormatError(NAME, `the day ${date} appears twice`);
    collector.open(date);
    codes.forEach((code, i) => {
      const field = fields[i + 1] as string;
      if (field !== '')
        collector.add(date, code, { amount: decimalText(NAME, field, `${code} on ${date}`), price: '1' });
    });
  }
  return collector.days();
}

export const BOE: CentralBankAdapter = {
  id: 'boe',
  requests: boeRequests,
  parse: parseEach(parseBoe),
};
