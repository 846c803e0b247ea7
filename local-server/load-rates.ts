/**
 * Rates for the local server (`npm start`): the bundled history always (skipped when already loaded), then the
 * live sources when asked and reachable within a short overall budget, so an offline start stays quick.
 */
import { createHash } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { type Clock, formatTimestamp, systemClock } from '../lambdas/core/domain/dates';
import { SOURCE_IDS, type SourceId } from '../lambdas/core/domain/rates';
import {
  DEFAULT_CROSS_CHECK_EXEMPT,
  DEFAULT_CROSS_CHECK_TOLERANCE,
  statusOfDelivery,
} from '../lambdas/core/domain/source-status';
import { fetchersFor, type SourceUrls, sourceUrlsFromEnv } from '../lambdas/core/ingest/fetchers';
import {
  acceptedDays,
  type IngestLog,
  type IngestResult,
  ingestDays,
  type LatestSummary,
  runIngestion,
  silentLog,
} from '../lambdas/core/ingest/ingest';
import { ensureSeries, type SeriesBackfillResult } from '../lambdas/core/ingest/series';
import { SOURCE_MODULES } from '../lambdas/core/sources/registry';
import { RatesStore } from '../lambdas/core/store/rates-store';
import {
  type BundledDays,
  type BundledFiles,
  bundledFiles,
  bundledFingerprint,
  readBundledDays,
  readBundledSource,
} from './bundled-data';
import { type BundledCoverage, readBundledMarker, type SourceCoverage, writeBundledMarker } from './load-marker';
import { type MergeSettings, mergeSettings } from './serve-env';

/** Overall budget for the live attempt: every live fetch of the start shares it. */
export const DEFAULT_LOCAL_LIVE_TIMEOUT_MS = 3000;

export interface LocalLoadOptions {
  client: DynamoDBDocumentClient;
  tableName: string;
  /** Try the live sources after the bundled data. */
  live: boolean;
  timeoutMs?: number;
  log?: IngestLog;
  /** The bundled data folder; the repository's `data/` by default. */
  dataDir?: string;
  /** Live source URLs; from the environment (ECB_BASE_URL, ...) by default. */
  urls?: SourceUrls;
  /**
   * The configured sources, highest precedence first, as the ingest function reads SOURCES: only their bundled days
   * are loaded and only they are fetched, merged in this order. Every source, in the default order, when absent.
   */
  sources?: readonly SourceId[];
  /** The cross-check's tolerance and exempt currencies, as the ingest function takes them; its defaults when absent. */
  crossCheckTolerance?: number;
  crossCheckExempt?: readonly string[];
  clock?: Clock;
}

export interface LocalLoadResult {
  /** `live` when at least one live source delivered; otherwise the bundled data is what is served. */
  used: 'live' | 'bundled';
  bundled: {
    /** False when the same bundled data had been loaded before (a restart). */
    loaded: boolean;
    daysWritten: number;
    rejections: number;
    /** The days the bundled data covers; absent after a restart over a store loaded before this was kept. */
    coverage?: BundledCoverage;
  };
  live?: Pick<IngestResult, 'status' | 'daysWritten' | 'sources'>;
  /** The time series items, when this start rebuilt them (a store loaded by a version without them). */
  seriesBackfill?: SeriesBackfillResult;
  /** Items written in total (days and LATEST). */
  itemsWritten: number;
  latest?: LatestSummary;
  durationMs: number;
}

function sourceCoverage(days: readonly { date: string }[]): SourceCoverage | undefined {
  if (days.length === 0) return undefined;
  const dates = days.map((d) => d.date).sort();
  return { first: dates[0] as string, last: dates.at(-1) as string, days: dates.length };
}

/** Which days each source's bundled data has: the history the local server can answer without the network. */
export function coverageOf(bundled: BundledDays, sources: readonly SourceId[] = SOURCE_IDS): BundledCoverage {
  const coverage: BundledCoverage = {};
  for (const id of sources) {
    const key = SOURCE_MODULES[id].bundled.key;
    const span = sourceCoverage(bundled[key]);
    if (span) coverage[key] = span;
  }
  return coverage;
}

/**
 * A store loaded before the sources' status existed has none: on a restart its bundled load is recorded from the
 * bundled files' last day of each source (the marker's coverage), read again, so the status says what a fresh load
 * says: that day, its publication and every code the source delivered for it. Nothing is read when the status is
 * there already; a status from a real fetch is never replaced.
 */
async function recordBundledStatusFromCoverage(
  store: RatesStore,
  files: BundledFiles,
  coverage: BundledCoverage,
): Promise<void> {
  const statuses = await store.getSourceStatuses();
  for (const source of SOURCE_IDS) {
    const last = coverage[SOURCE_MODULES[source].bundled.key]?.last;
    if (statuses[source] || !last) continue;
    const status = statusOfDelivery(readBundledSource(files, source, { from: last, to: last }), 'bundled', null);
    if (status) await store.recordSourceStatus(source, status, { keepUpstream: true });
  }
}

