import { type Clock, daysBetween, formatDay } from '../domain/dates';
import { type RateSnapshot, SETTLED_AFTER_DAYS, sameSnapshot } from '../domain/rates';
import { type CurrencyYear, pairYear, type SeriesPoint } from '../domain/series';
import type { SourceStatuses } from '../domain/source-status';
import { LruCache } from './lru-cache';

/** Pairs' points kept per process: about 250 points a year each, so a few MB at most. */
export const PAIR_CACHE_SIZE = 512;

export interface SnapshotSource {
  getLatest(): Promise<RateSnapshot | undefined>;
  getDay(day: string): Promise<RateSnapshot | undefined>;
  /** Each source's last delivery (GET /v1/sources); a source without it has none to report. */
  getSourceStatuses?(): Promise<SourceStatuses>;
  /** One currency's series item of one calendar year (GET /v1/rates/timeseries); a source without it has none. */
  getSeries?(code: string, year: number): Promise<CurrencyYear | undefined>;
  /** The layout version of the series the table holds, as its marker records it. */
  getSeriesVersion?(): Promise<number | undefined>;
}

export interface RateReaderOptions {
  /** How long LATEST is served from memory before it is read again. */
  latestTtlMs?: number;
  /** Past days kept in memory (they are immutable once published). */
  dayCacheSize?: number;
  /** How long the absence of a day is remembered (a late source may still fill it). */
  missingDayTtlMs?: number;
  /** Series items (one currency, one year) kept in memory. */
  seriesCacheSize?: number;
}

/**
 * Serves snapshots to warm endpoint functions without a database read: LATEST for at most 60 s, past days in a
 * small LRU. Concurrent misses share one read. Values derived from a snapshot (per-base tables and their
 * serialized bodies) are memoized per snapshot object and go with it.
 */
export class RateReader {
  private latest?: { snapshot: RateSnapshot | undefined; expires: number };
  private readonly memos = new WeakMap<RateSnapshot, Map<string, unknown>>();
  private latestPending?: Promise<RateSnapshot | undefined>;
  private statuses?: { value: SourceStatuses; expires: number };
  private statusesPending?: Promise<SourceStatuses>;
  private readonly days: LruCache<RateSnapshot | undefined>;
  private readonly dayPending = new Map<string, Promise<RateSnapshot | undefined>>();
  private readonly series: LruCache<CurrencyYear | undefined>;
  private readonly seriesPending = new Map<string, Promise<CurrencyYear | undefined>>();
  /**
   * A pair's points per year: each entry remembers the two year items it was computed from, so a refreshed item of
   * either makes them be computed anew. Bounded by count, not by the items' lifetimes: an item that left the series
   * cache must not keep every pair it ever took part in alive.
   */
  private readonly pairs = new LruCache<{ from: CurrencyYear; to: CurrencyYear; points: SeriesPoint[] }>(
    PAIR_CACHE_SIZE,
  );
  private seriesBuilt = false;
  private seriesMarkerChecked?: number;
  private seriesVersionPending?: Promise<number | undefined>;
  private readonly latestTtlMs: number;
  private readonly missingDayTtlMs: number;

  constructor(
    private readonly source: SnapshotSource,
    private readonly clock: Clock,
    options: RateReaderOptions = {},
  ) {
    this.latestTtlMs = options.latestTtlMs ?? 60_000;
    this.days = new LruCache(options.dayCacheSize ?? 256);
    this.missingDayTtlMs = options.missingDayTtlMs ?? 60_000;
    this.series = new LruCache(options.seriesCacheSize ?? 256);
  }

  async getLatest(): Promise<RateSnapshot | undefined> {
    const now = this.clock().getTime();
    if (this.latest && this.latest.expires > now) return this.latest.snapshot;
    this.latestPending ??= this.source.getLatest().finally(() => {
      this.latestPending = undefined;
    });
    const read = await this.latestPending;
    // An unchanged LATEST keeps its object, and with it the values memoized for it. A late source can change the
    // rates without changing the publication time, so the whole snapshot is compared.
    const current = this.latest?.snapshot;
    const snapshot = current && sameSnapshot(current, read) ? current : read;
    this.latest = { snapshot, expires: now + this.latestTtlMs };
    return snapshot;
  }

  /** The sources' status item, served from memory for as long as LATEST is (it changes when ingestion runs). */
  async getSourceStatuses(): Promise<SourceStatuses> {
    const now = this.clock().getTime();
    if (this.statuses && this.statuses.expires > now) return this.statuses.value;
    this.statusesPending ??= (this.source.getSourceStatuses?.() ?? Promise.resolve({})).finally(() => {
      this.statusesPending = undefined;
    });
    const value = await this.statusesPending;
    this.statuses = { value, expires: now + this.latestTtlMs };
    return value;
  }

