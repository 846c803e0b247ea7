/**
 * Reserve Bank of Australia: statistical table F11.1, one CSV from January 2023 to the latest day. Header rows
 * (`Title`, `Description`, `Frequency`, `Type`, `Units`, blank lines, `Source`, `Publication date`, `Series ID`)
 * come first, then one row per business day, `DD-Mon-YYYY`. Every rate is units of the currency per A$1, so
 * each becomes `{ amount: rate, price: '1' }` in AUD. The trade-weighted index (units `Index`) is not a currency
 * and is dropped; the SDR column is quoted as a currency per A$1 and is kept as XDR.
 */
import { printableUpstream } from '../source-day';
import { calendarDay, completeLines, csvFields, DayCollector, decimalText, decodeText } from './helpers';
import type { CentralBankAdapter, OfficialDay } from './official-day';
import { adapterFacts, PublisherFormatError, parseEach } from './official-day';

export const RBA_PUBLISHER = adapterFacts('rba');

export const RBA_BASE_URL = 'https://www.rba.gov.au';
const NAME = RBA_PUBLISHER.name;

/** The table always holds every day since 2023, so any range is the one file. */
export function rbaRequests(_from: string, _to: string, origin = RBA_BASE_URL): string[] {
  return [`${origin}/statistics/tables/csv/f11.1-data.csv`];
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DATE = /^(\d{2})-([A-Z][a-z]{2})-(\d{4})$/;
const HEADER_ROWS = ['Title', 'Description', 'Frequency', 'Type', 'Units', 'Source', 'Publication date'];
/** The units RBA writes for the SDR, and the ISO code it has. */
const SDR: Readonly<Record<string, string>> = { SDR: 'XDR' };

function rbaDay(text: string): string {
  const parts = DATE.exec(text);
  const month = parts ? MONTHS.indexOf(parts[2] as string) + 1 : 0;
  if (!parts || month === 0) throw new PublisherFormatError(NAME, `'${printableUpstream(text)}' is not a day`);
  return calendarDay(NAME, parts[3] as string, String(month), parts[1] as string, text);
}

/** Per column: the ISO code it quotes, or undefined for a column that is no currency (the index). */
function columnCodes(header: Map<string, string[]>): (string | undefined)[] {
  const units = header.get('Units');
  const titles = header.get('Title');
  if (!units || !titles) throw new PublisherFormatError(NAME, 'no `Title` or `Units` header row');
  return units.map((unit, column) => {
    if (column === 0) return undefined;
    if (unit === 'Index') return undefined;
    if (titles[column] !== `A$1=${unit}`) {
      throw new PublisherFormatError(
        NAME,
        `column ${column + 1} is not quoted per A$1 ('${printableUpstream(titles[column] ?? '')}')`,
      );
    }
    const code = SDR[unit] ?? unit;
    if (!/^[A-Z]{3}$/.test(code))
      throw new PublisherFormatError(NAME, `'${printableUpstream(unit)}' is not a currency`);
    return code;
  });
}

/**
 * Parses the F11.1 CSV. An empty cell is a currency not quoted that day (the AED and ZAR columns are empty since
 * 2024, CHF and CAD have gaps) and is skipped; damage shows as a row of the wrong width, a bad number or date, a
 * day twice or a day with no rate at all, and rejects the body.
 */
export function parseRba(body: Uint8Array): OfficialDay[] {
  const lines = completeLines(NAME, decodeText(NAME, body));
  if (!lines[0]?.startsWith('F11.1')) {
    throw new PublisherFormatError(NAME, `not table F11.1: '${printableUpstream(lines[0] ?? '')}'`);
  }
  const header = new Map<string, string[]>();
  let row = 1;
  for (; row < lines.length; row++) {
    const line = lines[row] as string;
    if (line === '') continue;
    const fields = csvFields(NAME, line);
    const name = fields[0] as string;
    if (name === 'Series ID') break;
    if (!HEADER_ROWS.includes(name))
      throw new PublisherFormatError(NAME, `unexpected header row '${printableUpstream(name)}'`);
    header.set(name, fields);
  }
  if (row >= lines.length) throw new PublisherFormatError(NAME, 'no `Series ID` row ends the header');
  const width = csvFields(NAME, lines[row] as string).length;
  if ([...header.values()].some((fields) => fields.length !== width)) {
    throw new PublisherFormatError(NAME, 'the header rows differ in width');
  }
  const codes = columnCodes(header);
  if (codes.filter(Boolean).length !== new Set(codes.filter(Boolean)).size) {
    throw new PublisherFormatError(NAME, 'a currency has two columns');
  }
  const collector = new DayCollector(RBA_PUBLISHER);
  for (row += 1; row < lines.length; row++) {
    const fields = csvFields(NAME, lines[row] as string);
    if (fields.length !== width) {
      throw new PublisherFormatError(NAME, `line ${row + 1} has ${fields.length} fields, expected ${width}`);
    }
    const date = rbaDay(fields[0] as string);
    if (collector.has(date)) throw new PublisherFormatError(NAME, `the day ${date} appears twice`);
    collector.open(date);
    fields.forEach((field, column) => {
      if (column === 0 || field === '') return;
      const code = codes[column];
      const value = decimalText(NAME, field, `${code ?? 'the index'} on ${date}`);
      if (code !== undefined) collector.add(date, code, { amount: value, price: '1' });
    });
  }
  return collector.days();
}

export const RBA: CentralBankAdapter = {
  id: 'rba',
  requests: rbaRequests,
  parse: parseEach(parseRba),
};
