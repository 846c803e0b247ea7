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
}

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