  /**
   * Whether the table's series are built in layout `version` or later. Once they are, that is remembered for good
   * (a marker's version only grows); until then the marker is read again after the LATEST TTL.
   */
  async seriesReady(version: number): Promise<boolean> {
    if (this.seriesBuilt) return true;
    const now = this.clock().getTime();
    if (this.seriesMarkerChecked !== undefined && this.seriesMarkerChecked > now) return false;
    this.seriesVersionPending ??= (this.source.getSeriesVersion?.() ?? Promise.resolve(undefined)).finally(() => {
      this.seriesVersionPending = undefined;
    });
    const stored = await this.seriesVersionPending;
    this.seriesBuilt = stored !== undefined && stored >= version;
    this.seriesMarkerChecked = now + this.latestTtlMs;
    return this.seriesBuilt;
  }

  /**
   * Memoizes a value derived from one snapshot (e.g. the rendered table for one base). Keyed by the snapshot
   * object itself, so a value computed from an older LATEST can never be served for a newer one.
   */
  memo<T>(snapshot: RateSnapshot, key: string, compute: () => T): T {
    let memo = this.memos.get(snapshot);
    if (!memo) {
      memo = new Map();
      this.memos.set(snapshot, memo);
    }
    if (memo.has(key)) return memo.get(key) as T;
    const value = compute();
    if (memo.size >= 512) memo.clear();
    memo.set(key, value);
    return value;
  }

  /**
   * A day as memory holds it while fresh (`value` undefined for a day known to have no snapshot), without a read or
   * a promise; undefined when it must be read (`getDay`).
   */
  cachedDay(day: string): { value: RateSnapshot | undefined } | undefined {
    return this.days.get(day, this.clock().getTime());
  }

  async getDay(day: string): Promise<RateSnapshot | undefined> {
    const now = this.clock().getTime();
    const cached = this.days.get(day, now);
    if (cached) return cached.value;
    let pending = this.dayPending.get(day);
    if (!pending) {
      pending = this.source.getDay(day).finally(() => this.dayPending.delete(day));
      this.dayPending.set(day, pending);
    }
    const snapshot = await pending;
    // Recent days may still gain currencies from a late source; older ones are final.
    const settled = snapshot !== undefined && daysBetween(day, formatDay(now)) > SETTLED_AFTER_DAYS;
    const ttl = snapshot ? this.latestTtlMs : this.missingDayTtlMs;
    this.days.set(day, snapshot, settled ? Number.POSITIVE_INFINITY : now + ttl);
    return snapshot;
  }

  /**
   * One currency's series item of one year, from memory when it can be: a year that ended more than 7 days
   * before today is final (kept until evicted, as a settled day is); the current year, the one just ended, and
   * an item not found, for as long as LATEST (a late source may still add a day). Concurrent misses share one read.
   */
  async getSeries(code: string, year: number): Promise<CurrencyYear | undefined> {
    const now = this.clock().getTime();
    const key = `${code}#${year}`;
    const cached = this.series.get(key, now);
    if (cached) return cached.value;
    let pending = this.seriesPending.get(key);
    if (!pending) {
      const read = this.source.getSeries?.(code, year) ?? Promise.resolve(undefined);
      pending = read.finally(() => this.seriesPending.delete(key));
      this.seriesPending.set(key, pending);
    }
    const read = await pending;
    // An unchanged item keeps its object, and with it the pairs computed from it.
    const kept = this.series.peek(key);
    const series = kept && read && sameSeries(kept, read) ? kept : read;
    this.series.set(key, series, seriesExpiry(year, series !== undefined, now, this.latestTtlMs));
    return series;
  }

  /** The pair's points over one year (pairYear), memoized per pair of year items. */
  pairPoints(from: CurrencyYear, to: CurrencyYear): SeriesPoint[] {
    const key = `${from.code}/${to.code}/${from.year}`;
    const cached = this.pairs.peek(key);
    const points = cached && cached.from === from && cached.to === to ? cached.points : pairYear(from, to);
    this.pairs.set(key, { from, to, points });
    return points;
  }

  /** How many pairs' points are kept (for tests of the bound). */
  get pairCacheSize(): number {
    return this.pairs.size;
  }
}

function sameSeries(a: CurrencyYear, b: CurrencyYear): boolean {
  return (
    a.dates.length === b.dates.length &&
    a.dates.every((date, i) => date === b.dates[i]) &&
    a.rates.every((rate, i) => rate === b.rates[i])
  );
}

/**
 * When a cached series item must be read again: never for a year that ended more than SETTLED_AFTER_DAYS days before
 * `now` (its days are settled), else after `ttlMs`.
 */
export function seriesExpiry(year: number, found: boolean, now: number, ttlMs: number): number {
  const settled = found && daysBetween(`${String(year).padStart(4, '0')}-12-31`, formatDay(now)) > SETTLED_AFTER_DAYS;
  return settled ? Number.POSITIVE_INFINITY : now + ttlMs;
}
