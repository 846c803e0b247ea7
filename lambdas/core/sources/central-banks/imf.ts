/**
 * International Monetary Fund: the monthly reports of representative rates (`reportType=REP`, against the U.S.
 * dollar) and of SDR values (`reportType=SDRCV`, SDRs per currency unit), tab-separated. Each report is a title,
 * blocks of `Currency<TAB>Month DD, YYYY...` with one row per currency name and `NA` where a day has no rate, then
 * `Notes:`. In the REP report most rates are currency units per U.S. dollar; names marked `(1)` are U.S. dollars
 * per currency unit. Both directions are kept as published, never divided. The SDRCV report gives the days priced
 * in SDR (quote currency XDR), the dollar among them.
 */
import { printableUpstream } from '../source-day';
import { calendarDay, DayCollector, decimalText, decodeText } from './helpers';
import type { CentralBankAdapter, OfficialDay } from './official-day';
import { adapterFacts, PublisherFormatError, parseEach } from './official-day';

export const IMF_PUBLISHER = adapterFacts('imf');

export const IMF_BASE_URL = 'https://www.imf.org';
const NAME = IMF_PUBLISHER.name;
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** The IMF's currency names (lower case), as its reports write them. */
const CODES: Readonly<Record<string, string>> = {
  'algerian dinar': 'DZD',
  'australian dollar': 'AUD',
  'bahrain dinar': 'BHD',
  'botswana pula': 'BWP',
  'brazilian real': 'BRL',
  'brunei dollar': 'BND',
  'canadian dollar': 'CAD',
  'chilean peso': 'CLP',
  'chinese yuan': 'CNY',
  'colombian peso': 'COP',
  'czech koruna': 'CZK',
  'danish krone': 'DKK',
  euro: 'EUR',
  'hungarian forint': 'HUF',
  'icelandic krona': 'ISK',
  'indian rupee': 'INR',
  'indonesian rupiah': 'IDR',
  'iranian rial': 'IRR',
  'israeli new shekel': 'ILS',
  'japanese yen': 'JPY',
  'kazakhstani tenge': 'KZT',
  'korean won': 'KRW',
  'kuwaiti dinar': 'KWD',
  'libyan dinar': 'LYD',
  'malaysian ringgit': 'MYR',
  'mauritian rupee': 'MUR',
  'mexican peso': 'MXN',
  'nepalese rupee': 'NPR',
  'new zealand dollar': 'NZD',
  'norwegian krone': 'NOK',
  'omani rial': 'OMR',
  'pakistani rupee': 'PKR',
  'peruvian sol': 'PEN',
  'philippine peso': 'PHP',
  'polish zloty': 'PLN',
  'qatari riyal': 'QAR',
  'russian ruble': 'RUB',
  'saudi arabian riyal': 'SAR',
  'singapore dollar': 'SGD',
  'south african rand': 'ZAR',
  'sri lankan rupee': 'LKR',
  'swedish krona': 'SEK',
  'swiss franc': 'CHF',
  'thai baht': 'THB',
  'trinidadian dollar': 'TTD',
  'tunisian dinar': 'TND',
  'u.a.e. dirham': 'AED',
  'u.k. pound': 'GBP',
  'u.s. dollar': 'USD',
  'uruguayan peso': 'UYU',
};

const lastOfMonth = (day: string): string => {
  const end = new Date(Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)), 0));
  return end.toISOString().slice(0, 10);
};

/** Two reports per month the range touches, each selected by the month's last day (or the range's end). */
export function imfRequests(from: string, to: string, origin = IMF_BASE_URL): string[] {
  const uris: string[] = [];
  for (let month = from.slice(0, 7); month <= to.slice(0, 7); ) {
    const end = lastOfMonth(`${month}-01`);
    const select = end < to ? end : to;
    for (const report of ['REP', 'SDRCV']) {
      uris.push(`${origin}/external/np/fin/data/rms_mth.aspx?SelectDate=${select}&reportType=${report}&tsvflag=Y`);
    }
    const next = new Date(`${end}T00:00:00Z`).getTime() + 86_400_000;
    month = new Date(next).toISOString().slice(0, 7);
  }
  return uris;
}

