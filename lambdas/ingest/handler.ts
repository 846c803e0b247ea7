/**
 * Scheduled ingestion (EventBridge): fetch the configured sources (or the event's `sources`, those whose
 * publication window just ended), merge, validate, write what changed, and emit freshness metrics. `{"mode": "history"}` fetches the ECB full-history zip instead of the 90-day file, so an
 * operator backfills a fresh deployment with one invocation. Before any run, the time series items are rebuilt
 * from the stored days when their marker asks for it (ingest/series.ts); `{"mode": "series"}` forces that rebuild.
 */

import { type Clock, formatDay, systemClock } from '../core/domain/dates';
import { SOURCE_IDS, type SourceId } from '../core/domain/rates';
import { countedOverTolerance } from '../core/domain/source-status';
import { optionalEnv, requireEnv } from '../core/env';
import {
  crossCheckExemptFromEnv,
  crossCheckToleranceFromEnv,
  fetchersFor,
  INGEST_ENV,
  type IngestMode,
  parseSourceList,
  sourceUrlsFromEnv,
} from '../core/ingest/fetchers';
import { type IngestLog, type IngestResult, runIngestion } from '../core/ingest/ingest';
import { ensureSeries, type SeriesBackfillResult } from '../core/ingest/series';
import { INGEST_METRICS, METRIC_DIMENSIONS, SERVICE_NAME } from '../core/metric-names';
import { Logger, Metrics, MetricUnit } from '../core/observability';
import { documentClient } from '../core/store/clients';
import { RatesStore } from '../core/store/rates-store';

const MODES = ['scheduled', 'history', 'series'] as const;

function eventMode(event: unknown): (typeof MODES)[number] {
  if (event === null || typeof event !== 'object') return 'scheduled';
  // An array has no mode to read and is refused, as a mode outside MODES is.
  const mode: unknown = Array.isArray(event) ? null : (event as { mode?: unknown }).mode;
  if (mode === undefined) return 'scheduled';
  if (!(MODES as readonly unknown[]).includes(mode)) {
    throw new Error('the ingestion event\'s "mode" must be "scheduled", "history" or "series"');
  }
  return mode as (typeof MODES)[number];
}

/** How the run fetches: `{"mode": "series"}` is a scheduled run after rebuilding the series items. */
export function ingestMode(event: unknown): IngestMode {
  const mode = eventMode(event);
  return mode === 'series' ? 'scheduled' : mode;
}

/**
 * The sources a run fetches: the event's `sources` (a schedule rule per publication window names the publishers
 * it is for), each of which must be configured, in the configured order; all configured sources when absent.
 */
export function eventSources(event: unknown, configured: readonly SourceId[]): SourceId[] {
  if (event === null || typeof event !== 'object' || !('sources' in event)) return [...configured];
  const raw: unknown = (event as { sources?: unknown }).sources;
  const listed = Array.isArray(raw) && raw.every((id) => typeof id === 'string') ? (raw as string[]) : undefined;
  if (!listed || listed.length === 0) {
    throw new Error('the ingestion event\'s "sources" must be a non-empty list of source ids');
  }
  const unknown = listed.filter((id) => !(configured as readonly string[]).includes(id));
  if (unknown.length > 0) {
    throw new Error(
      `the ingestion event names sources that are not configured: ${unknown.join(', ')} (configured: ${configured.join(', ')})`,
    );
  }
  return configured.filter((id) => listed.includes(id));
}

/** Whether the event asks to rebuild the time series items whatever their marker says (`{"mode": "series"}`). */
export function seriesRebuildRequested(event: unknown): boolean {
  return eventMode(event) === 'series';
}

/** Per-fetch budget: generous on AWS, where the function timeout bounds the run anyway. */
const DEFAULT_FETCH_TIMEOUT_MS = 10_000;

export interface IngestHandlerDeps {
  store: () => RatesStore;
  metrics: Metrics;
  logger: Logger;
  clock?: Clock;
}

