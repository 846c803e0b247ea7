import { type Clock, daysBetween, formatDay } from '../domain/dates';
import { type RateSnapshot, sameSnapshot } from '../domain/rates';

const RECENT_DAYS = 7;

export interface SnapshotSource {
  getLatest(): Promise<RateSnapshot | undefined>;
  getDay(day: string): Promise<RateSnapshot | undefined>;
}

export interface RateReaderOptions {
  /** How long LATEST is served from memory before it is read again. */
  latestTtlMs?: number;
  /** Past days kept in memory (they are immutable once published). */
  dayCacheSize?: number;
  /** How long the absence of a day is remembered (a late source may still fill it). */
  missingDayTtlMs?: number;
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
  private readonly days = new Map<string, { snapshot: RateSnapshot | undefined; expires: number }>();
  private readonly dayPending = new Map<string, Promise<RateSnapshot | undefined>>();
  private readonly latestTtlMs: number;
  private readonly dayCacheSize: number;
  private readonly missingDayTtlMs: number;

  constructor(
    private readonly source: SnapshotSource,
    private readonly clock: Clock,
    options: RateReaderOptions = {},
  ) {
    this.latestTtlMs = options.latestTtlMs ?? 60_000;
    this.dayCacheSize = options.dayCacheSize ?? 256;
    this.missingDayTtlMs = options.missingDayTtlMs ?? 60_000;
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

  async getDay(day: string): Promise<RateSnapshot | undefined> {
    const now = this.clock().getTime();
    const cached = this.days.get(day);
    if (cached && cached.expires > now) {
      this.days.delete(day);
      this.days.set(day, cached);
      return cached.snapshot;
    }
    let pending = this.dayPending.get(day);
    if (!pending) {
      pending = this.source.getDay(day).finally(() => this.dayPending.delete(day));
      this.dayPending.set(day, pending);
    }
    const snapshot = await pending;
    // Recent days may still gain currencies from a late source; older ones are final.
    const settled = snapshot !== undefined && daysBetween(day, formatDay(now)) > RECENT_DAYS;
    this.days.set(day, {
      snapshot,
      expires: settled ? Number.POSITIVE_INFINITY : now + (snapshot ? this.latestTtlMs : this.missingDayTtlMs),
    });
    while (this.days.size > this.dayCacheSize) {
      const oldest = this.days.keys().next().value;
      if (oldest === undefined) break;
      this.days.delete(oldest);
    }
    return snapshot;
  }
}