const REP_TITLE = /^Representative Exchange Rates for Selected Currencies for ([A-Z][a-z]+) (\d{4})$/;
const SDR_TITLE = /^SDRs per Currency unit for ([A-Z][a-z]+) (\d{4})$/;
const DATE = /^([A-Z][a-z]+) (\d{2}), (\d{4})$/;
const ROW_NAME = /^([A-Za-z. ]+?)(?:\((\d)\))?$/;
/** Units per dollar may carry thousands separators: `1,435.400000` won. */
const GROUPED = /^\d{1,3}(?:,\d{3})+(?:\.\d+)?$/;

function imfDay(text: string, month: string, year: string): string {
  const parts = DATE.exec(text);
  if (!parts || parts[1] !== month || parts[3] !== year) {
    throw new PublisherFormatError(NAME, `'${printableUpstream(text)}' is not a day of ${month} ${year}`);
  }
  return calendarDay(NAME, year, String(MONTHS.indexOf(month) + 1), parts[2] as string, text);
}

/**
 * Parses one REP or SDRCV report into its days. `NA` is a currency without a rate that day and is skipped; a
 * name the mapping does not know is a currency this adapter does not serve and is skipped too. Anything else
 * out of shape (a missing `Notes:` end, a short row, a bad number, an unknown footnote mark) rejects the body.
 */
export function parseImf(body: Uint8Array): OfficialDay[] {
  const lines = decodeText(NAME, body).split(/\r?\n/);
  const title = lines[0] ?? '';
  const heading = REP_TITLE.exec(title) ?? SDR_TITLE.exec(title);
  if (!heading || !MONTHS.includes(heading[1] as string)) {
    throw new PublisherFormatError(NAME, `not a rates report: '${printableUpstream(title)}'`);
  }
  const [, month, year] = heading as unknown as [string, string, string];
  const perDollar = REP_TITLE.test(title);
  const collector = new DayCollector(IMF_PUBLISHER, perDollar ? 'USD' : 'XDR');
  let row = 1;
  let blocks = 0;
  for (; row < lines.length; row++) {
    const line = lines[row] as string;
    if (line === '' || line === `${title} Continued`) continue;
    if (line === 'Notes:') break;
    const header = line.split('\t');
    if (header[0] !== 'Currency') throw new PublisherFormatError(NAME, `line ${row + 1} is not a block header`);
    const dates = header.slice(1).map((text) => imfDay(text, month, year));
    for (const date of dates) {
      if (collector.has(date)) throw new PublisherFormatError(NAME, `the day ${date} appears twice`);
      collector.open(date);
    }
    for (row += 1; row < lines.length && lines[row] !== ''; row++) {
      const fields = (lines[row] as string).split('\t');
      if (fields.length !== header.length) {
        throw new PublisherFormatError(NAME, `line ${row + 1} has ${fields.length} fields, expected ${header.length}`);
      }
      const name = ROW_NAME.exec(fields[0] as string);
      const mark = name?.[2];
      if (!name || (mark !== undefined && (mark !== '1' || !perDollar))) {
        throw new PublisherFormatError(NAME, `unexpected row '${printableUpstream(fields[0] as string)}'`);
      }
      const code = CODES[(name[1] as string).trim().toLowerCase()];
      dates.forEach((date, i) => {
        const raw = fields[i + 1] as string;
        if (raw === 'NA') return;
        const value = decimalText(NAME, GROUPED.test(raw) ? raw.replaceAll(',', '') : raw, `${name[1]} on ${date}`);
        if (code === undefined) return;
        if (perDollar && code === 'USD') {
          if (Number(value) !== 1) throw new PublisherFormatError(NAME, `the dollar is ${value} dollars on ${date}`);
          return;
        }
        const inverse = mark === '1' || !perDollar;
        collector.add(date, code, inverse ? { amount: '1', price: value } : { amount: value, price: '1' });
      });
    }
    blocks += 1;
  }
  if (blocks === 0) throw new PublisherFormatError(NAME, 'the report has no rates');
  if (row >= lines.length) throw new PublisherFormatError(NAME, 'the report ends before its notes (truncated?)');
  return collector.days();
}

export const IMF: CentralBankAdapter = {
  id: 'imf',
  requests: imfRequests,
  parse: parseEach(parseImf),
};