/**
 * The settings are part of what was loaded: a start with other sources, another order or another cross-check loads
 * the bundled days again under them, as a deployment's backfill would after the same change. The defaults add
 * nothing, so a store loaded before the settings were read is not loaded again for them.
 */
function settingsMark(merge: MergeSettings): string {
  const settings = JSON.stringify([merge.order, merge.crossCheckTolerance, merge.crossCheckExempt]);
  const defaults = JSON.stringify([SOURCE_IDS, DEFAULT_CROSS_CHECK_TOLERANCE, DEFAULT_CROSS_CHECK_EXEMPT]);
  return settings === defaults ? '' : `:${createHash('sha256').update(settings).digest('hex').slice(0, 16)}`;
}

export async function loadRatesForLocal(options: LocalLoadOptions): Promise<LocalLoadResult> {
  const started = Date.now();
  const log = options.log ?? silentLog;
  const clock = options.clock ?? systemClock;
  const store = new RatesStore(options.client, options.tableName);
  const files = bundledFiles(options.dataDir);
  const sources = options.sources ?? SOURCE_IDS;
  const merge = mergeSettings({
    sources,
    crossCheckTolerance: options.crossCheckTolerance ?? DEFAULT_CROSS_CHECK_TOLERANCE,
    crossCheckExempt: options.crossCheckExempt ?? DEFAULT_CROSS_CHECK_EXEMPT,
  });
  const fingerprint = bundledFingerprint(files) + settingsMark(merge);
  const result: LocalLoadResult = {
    used: 'bundled',
    bundled: { loaded: false, daysWritten: 0, rejections: 0 },
    itemsWritten: 0,
    durationMs: 0,
  };
  let latest: LatestSummary | undefined;
  const marker = await readBundledMarker(options.client, options.tableName);
  // Before anything is loaded: a store written by an earlier version gets its time series items rebuilt.
  // The data directory's lock lets no other writer in: a run still counted in at start has stopped.
  const seriesBackfill = await ensureSeries(store, { clock, log, staleRunMs: 0 });
  if (seriesBackfill) result.seriesBackfill = seriesBackfill;
  if (marker?.fingerprint === fingerprint) {
    if (marker.coverage) {
      result.bundled.coverage = marker.coverage;
      await recordBundledStatusFromCoverage(store, files, marker.coverage);
    }
  } else {
    const bundled = readBundledDays(files);
    const coverage = coverageOf(bundled, sources);
    const daysOf = (id: SourceId) => bundled[SOURCE_MODULES[id].bundled.key];
    const reports = Object.fromEntries(
      sources.map((id) => [id, { status: 'ok' as const, days: daysOf(id).length, warnings: [] }]),
    );
    const ingested = await ingestDays(store, { days: sources.flatMap(daysOf), reports, clock, log, ...merge });
    // Said as it is: these rates came from the repository's files, not from a fetch by this server. A status a live
    // fetch recorded before is kept.
    for (const source of sources) {
      const status = statusOfDelivery(acceptedDays(daysOf(source), ingested.rejections), 'bundled', null);
      const crossCheck = ingested.crossChecks[source];
      if (status)
        await store.recordSourceStatus(source, crossCheck ? { ...status, crossCheck } : status, { keepUpstream: true });
    }
    await writeBundledMarker(options.client, options.tableName, { fingerprint, coverage }, formatTimestamp(clock()));
    result.bundled = {
      loaded: true,
      daysWritten: ingested.daysWritten,
      rejections: ingested.rejections.length,
      coverage,
    };
    result.itemsWritten += ingested.itemsWritten;
    latest = ingested.latest;
  }
  if (options.live) {
    const timeoutMs = options.timeoutMs ?? DEFAULT_LOCAL_LIVE_TIMEOUT_MS;
    const deadline = AbortSignal.timeout(timeoutMs);
    // Every source's fetches listen to this one deadline at once, more than the 10 over which Node prints a leak
    // warning; each listener is removed when its fetch ends (sources/http.ts).
    setMaxListeners(0, deadline);
    const fetchers = fetchersFor(sources, {
      urls: options.urls ?? sourceUrlsFromEnv(),
      timeoutMs,
      mode: 'scheduled',
      signal: deadline,
    });
    const live = await runIngestion({ store, fetchers, clock, log, ...merge });
    result.live = { status: live.status, daysWritten: live.daysWritten, sources: live.sources };
    result.itemsWritten += live.itemsWritten;
    if (live.status !== 'failed') result.used = 'live';
    latest = live.latest;
  }
  if (!latest) {
    const stored = await store.getLatest();
    latest = stored && {
      date: stored.date,
      publishedAt: stored.publishedAt,
      currencies: Object.keys(stored.rates).length,
    };
  }
  if (latest) result.latest = latest;
  result.durationMs = Date.now() - started;
  return result;
}