/** Emits the run's figures; the dashboard and the ingestion alarms (heartbeat, staleness, currencies, sources) read them. */
export function publishIngestMetrics(metrics: Metrics, result: IngestResult, now: Date): void {
  for (const source of Object.keys(result.sources)) {
    metrics
      .singleMetric()
      .addDimension(METRIC_DIMENSIONS.source, source)
      .addMetric(
        INGEST_METRICS.sourceFailures,
        MetricUnit.Count,
        result.sources[source as keyof IngestResult['sources']]?.status === 'failed' ? 1 : 0,
      );
  }
  for (const [source, check] of Object.entries(result.crossChecks)) {
    metrics
      .singleMetric()
      .addDimension(METRIC_DIMENSIONS.source, source)
      .addMetric(INGEST_METRICS.crossCheckOverTolerance, MetricUnit.Count, countedOverTolerance(check));
  }
  metrics.addMetric(INGEST_METRICS.successfulRuns, MetricUnit.Count, result.status === 'failed' ? 0 : 1);
  metrics.addMetric(INGEST_METRICS.daysWritten, MetricUnit.Count, result.daysWritten);
  metrics.addMetric(INGEST_METRICS.rejections, MetricUnit.Count, result.rejections.length);
  if (result.latest) {
    const ageSeconds = Math.max(0, Math.round((now.getTime() - Date.parse(result.latest.publishedAt)) / 1000));
    metrics.addMetric(INGEST_METRICS.snapshotAgeSeconds, MetricUnit.Seconds, ageSeconds);
    metrics.addMetric(INGEST_METRICS.currenciesServed, MetricUnit.Count, result.latest.currencies);
  }
  metrics.publishStoredMetrics();
}

export function createIngestHandler(deps: IngestHandlerDeps) {
  const clock = deps.clock ?? systemClock;
  const log: IngestLog = {
    info: (message, details) => deps.logger.info(message, { ...details }),
    warn: (message, details) => deps.logger.warn(message, { ...details }),
  };
  return async (event: unknown): Promise<IngestResult & { seriesBackfill?: SeriesBackfillResult }> => {
    const mode = ingestMode(event);
    const store = deps.store();
    // The series items are rebuilt when asked, or when their marker says they lag the days (ingest/series.ts).
    const seriesBackfill = await ensureSeries(store, { clock, log, force: seriesRebuildRequested(event) });
    const configured = parseSourceList(optionalEnv(INGEST_ENV.sources, SOURCE_IDS.join(',')));
    const sources = eventSources(event, configured);
    const crossCheckTolerance = crossCheckToleranceFromEnv();
    const crossCheckExempt = crossCheckExemptFromEnv();
    const timeoutMs = Number(optionalEnv('FETCH_TIMEOUT_MS', String(DEFAULT_FETCH_TIMEOUT_MS)));
    if (!(timeoutMs > 0)) throw new Error('FETCH_TIMEOUT_MS must be a positive number of milliseconds');
    const fetchers = fetchersFor(sources, { urls: sourceUrlsFromEnv(), timeoutMs, mode, today: formatDay(clock()) });
    deps.logger.info('ingestion started', { mode, sources });
    // The whole configured list orders the merge, also when this run fetches only some of its sources.
    const result = await runIngestion({
      store,
      fetchers,
      clock,
      log,
      order: configured,
      crossCheckTolerance,
      crossCheckExempt,
    });
    publishIngestMetrics(deps.metrics, result, clock());
    // Failing the invocation lets EventBridge retry and, in the end, the dead-letter queue and alarm see it.
    if (result.status === 'failed') throw new Error('ingestion failed: no source delivered rates');
    return seriesBackfill ? { ...result, seriesBackfill } : result;
  };
}

let store: RatesStore | undefined;

export const handler = createIngestHandler({
  store: () => {
    store ??= new RatesStore(documentClient(), requireEnv('RATES_TABLE_NAME'));
    return store;
  },
  // The namespace comes from POWERTOOLS_METRICS_NAMESPACE, which the stack sets per stage (lib/stage.ts).
  metrics: new Metrics({ serviceName: SERVICE_NAME }),
  logger: new Logger({ serviceName: 'fxrates' }),
});
