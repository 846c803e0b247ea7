/**
 * What each source is, as the API reference and GET /v1/sources show it: its name, its publication schedule in
 * words and its facts. Apart from the calendar arithmetic (source-schedule.ts), so that `latest`, which computes
 * next_update_at, neither bundles these texts nor builds them at load.
 */
import { CENTRAL_BANK_IDS, type CentralBankId, PUBLISHERS, publisherSchedule } from './publishers';
import type { SourceId } from './rates';

/**
 * Each source's pure facts, as the API reference and GET /v1/sources show them; its fetcher, parser and bundled
 * data are in sources/registry.ts, apart, so the endpoints that read these bundle none of that code.
 */
export const SOURCE_SCHEDULES: Readonly<Record<SourceId, { name: string; schedule: string }>> = {
  ecb: {
    name: 'European Central Bank euro foreign exchange reference rates',
    schedule:
      'TARGET business days (not Saturdays, Sundays, 1 January, Good Friday, Easter Monday, 1 May, 25 and 26 ' +
      'December) around 16:00 CET (Europe/Berlin)',
  },
  'currency-api': {
    name: 'currency-api (fawazahmed0/exchange-api)',
    schedule: 'daily, at 00:00 UTC',
  },
  ...(Object.fromEntries(
    CENTRAL_BANK_IDS.map((id) => [id, { name: PUBLISHERS[id].name, schedule: publisherSchedule(id) }]),
  ) as Record<CentralBankId, { name: string; schedule: string }>),
};

/** What GET /v1/sources and the README say of a source beside its name and schedule. */
export interface SourceFacts {
  /** ISO 3166-1 alpha-2 of the publisher's country; null for the ECB, the IMF and the aggregator. */
  country: string | null;
  /** The kind of rate it publishes, in its own words. */
  rateKind: string;
  /** The currency its rates are quoted against. */
  currency: string;
  dataUrl: string;
  termsUrl: string | null;
}

export const SOURCE_FACTS: Readonly<Record<SourceId, SourceFacts>> = {
  // The euro area's central bank: no one country.
  ecb: {
    country: null,
    rateKind: 'euro foreign exchange reference rate',
    currency: 'EUR',
    dataUrl:
      'https://www.ecb.europa.eu/stats/policy_and_exchange_rates/euro_reference_exchange_rates/html/index.en.html',
    termsUrl: 'https://www.ecb.europa.eu/services/disclaimer/html/index.en.html',
  },
  // An aggregator that does not state its own sources; published under CC0, with no terms page of its own.
  'currency-api': {
    country: null,
    rateKind: 'aggregated rate (its sources not stated)',
    currency: 'EUR',
    dataUrl: 'https://github.com/fawazahmed0/exchange-api',
    termsUrl: null,
  },
  ...(Object.fromEntries(
    CENTRAL_BANK_IDS.map((id) => {
      const { country, rateKind, currency, dataUrl, termsUrl } = PUBLISHERS[id];
      return [id, { country, rateKind, currency, dataUrl, termsUrl }];
    }),
  ) as Record<CentralBankId, SourceFacts>),
};
