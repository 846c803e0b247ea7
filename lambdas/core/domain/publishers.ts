/**
 * The official publishers beside the ECB: the facts GET /v1/sources and the API reference show, the currency each
 * one issues (which the rate rule ranks it first for), and when each publishes. Pure data and arithmetic, so the
 * endpoints that show them bundle no adapter.
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
  /** Its publication window on weekdays, in whole UTC hours: the first hour it may publish, the last it usually has. */
  window: readonly [first: number, last: number];
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
    window: [11, 13],
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
    window: [13, 15],
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
    window: [11, 13],
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
    window: [20, 22],
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
    window: [16, 18],
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
    window: [5, 7],
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
    window: [12, 14],
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
    window: [10, 12],
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
    window: [9, 11],
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
    window: [12, 14],
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
    window: [16, 18],
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
    window: [18, 20],
    quoteKind: 'mid',
    cadence: 'daily',
    coverageStart: '2003-04-01',
  },
};

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** How GET /v1/sources words a publisher's schedule. */
export function publisherSchedule(facts: PublisherFacts): string {
  const [first, last] = facts.window;
  const hh = (hour: number) => `${String(hour).padStart(2, '0')}:00`;
  return `Monday to Friday, between ${hh(first)} and ${hh(last + 1)} UTC`;
}

/**
 * The start of the publisher's next window strictly after `nowMs`, on a weekday. Its own holidays are not known
 * here: on one, the next update is simply later than announced.
 */
export function nextPublisherWindow(facts: PublisherFacts, nowMs: number): number {
  let day = Math.floor(nowMs / DAY_MS) * DAY_MS;
  for (let i = 0; i < 8; i++, day += DAY_MS) {
    const weekday = new Date(day).getUTCDay();
    if (weekday === 0 || weekday === 6) continue;
    const at = day + facts.window[0] * HOUR_MS;
    if (at > nowMs) return at;
  }
  throw new Error('no weekday within 8 days');
}

/** Its publication window as a UTC cron line (every half hour of the window, Monday to Friday). */
export function publisherCron(facts: PublisherFacts): string {
  return `*/30 ${facts.window[0]}-${facts.window[1]} * * 1-5`;
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
export function publisherPublishedAt(facts: PublisherFacts, date: string): string {
  return `${date}T${String(facts.window[0]).padStart(2, '0')}:00:00Z`;
}
