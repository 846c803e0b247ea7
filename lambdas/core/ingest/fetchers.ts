/**
 * What each run fetches from which source. A fetcher fails as a whole only when its essential file fails;
 * a failed optional file (the daily ECB file beside the 90-day one, an older currency-api day) is a warning.
 */

import { addDays } from '../domain/dates';
import { SOURCES_ENV, type SourceId } from '../domain/rates';

export { parseSourceList } from '../domain/rates';

import { optionalEnv } from '../env';
import {
  CURRENCY_API_DEFAULT_BASE_URL,
  CURRENCY_API_DEFAULT_FALLBACK_URL,
  CURRENCY_API_FIRST_DAY,
  CurrencyApiSource,
} from '../sources/currency-api';
import { ECB_DEFAULT_BASE_URL, EcbSource } from '../sources/ecb';
import type { SourceDay } from '../sources/source-day';

export interface SourceFetch {
  days: SourceDay[];
  warnings: string[];
}

export interface SourceFetcher {
  id: SourceId;
  fetch(): Promise<SourceFetch>;
}

export interface SourceUrls {
  ecbBaseUrl: string;
  currencyApiBaseUrl: string;
  /** A template with `{date}` (a day or `latest`). */
  currencyApiFallbackUrl: string;
}

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
} as const satisfies Record<string, string>;

export function sourceUrlsFromEnv(): SourceUrls {
  return {
    ecbBaseUrl: optionalEnv(INGEST_ENV.ecbBaseUrl, DEFAULT_SOURCE_URLS.ecbBaseUrl),
    currencyApiBaseUrl: optionalEnv(INGEST_ENV.currencyApiBaseUrl, DEFAULT_SOURCE_URLS.currencyApiBaseUrl),
    currencyApiFallbackUrl: optionalEnv(INGEST_ENV.currencyApiFallbackUrl, DEFAULT_SOURCE_URLS.currencyApiFallbackUrl),
  };
}

/** `scheduled`: ECB daily + 90-day XML, currency-api latest + recent days. `history`: the ECB zip instead. */
export type IngestMode = 'scheduled' | 'history';

export interface FetchPlan {
  urls: SourceUrls;
  timeoutMs: number;
  mode: IngestMode;
  /** currency-api days before `latest` to fetch too, so a missed run is caught up. */
  recentDays?: number;
  signal?: AbortSignal;
}

export const DEFAULT_RECENT_DAYS = 3;

const reason = (result: PromiseSettledResult<unknown>): string =>
  result.status === 'rejected' ? String((result.reason as Error)?.message ?? result.reason) : '';

export function ecbFetcher(plan: FetchPlan): SourceFetcher {
  const ecb = new EcbSource({ baseUrl: plan.urls.ecbBaseUrl, timeoutMs: plan.timeoutMs, signal: plan.signal });
  return {
    id: 'ecb',
    async fetch() {
      if (plan.mode === 'history') return { days: await ecb.history(), warnings: [] };
      const [window, daily] = await Promise.allSettled([ecb.last90Days(), ecb.daily()]);
      if (window.status === 'rejected' && daily.status === 'rejected') {
        throw window.reason;
      }
      const byDate = new Map<string, SourceDay>();
      for (const result of [window, daily]) {
        if (result.status === 'fulfilled') for (const day of result.value) byDate.set(day.date, day);
      }
      const warnings = [window, daily].filter((r) => r.status === 'rejected').map(reason);
      return { days: [...byDate.values()].sort((a, b) => (a.date < b.date ? -1 : 1)), warnings };
    },
  };
}

function currencyApi(plan: FetchPlan): CurrencyApiSource {
  return new CurrencyApiSource({
    baseUrl: plan.urls.currencyApiBaseUrl,
    fallbackUrl: plan.urls.currencyApiFallbackUrl,
    timeoutMs: plan.timeoutMs,
    signal: plan.signal,
  });
}

export function currencyApiFetcher(plan: FetchPlan): SourceFetcher {
  const source = currencyApi(plan);
  return {
    id: 'currency-api',
    async fetch() {
      const latest = await source.day('latest');
      const recent = plan.recentDays ?? DEFAULT_RECENT_DAYS;
      const dates = Array.from({ length: recent }, (_, i) => addDays(latest.date, -(i + 1)));
      const results = await Promise.allSettled(dates.map((date) => source.day(date)));
      const days = [latest];
      const warnings: string[] = [];
      for (const result of results) {
        if (result.status === 'fulfilled') days.push(result.value);
        else warnings.push(reason(result));
      }
      return { days: days.sort((a, b) => (a.date < b.date ? -1 : 1)), warnings };
    },
  };
}

/** Backfill: every currency-api day in `[from, to]` (clamped to its first day), a few requests at a time. */
export function currencyApiRangeFetcher(plan: FetchPlan, from: string, to: string, concurrency = 6): SourceFetcher {
  const source = currencyApi(plan);
  return {
    id: 'currency-api',
    async fetch() {
      const dates: string[] = [];
      for (let d = from < CURRENCY_API_FIRST_DAY ? CURRENCY_API_FIRST_DAY : from; d <= to; d = addDays(d, 1)) {
        dates.push(d);
      }
      const days: SourceDay[] = [];
      const failures: unknown[] = [];
      let next = 0;
      const worker = async () => {
        while (next < dates.length) {
          const date = dates[next++] as string;
          try {
            days.push(await source.day(date));
          } catch (error) {
            failures.push(error);
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(concurrency, dates.length) }, worker));
      if (days.length === 0 && failures.length > 0) throw failures[0];
      const warnings = failures.map((error) => String((error as Error)?.message ?? error));
      return { days: days.sort((a, b) => (a.date < b.date ? -1 : 1)), warnings };
    },
  };
}

export function fetchersFor(ids: readonly SourceId[], plan: FetchPlan): SourceFetcher[] {
  return ids.map((id) => (id === 'ecb' ? ecbFetcher(plan) : currencyApiFetcher(plan)));
}
