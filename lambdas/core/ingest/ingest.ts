/**
 * The ingestion service: fetch every configured source, merge, validate, compare with what is stored and write
 * only what changed. A second identical run writes nothing; a source that is down leaves a partial run fed by
 * the others.
 */
import { type Clock, formatDay, formatTimestamp, systemClock } from '../domain/dates';
import type { SourceId } from '../domain/rates';
import {
  type CrossCheckSummary,
  crossCheckSources,
  DEFAULT_CROSS_CHECK_EXEMPT,
  DEFAULT_CROSS_CHECK_TOLERANCE,
  statusOfDelivery,
} from '../domain/source-status';
import type { SourceDay } from '../sources/source-day';
import type { RatesStore } from '../store/rates-store';
import type { SourceFetcher } from './fetchers';
import { newestDate } from './merge';
import { datesToRead, reconcile } from './reconcile';
import { maintainSeries, planSeries, unreadDaysOfBulkYears } from './series';
import type { Rejection } from './validate';

/** The subset of a logger ingestion uses; Powertools Logger and a console adapter both fit. */
export interface IngestLog {
  info(message: string, details?: Record<string, unknown>): void;
  warn(message: string, details?: Record<string, unknown>): void;
}

export const silentLog: IngestLog = { info: () => {}, warn: () => {} };

export interface SourceReport {
  status: 'ok' | 'failed';
  /** Days the source delivered in this run. */
  days: number;
  newest?: string;
  /** Why the source failed (status `failed`). */
  error?: string;
  /** Optional files that failed while the source still delivered. */
  warnings: string[];
}

export interface LatestSummary {
  date: string;
  publishedAt: string;
  /** Codes in LATEST, EUR included. */
  currencies: number;
}

export interface IngestResult {
  /** `partial`: at least one source failed and at least one delivered. `failed`: none delivered. */
  status: 'ok' | 'partial' | 'failed';
  daysWritten: number;
  daysUnchanged: number;
  latestWritten: boolean;
  /** Items written: days plus LATEST. */
  itemsWritten: number;
  /** Writes that kept the time series items in step: UpdateItem calls plus whole items put (ingest/series.ts). */
  seriesWrites: number;
  rejections: Rejection[];
  sources: Partial<Record<SourceId, SourceReport>>;
  /** Each delivering source's newest day against the rates served that day (domain/source-status.ts). */
  crossChecks: Partial<Record<SourceId, CrossCheckSummary>>;
  /** LATEST after the run (written now or before); undefined while nothing was ever ingested. */
  latest?: LatestSummary;
  durationMs: number;
}

export interface IngestDaysOptions {
  /** Days per source; a source listed here with no days, or missing from `reports`, is treated as delivered. */
  days: readonly SourceDay[];
  reports: Partial<Record<SourceId, SourceReport>>;
  clock?: Clock;
  log?: IngestLog;
  /** The configured sources, highest precedence first; the default order when absent. */
  order?: readonly SourceId[];
  /** The cross-check's tolerance as a fraction (0.05 = 5 %); DEFAULT_CROSS_CHECK_TOLERANCE when absent. */
  crossCheckTolerance?: number;
  /** Currencies whose over-tolerance quotes the alarm does not count; DEFAULT_CROSS_CHECK_EXEMPT when absent. */
  crossCheckExempt?: readonly string[];
}

function summarize(latest: { date: string; publishedAt: string; rates: object } | undefined) {
  return latest
    ? { date: latest.date, publishedAt: latest.publishedAt, currencies: Object.keys(latest.rates).length }
    : undefined;
}

function statusOf(reports: Partial<Record<SourceId, SourceReport>>): IngestResult['status'] {
  const all = Object.values(reports);
  const ok = all.filter((r) => r.status === 'ok').length;
  if (ok === 0) return 'failed';
  return ok === all.length ? 'ok' : 'partial';
}

