/** currency-api as ingestion, backfills and the bundled data see it. */
import { addDays } from '../domain/dates';
import { CURRENCY_API_FIRST_DAY, CurrencyApiSource } from './currency-api';
import { parseCurrencyApiJson } from './currency-api-json';
import { errorMessage, withUrl } from './errors';
import type { SourceDay } from './source-day';
import type { FetchPlan, SourceFetcher, SourceModule } from './source-module';

const DEFAULT_RECENT_DAYS = 3;

/** Online backfills fetch one file per day; without a first day they cover this many recent days. */
export const DEFAULT_CURRENCY_API_DAYS = 30;

function currencyApi(plan: FetchPlan): CurrencyApiSource {
  return new CurrencyApiSource({
    baseUrl: plan.urls.currencyApiBaseUrl,
    fallbackUrl: plan.urls.currencyApiFallbackUrl,
    timeoutMs: plan.timeoutMs,
    signal: plan.signal,
  });
}

/** `latest` must come; a failed older day is a warning. */
function currencyApiFetcher(plan: FetchPlan): SourceFetcher {
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
        else warnings.push(errorMessage(result.reason));
      }
      return { days: days.sort((a, b) => (a.date < b.date ? -1 : 1)), warnings };
    },
  };
}

/** Backfill: every currency-api day in `[from, to]` (clamped to its first day), a few requests at a time. */
function currencyApiRangeFetcher(plan: FetchPlan, from: string, to: string, concurrency = 6): SourceFetcher {
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
      return { days: days.sort((a, b) => (a.date < b.date ? -1 : 1)), warnings: failures.map(errorMessage) };
    },
  };
}

export const CURRENCY_API_MODULE: SourceModule = {
  id: 'currency-api',
  fetcher: currencyApiFetcher,
  backfill(plan, range) {
    const to = range.to && range.to < range.today ? range.to : range.today;
    return currencyApiRangeFetcher(plan, range.from ?? addDays(to, -(DEFAULT_CURRENCY_API_DAYS - 1)), to);
  },
  bundled: {
    key: 'currencyApi',
    dir: 'currency-api',
    file: /^eur-(\d{4}-\d{2}-\d{2})\.min\.json$/,
    parse: (file) =>
      withUrl(file.path, () => [parseCurrencyApiJson(file.text(), file.date ? { expectedDate: file.date } : {})]),
    label: 'currency-api',
    unit: 'days',
    note: '150+ currencies',
  },
};
