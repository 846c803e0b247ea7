/**
 * What each run fetches from which source: the registry's fetchers (sources/registry.ts), with the URLs from the
 * environment. A fetcher fails as a whole only when its essential file fails; a failed optional file (the daily ECB
 * file beside the 90-day one, an older currency-api day) is a warning.
 */

import { SOURCES_ENV, type SourceId } from '../domain/rates';
import { DEFAULT_CROSS_CHECK_EXEMPT, DEFAULT_CROSS_CHECK_TOLERANCE } from '../domain/source-status';

export { parseSourceList } from '../domain/rates';

import { type Environment, optionalEnv } from '../env';
import { CURRENCY_API_DEFAULT_BASE_URL, CURRENCY_API_DEFAULT_FALLBACK_URL } from '../sources/currency-api';
import { ECB_DEFAULT_BASE_URL } from '../sources/ecb';
import { SOURCE_MODULES } from '../sources/registry';
import { CURRENCY_CODE } from '../sources/source-day';
import type { FetchPlan, SourceFetcher, SourceUrls } from '../sources/source-module';

export type { FetchPlan, IngestMode, SourceFetch, SourceFetcher, SourceUrls } from '../sources/source-module';

export const DEFAULT_SOURCE_URLS: SourceUrls = {
  ecbBaseUrl: ECB_DEFAULT_BASE_URL,
  currencyApiBaseUrl: CURRENCY_API_DEFAULT_BASE_URL,
  currencyApiFallbackUrl: CURRENCY_API_DEFAULT_FALLBACK_URL,
};

/** The environment variables of ingestion: the CDK stack sets them, the function and the local server read them. */
export const INGEST_ENV = {
  sources: SOURCES_ENV,
  ecbBaseUrl: 'ECB_BASE_URL',
  currencyApiBaseUrl: 'CURRENCY_API_BASE_URL',
  currencyApiFallbackUrl: 'CURRENCY_API_FALLBACK_URL',
  /** One origin every central bank is asked at instead of its own (a mirror or test server). */
  centralBankOrigin: 'CENTRAL_BANK_ORIGIN',
  /** The cross-check's tolerance as a fraction (0.05 = 5 %). */
  crossCheckTolerance: 'CROSS_CHECK_TOLERANCE',
  /** Currencies the cross-check's alarm does not count, comma-separated, or `none`. */
  crossCheckExempt: 'CROSS_CHECK_EXEMPT',
} as const satisfies Record<string, string>;

export function sourceUrlsFromEnv(): SourceUrls {
  return {
    ecbBaseUrl: optionalEnv(INGEST_ENV.ecbBaseUrl, DEFAULT_SOURCE_URLS.ecbBaseUrl),
    currencyApiBaseUrl: optionalEnv(INGEST_ENV.currencyApiBaseUrl, DEFAULT_SOURCE_URLS.currencyApiBaseUrl),
    currencyApiFallbackUrl: optionalEnv(INGEST_ENV.currencyApiFallbackUrl, DEFAULT_SOURCE_URLS.currencyApiFallbackUrl),
    ...(process.env[INGEST_ENV.centralBankOrigin]
      ? { centralBankOrigin: process.env[INGEST_ENV.centralBankOrigin] }
      : {}),
  };
}

/** The cross-check's tolerance from the environment; a value that is not a fraction in (0, 1] is refused. */
export function crossCheckToleranceFromEnv(env?: Environment): number {
  const text = optionalEnv(INGEST_ENV.crossCheckTolerance, String(DEFAULT_CROSS_CHECK_TOLERANCE), env);
  const value = Number(text);
  if (!(value > 0 && value <= 1)) {
    throw new Error(`${INGEST_ENV.crossCheckTolerance} must be a fraction above 0 and at most 1; got '${text}'`);
  }
  return value;
}

/** The exempt currencies: a comma-separated list of ISO codes, `none` for none; anything else is refused. */
export function parseCrossCheckExempt(text: string): string[] {
  if (text.trim() === 'none') return [];
  const codes = text.split(',').map((code) => code.trim());
  const wrong = codes.filter((code) => !CURRENCY_CODE.test(code));
  if (wrong.length > 0) {
    throw new Error(
      `${INGEST_ENV.crossCheckExempt} must be ISO currency codes separated by commas, or none; got '${text}'`,
    );
  }
  return [...new Set(codes)];
}

export function crossCheckExemptFromEnv(env?: Environment): string[] {
  return parseCrossCheckExempt(optionalEnv(INGEST_ENV.crossCheckExempt, DEFAULT_CROSS_CHECK_EXEMPT.join(','), env));
}

export function fetchersFor(ids: readonly SourceId[], plan: FetchPlan): SourceFetcher[] {
  return ids.map((id) => SOURCE_MODULES[id].fetcher(plan));
}
