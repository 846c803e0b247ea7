/**
 * The official publishers beside the ECB: the facts GET /v1/sources and the API reference show, the currency each
 * one issues (which the rate rule ranks it first for), and when each publishes (PUBLICATION_WINDOWS). Pure data and
 * arithmetic, so the endpoints that show them bundle no adapter.
 */

export const CENTRAL_BANK_IDS = [
  'nbp',
  'cnb',
  'bnr',
  'boc',
  'boe',
  'rba',
  'boi',
  'nbu',
  'cbr',
  'tcmb',
  'bcb',
  'imf',
] as const;
export type CentralBankId = (typeof CENTRAL_BANK_IDS)[number];

export interface PublisherFacts {
  name: string;
  /** ISO 3166-1 alpha-2; null for an international body (the IMF). */
  country: string | null;
  /** What kind of rate it publishes, in its own words. */
  rateKind: string;
  /** The currency it quotes against, and issues (the IMF's is the US dollar, which it does not issue). */
  currency: string;
  /** Whether it is the issuing central bank of `currency`. */
  issuer: boolean;
  dataUrl: string;
  termsUrl: string | null;
  /** Which of its published rates the quotes are: a mid (average, reference, fixing) rate, or the selling rate. */
  quoteKind: 'mid' | 'buying' | 'selling';
  /** How often its main table appears; a publisher may add a weekly table (see `dailyCodes`). */
  cadence: 'daily' | 'weekly';
  /** Its first published day, `YYYY-MM-DD`. */
  coverageStart: string;
  /**
   * For a publisher with a daily table beside a weekly one (NBP's tables A and B): the codes of the daily table.
   * Its other codes are weekly, which the rate rule ranks after every daily quote. Absent: every code is daily.
   */
  dailyCodes?: readonly string[];
}

/** NBP's table A (daily), as published in March 2026; its table B (weekly) holds the other currencies. */
const NBP_TABLE_A = [
  'AUD',
  'BRL',
  'CAD',
  'CHF',
  'CLP',
  'CNY',
  'CZK',
  'DKK',
  'EUR',
  'GBP',
  'HKD',
  'HUF',
  'IDR',
  'ILS',
  'INR',
  'ISK',
  'JPY',
  'KRW',
  'MXN',
  'MYR',
  'NOK',
  'NZD',
  'PHP',
  'RON',
  'SEK',
  'SGD',
  'THB',
  'TRY',
  'UAH',
  'USD',
  'XDR',
  'ZAR',
] as const;

export const PUBLISHERS: Readonly<Record<CentralBankId, PublisherFacts>> = {
  nbp: {
    name: 'Narodowy Bank Polski',
    country: 'PL',
    rateKind: 'average rate (table A daily, table B weekly)',
    currency: 'PLN',
    issuer: true,
    dataUrl: 'https://nbp.pl/en/statistic-and-financial-reporting/rates/',
    termsUrl: null,
    quoteKind: 'mid',
    cadence: 'daily',
    coverageStart: '2002-01-02',
    dailyCodes: NBP_TABLE_A,
  },
  cnb: {
    name: 'Czech National Bank',
    country: 'CZ',
    rateKind: 'exchange rate fixing',
    currency: 'CZK',
    issuer: true,
    dataUrl: 'https://api.cnb.cz/cnbapi/swagger-ui.html',
    termsUrl: 'https://www.cnb.cz/en/footer/general-terms-and-conditions/',
    quoteKind: 'mid',
    cadence: 'daily',
    coverageStart: '1991-01-01',
  },
  bnr: {
    name: 'Banca Națională a României',
    country: 'RO',
    rateKind: 'reference rate',
    currency: 'RON',
    issuer: true,
    dataUrl: 'https://www.bnr.ro/en/561-exchange-rates',
    termsUrl: null,
    quoteKind: 'mid',
    cadence: 'daily',
    coverageStart: '2005-01-03',
  },
  boc: {
    name: 'Bank of Canada',
    country: 'CA',
    rateKind: 'indicative rate',
    currency: 'CAD',
    issuer: true,
    dataUrl: 'https://www.bankofcanada.ca/rates/exchange/daily-exchange-rates/',
    termsUrl: 'https://www.bankofcanada.ca/terms/',
    quoteKind: 'mid',
    cadence: 'daily',
    coverageStart: '2017-01-03',
  },
  boe: {
    name: 'Bank of England',
    country: 'GB',
    rateKind: 'spot rate',
    currency: 'GBP',
    issuer: true,
    dataUrl: 'https://www.bankofengland.co.uk/boeapps/database/Rates.asp?into=GBP',
    termsUrl: 'https://www.bankofengland.co.uk/legal',
    quoteKind: 'mid',
    cadence: 'daily',
    coverageStart: '2000-01-04',
  },
  rba: {
    name: 'Reserve Bank of Australia',
    country: 'AU',
    rateKind: 'indicative rate at 4 pm Sydney',
    currency: 'AUD',
    issuer: true,
    dataUrl: 'https://www.rba.gov.au/statistics/frequency/exchange-rates.html',
    termsUrl: 'https://www.rba.gov.au/copyright/',
    quoteKind: 'mid',
    cadence: 'daily',
    coverageStart: '2023-01-03',
  },
  boi: {
    name: 'Bank of Israel',
    country: 'IL',
    rateKind: 'representative rate',
    currency: 'ILS',
    issuer: true,
    dataUrl: 'https://www.boi.org.il/en/economic-roles/statistics/foreign-exchange-market/exchange-rates/',
    termsUrl: 'https://www.boi.org.il/en/terms-of-use',
    quoteKind: 'mid',
    cadence: 'daily',
    coverageStart: '2000-01-01',
  },
  nbu: {
    name: 'Natsionalnyi Bank Ukrainy',
    country: 'UA',
    rateKind: 'official rate',
    currency: 'UAH',
    issuer: true,
    dataUrl: 'https://bank.gov.ua/en/markets/exchangerates',
    termsUrl: 'https://bank.gov.ua/en/useterms',
    quoteKind: 'mid',
    cadence: 'daily',
    coverageStart: '1999-01-04',
  },
  cbr: {
    name: 'Central Bank of Russia',
    country: 'RU',
    rateKind: 'official rate',
    currency: 'RUB',
    issuer: true,
    dataUrl: 'https://www.cbr.ru/eng/currency_base/daily/',
    termsUrl: 'https://www.cbr.ru/eng/user_agreement/',
    quoteKind: 'mid',
    cadence: 'daily',
    coverageStart: '1999-01-04',
  },
  tcmb: {
    name: 'Türkiye Cumhuriyet Merkez Bankası',
    country: 'TR',
    rateKind: 'indicative rate (mid of buying and selling)',
    currency: 'TRY',
    issuer: true,
    dataUrl: 'https://evds2.tcmb.gov.tr/',
    termsUrl: 'https://www.tcmb.gov.tr/wps/wcm/connect/EN/TCMB+EN/Bottom+Menu/Other/Disclaimer',
    quoteKind: 'mid',
    cadence: 'daily',
    coverageStart: '1996-04-16',
  },
  bcb: {
    name: 'Banco Central do Brasil',
    country: 'BR',
    rateKind: 'PTAX closing rate',
    currency: 'BRL',
    issuer: true,
    dataUrl: 'https://olinda.bcb.gov.br/olinda/servico/PTAX/versao/v1/odata/',
    termsUrl: null,
    quoteKind: 'selling',
    cadence: 'daily',
    coverageStart: '2000-01-01',
  },
  imf: {
    name: 'International Monetary Fund',
    country: null,
    rateKind: 'representative rate',
    currency: 'USD',
    issuer: false,
    dataUrl: 'https://www.imf.org/external/np/fin/ert/GUI/Pages/CountryDataBase.aspx',
    termsUrl: 'https://www.imf.org/en/about/copyright-and-terms',
    quoteKind: 'mid',
    cadence: 'daily',
    coverageStart: '2003-04-01',
  },
};