/** Reconciles already fetched (or bundled) days with the store and writes what changed. */
export async function ingestDays(store: RatesStore, options: IngestDaysOptions): Promise<IngestResult> {
  const started = Date.now();
  const clock = options.clock ?? systemClock;
  const log = options.log ?? silentLog;
  const today = formatDay(clock());
  const storedLatest = await store.getLatest();
  const read = datesToRead(
    options.days.map((d) => d.date),
    storedLatest?.date,
    today,
  );
  const stored = await store.getDays(read);
  const plan = reconcile({
    fetched: options.days,
    stored,
    storedLatest,
    today,
    ...(options.order ? { order: options.order } : {}),
  });
  let seriesWrites = 0;
  if (plan.writes.length > 0) {
    // The count covers the gap between the day writes and the series writes: a run that stops there leaves it above
    // 0, and the next start rebuilds the series (backfillSeries) rather than miss those days for good.
    await store.beginSeriesRun(formatTimestamp(clock()));
    // A year with many new days (a bulk load) is read whole, so its series items are written whole, in batches,
    // rather than with an UpdateItem per currency.
    const extra = unreadDaysOfBulkYears(plan.writes, read, today);
    const known = extra.length > 0 ? new Map([...stored, ...(await store.getDays(extra))]) : stored;
    const series = planSeries({ writes: plan.writes, stored: known, read: [...read, ...extra], today });
    // The day and series writes may interleave (the mark covers a stop in between); both precede LATEST, so a time
    // series never lacks a day that LATEST has announced.
    const [, written] = await Promise.all([store.putDays(plan.writes), maintainSeries(store, series)]);
    seriesWrites = written;
    await store.endSeriesRun();
  }
  // LATEST goes last: it never names a day that is not stored yet.
  if (plan.latest) await store.putLatest(plan.latest);
  for (const rejection of plan.rejections) log.warn('rates rejected', { ...rejection });
  const written = new Map(plan.writes.map((w) => [w.date, w]));
  const exempt = new Set(options.crossCheckExempt ?? DEFAULT_CROSS_CHECK_EXEMPT);
  const crossChecked = crossCheckSources(
    acceptedDays(options.days, plan.rejections),
    (date) => written.get(date) ?? stored.get(date),
    options.crossCheckTolerance ?? DEFAULT_CROSS_CHECK_TOLERANCE,
    exempt,
  );
  for (const check of crossChecked.over) {
    const percent = (check.spread * 100).toFixed(2);
    const served = `${check.servedBy}'s served rate on ${crossChecked.summaries[check.source as SourceId]?.date}`;
    log.warn(`cross-check over tolerance: ${check.code} from ${check.source} is ${percent} % off ${served}`, {
      ...check,
      exempt: exempt.has(check.code),
    });
  }
  const result: IngestResult = {
    status: statusOf(options.reports),
    daysWritten: plan.writes.length,
    daysUnchanged: plan.unchanged,
    latestWritten: plan.latest !== undefined,
    itemsWritten: plan.writes.length + (plan.latest ? 1 : 0),
    seriesWrites,
    rejections: plan.rejections,
    sources: options.reports,
    crossChecks: crossChecked.summaries,
    latest: summarize(plan.finalLatest),
    durationMs: Date.now() - started,
  };
  log.info('ingestion finished', {
    status: result.status,
    daysWritten: result.daysWritten,
    daysUnchanged: result.daysUnchanged,
    latestWritten: result.latestWritten,
    rejections: result.rejections.length,
    latest: result.latest,
    contributing: plan.contributing,
    sources: result.sources,
  });
  return result;
}

export interface RunIngestionOptions {
  store: RatesStore;
  fetchers: readonly SourceFetcher[];
  clock?: Clock;
  log?: IngestLog;
  /** The configured sources, highest precedence first; the default order when absent. */
  order?: readonly SourceId[];
  crossCheckTolerance?: number;
  crossCheckExempt?: readonly string[];
}

/**
 * The delivered days ingestion did not reject: a source's status names its newest day the store holds, never a day
 * refused for a jump, a future date or a failed check.
 */
export function acceptedDays<D extends { date: string; source: SourceId }>(
  days: readonly D[],
  rejections: readonly Rejection[],
): D[] {
  return days.filter(
    (day) =>
      !rejections.some(
        (rejection) =>
          rejection.date === day.date && (rejection.source === undefined || rejection.source === day.source),
      ),
  );
}

/** Fetches all sources concurrently, then ingests whatever arrived. */
export async function runIngestion(options: RunIngestionOptions): Promise<IngestResult> {
  const started = Date.now();
  const log = options.log ?? silentLog;
  const fetchedAt = formatTimestamp((options.clock ?? systemClock)());
  const settled = await Promise.allSettled(options.fetchers.map((f) => f.fetch()));
  const reports: Partial<Record<SourceId, SourceReport>> = {};
  const days: SourceDay[] = [];
  const delivered = new Map<SourceId, readonly SourceDay[]>();
  settled.forEach((outcome, i) => {
    const id = (options.fetchers[i] as SourceFetcher).id;
    if (outcome.status === 'rejected') {
      const error = String((outcome.reason as Error)?.message ?? outcome.reason);
      reports[id] = { status: 'failed', days: 0, error, warnings: [] };
      log.warn('source failed', { source: id, error });
      return;
    }
    const { days: sourceDays, warnings } = outcome.value;
    days.push(...sourceDays);
    delivered.set(id, sourceDays);
    const newest = newestDate(sourceDays.map((d) => d.date));
    reports[id] = { status: 'ok', days: sourceDays.length, ...(newest ? { newest } : {}), warnings };
    for (const warning of warnings) log.warn('source file failed', { source: id, error: warning });
  });
  if (statusOf(reports) === 'failed') {
    const latest = await options.store.getLatest();
    const result: IngestResult = {
      status: 'failed',
      daysWritten: 0,
      daysUnchanged: 0,
      latestWritten: false,
      itemsWritten: 0,
      seriesWrites: 0,
      rejections: [],
      sources: reports,
      crossChecks: {},
      latest: summarize(latest),
      durationMs: Date.now() - started,
    };
    log.warn('ingestion failed: no source delivered', { sources: reports });
    return result;
  }
  const result = await ingestDays(options.store, {
    days,
    reports,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.order ? { order: options.order } : {}),
    ...(options.crossCheckTolerance !== undefined ? { crossCheckTolerance: options.crossCheckTolerance } : {}),
    ...(options.crossCheckExempt ? { crossCheckExempt: options.crossCheckExempt } : {}),
    log,
  });
  // After the days and LATEST: GET /v1/sources then never names a day the store does not hold. Only sources that
  // delivered are recorded; a failed one keeps the status of its last success.
  for (const [source, sourceDays] of delivered) {
    const status = statusOfDelivery(acceptedDays(sourceDays, result.rejections), 'upstream', fetchedAt);
    const crossCheck = result.crossChecks[source];
    if (status) await options.store.recordSourceStatus(source, crossCheck ? { ...status, crossCheck } : status);
  }
  return { ...result, durationMs: Date.now() - started };
}
