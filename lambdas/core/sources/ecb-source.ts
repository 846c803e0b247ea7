/** The ECB as ingestion, backfills and the bundled data see it. */

import { EcbSource } from './ecb';
import { parseEcbHistoryZip } from './ecb-csv';
import { errorMessage, SourceFormatError, withUrl } from './errors';
import type { SourceDay } from './source-day';
import type { FetchPlan, SourceFetcher, SourceModule } from './source-module';

/** A failed daily file beside a good 90-day file (or the reverse) is a warning; both failing fails the run. */
function ecbFetcher(plan: FetchPlan): SourceFetcher {
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
      const warnings = [window, daily].flatMap((r) => (r.status === 'rejected' ? [errorMessage(r.reason)] : []));
      return { days: [...byDate.values()].sort((a, b) => (a.date < b.date ? -1 : 1)), warnings };
    },
  };
}

export const ECB_MODULE: SourceModule = {
  id: 'ecb',
  fetcher: ecbFetcher,
  // The whole history is one file, so a range is the history cut to it.
  backfill(plan, range) {
    const history = ecbFetcher({ ...plan, mode: 'history' });
    const inRange = (date: string) => (!range.from || date >= range.from) && (!range.to || date <= range.to);
    return {
      id: 'ecb',
      fetch: async () => {
        const fetched = await history.fetch();
        return { ...fetched, days: fetched.days.filter((d) => inRange(d.date)) };
      },
    };
  },
  bundled: {
    key: 'ecb',
    dir: 'ecb',
    file: 'eurofxref-hist.zip',
    parse(file) {
      let zip: Uint8Array;
      try {
        zip = file.bytes();
      } catch (error) {
        throw new SourceFormatError(`bundled ECB history is unreadable: ${(error as Error).message}`);
      }
      return withUrl(file.path, () => parseEcbHistoryZip(zip));
    },
    label: 'ECB',
    unit: 'business days',
    note: 'about 30 currencies',
  },
};