/**
 * Each publisher's publication window on weekdays, in whole UTC hours: the first hour it may publish, the last it
 * usually has. Apart from PUBLISHERS so that an endpoint that only needs the windows (latest, for when its rates
 * next change) bundles these numbers and not every publisher's names and links.
 */
export const PUBLICATION_WINDOWS: Readonly<Record<CentralBankId, readonly [first: number, last: number]>> = {
  nbp: [11, 13],
  cnb: [13, 15],
  bnr: [11, 13],
  boc: [20, 22],
  boe: [16, 18],
  rba: [5, 7],
  boi: [12, 14],
  nbu: [10, 12],
  cbr: [9, 11],
  tcmb: [12, 14],
  bcb: [16, 18],
  imf: [18, 20],
};

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** How GET /v1/sources words a publisher's schedule. */
export function publisherSchedule(id: CentralBankId): string {
  const [first, last] = PUBLICATION_WINDOWS[id];
  const hh = (hour: number) => `${String(hour).padStart(2, '0')}:00`;
  return `Monday to Friday, between ${hh(first)} and ${hh(last + 1)} UTC`;
}

/**
 * The start of the publisher's next window strictly after `nowMs`, on a weekday. Its own holidays are not known
 * here: on one, the next update is simply later than announced.
 */
export function nextPublisherWindow(id: CentralBankId, nowMs: number): number {
  const [first] = PUBLICATION_WINDOWS[id];
  let day = Math.floor(nowMs / DAY_MS) * DAY_MS;
  for (let i = 0; i < 8; i++, day += DAY_MS) {
    const weekday = new Date(day).getUTCDay();
    if (weekday === 0 || weekday === 6) continue;
    const at = day + first * HOUR_MS;
    if (at > nowMs) return at;
  }
  throw new Error('no weekday within 8 days');
}

/** Its publication window as a UTC cron line (every half hour of the window, Monday to Friday). */
export function publisherCron(id: CentralBankId): string {
  const [first, last] = PUBLICATION_WINDOWS[id];
  return `*/30 ${first}-${last} * * 1-5`;
}

/** Whether `code` comes from the publisher's weekly table rather than its daily one. */
export function isWeeklyQuote(facts: PublisherFacts, code: string): boolean {
  if (facts.cadence === 'weekly') return true;
  return facts.dailyCodes !== undefined && !facts.dailyCodes.includes(code);
}

/**
 * When a publisher's day is taken to be published (ISO 8601 UTC): the start of its window on that date. Publishers
 * that set tomorrow's rate today (CBR, NBU) are stamped on the effective date, so a stamp can lie a day ahead.
 */
export function publisherPublishedAt(id: CentralBankId, date: string): string {
  return `${date}T${String(PUBLICATION_WINDOWS[id][0]).padStart(2, '0')}:00:00Z`;
}
