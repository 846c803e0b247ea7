import { readFileSync } from 'node:fs';
import { reconcile } from '../../lambdas/core/ingest/reconcile';
import { SERIES_VERSION, seriesOfDays } from '../../lambdas/core/ingest/series';
import type { RatesStore } from '../../lambdas/core/store/rates-store';
import { bundledFiles, readBundledDays } from '../../local-server/bundled-data';

/** Windows of the bundled data the API tests read: the first ECB month, the Pro-window years, and currency-api. */
const WINDOWS = [
  { from: '1999-01-01', to: '1999-01-31' },
  { from: '2024-02-01', to: '2026-12-31' },
];

type BundledWrites = ReturnType<typeof reconcile>;

/**
 * Where the integration tests' global setup left `bundledWrites()` as JSON, so that each test file reads it rather
 * than parsing the bundled files again (about 2 s per file under jest). Rates are plain numbers, which JSON keeps.
 */
export const BUNDLED_WRITES_FILE_ENV = 'FXRATES_TEST_BUNDLED_WRITES_FILE';

/** The days of the windows, read through the real parsers and merged as ingestion merges them into a new store. */
export function bundledWrites(): BundledWrites {
  const files = bundledFiles();
  const fetched = WINDOWS.flatMap((window) => {
    const days = readBundledDays(files, window);
    return [...days.ecb, ...days.currencyApi];
  });
  return reconcile({ fetched, stored: new Map(), today: '2026-09-30' });
}

function preparedWrites(): BundledWrites | undefined {
  const file = process.env[BUNDLED_WRITES_FILE_ENV];
  return file ? (JSON.parse(readFileSync(file, 'utf8')) as BundledWrites) : undefined;
}

/**
 * Loads real bundled data, read through the real parsers and merged, into a fresh store: parsed once per process, or
 * read from the integration tests' global setup when it left them.
 */
let cached: BundledWrites | undefined;

export async function loadBundledRates({ store }: { store: RatesStore }): Promise<string> {
  cached ??= preparedWrites() ?? bundledWrites();
  await store.putDays(cached.writes);
  // The store is new: its time series items are exactly the series of these days.
  await store.putSeries(seriesOfDays(cached.writes));
  await store.recordSeriesRebuild(SERIES_VERSION, '2026-09-30T00:00:00Z', 0);
  if (cached.latest) await store.putLatest(cached.latest);
  return `bundled test windows (${cached.writes.length} days)`;
}
