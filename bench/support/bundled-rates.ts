import { reconcile } from '../../lambdas/core/ingest/reconcile';
import { SERIES_VERSION, seriesOfDays } from '../../lambdas/core/ingest/series';
import type { RatesStore } from '../../lambdas/core/store/rates-store';
import { bundledFiles, readBundledDays } from '../../local-server/bundled-data';

/** Windows of the bundled data the API tests read: the first ECB month, the Pro-window years, and currency-api. */
const WINDOWS = [
  { from: '1999-01-01', to: '1999-01-31' },
  { from: '2024-02-01', to: '2026-12-31' },
];

/** Loads real bundled data through the real parsers and merge into a fresh store (parsed once per process). */
let cached: ReturnType<typeof reconcile> | undefined;

export async function loadBundledRates({ store }: { store: RatesStore }): Promise<string> {
  if (!cached) {
    const files = bundledFiles();
    const fetched = WINDOWS.flatMap((window) => {
      const days = readBundledDays(files, window);
      return [...days.ecb, ...days.currencyApi];
    });
    cached = reconcile({ fetched, stored: new Map(), today: '2026-09-30' });
  }
  await store.putDays(cached.writes);
  // The store is new: its time series items are exactly the series of these days.
  await store.putSeries(seriesOfDays(cached.writes));
  await store.recordSeriesRebuild(SERIES_VERSION, '2026-09-30T00:00:00Z', 0);
  if (cached.latest) await store.putLatest(cached.latest);
  return `bundled test windows (${cached.writes.length} days)`;
}
