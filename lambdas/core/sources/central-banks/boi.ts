/**
 * Bank of Israel: representative rates (`DATA_TYPE` OF00) from its SDMX service as CSV, one row per series and
 * day: `BASE_CURRENCY` priced in `COUNTER_CURRENCY` (shekels), `OBS_VALUE` shekels for 10^`UNIT_MULT` units (the
 * yen per 100, the Lebanese pound per 10). Columns are found by name, so their order may change.
 */
import { printableUpstream } from '../source-day';
import { calendarDay, completeLines, csvFields, DayCollector, decimalText, decodeText } from './helpers';
import type { CentralBankAdapter, OfficialDay } from './official-day';
import { adapterFacts, PublisherFormatError, parseEach } from './official-day';

export const BOI_PUBLISHER = adapterFacts('boi');

export const BOI_BASE_URL = 'https://edge.boi.gov.il';
const NAME = BOI_PUBLISHER.name;

/** One request covers the whole range and every currency. */
export function boiRequests(from: string, to: string, origin = BOI_BASE_URL): string[] {
  return [
    `${origin}/FusionEdgeServer/sdmx/v2/data/dataflow/BOI.STATISTICS/EXR/1.0/` +
      `?c%5BDATA_TYPE%5D=OF00&endperiod=${to}&format=csv&startperiod=${from}`,
  ];
}

const COLUMNS = [
  'SERIES_CODE',
  'FREQ',
  'BASE_CURRENCY',
  'COUNTER_CURRENCY',
  'DATA_TYPE',
  'UNIT_MULT',
  'TIME_PERIOD',
  'OBS_VALUE',
] as const;
type Column = (typeof COLUMNS)[number];
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Parses the SDMX CSV. A row with an empty `OBS_VALUE` is an observation not made and is skipped; a day whose
 * every row is empty, a missing column, another counter currency, data type or frequency, a bad multiplier,
 * number or date, or a currency twice on one day rejects the body.
 */
export function parseBoi(body: Uint8Array): OfficialDay[] {
  const lines = completeLines(NAME, decodeText(NAME, body));
  const header = csvFields(NAME, lines[0] ?? '');
  const index = {} as Record<Column, number>;
  for (const column of COLUMNS) {
    index[column] = header.indexOf(column);
    if (index[column] === -1) throw new PublisherFormatError(NAME, `no ${column} column`);
  }
  const collector = new DayCollector(BOI_PUBLISHER);
  for (let row = 1; row < lines.length; row++) {
    const fields = csvFields(NAME, lines[row] as string);
    if (fields.length !== header.length) {
      throw new PublisherFormatError(NAME, `line ${row + 1} has ${fields.length} fields, expected ${header.length}`);
    }
    const get = (column: Column): string => fields[index[column]] as string;
    const code = get('BASE_CURRENCY');
    const expected = { FREQ: 'D', COUNTER_CURRENCY: 'ILS', DATA_TYPE: 'OF00', SERIES_CODE: `RER_${code}_ILS` };
    for (const [column, value] of Object.entries(expected)) {
      if (get(column as Column) !== value) {
        throw new PublisherFormatError(
          NAME,
          `line ${row + 1}: ${column} '${printableUpstream(get(column as Column))}'`,
        );
      }
    }
    const raw = get('TIME_PERIOD');
    const parts = DAY.exec(raw);
    if (!parts) throw new PublisherFormatError(NAME, `'${printableUpstream(raw)}' is not a day`);
    const date = calendarDay(NAME, parts[1] as string, parts[2] as string, parts[3] as string, raw);
    const multiplier = get('UNIT_MULT');
    if (!/^[0-6]$/.test(multiplier)) {
      throw new PublisherFormatError(NAME, `${code} on ${date}: UNIT_MULT '${printableUpstream(multiplier)}'`);
    }
    collector.open(date);
    if (get('OBS_VALUE') === '') continue;
    const price = decimalText(NAME, get('OBS_VALUE'), `${code} on ${date}`);
    collector.add(date, code, { amount: `1${'0'.repeat(Number(multiplier))}`, price });
  }
  return collector.days();
}

export const BOI: CentralBankAdapter = {
  id: 'boi',
  requests: boiRequests,
  parse: parseEach(parseBoi),
};
