/**
 * The series items behind GET /v1/rates/timeseries (one per currency and calendar year, `SERIES#<code>#<year>`,
 * one attribute `dMMDD` per day holding that day's stored EUR rate): kept in step with the day items by every
 * ingestion run (planSeries, maintainSeries) and rebuilt from all stored days by backfillSeries.
 */
import { addDays, type Clock, formatDay, formatTimestamp, systemClock } from '../domain/dates';
import type { RateSnapshot } from '../domain/rates';
import { type CurrencyYear, SERIES_FIRST_YEAR, SERIES_VERSION, seriesAttribute } from '../domain/series';
import type { RatesStore, SeriesUpdate } from '../store/rates-store';
import type { IngestLog } from './ingest';
import { MAX_DAYS_AHEAD } from './reconcile';

export { SERIES_VERSION } from '../domain/series';

/** What to write so the series items match the final day snapshots of a run. */
export interface SeriesPlan {
  /** Attribute-level changes, for years the run did not read whole. */
  updates: SeriesUpdate[];
  /** Whole items, for years the run read whole: every stored day of that year is known, so nothing is lost. */
  items: CurrencyYear[];
}

/** Every currency's series of one year, from that year's day snapshots (any order). */
export function seriesOfDays(days: Iterable<RateSnapshot>): CurrencyYear[] {
  const byCode = new Map<string, { code: string; year: number; points: [string, number][] }>();
  for (const day of days) {
    const year = Number(day.date.slice(0, 4));
    for (const [code, rate] of Object.entries(day.rates)) {
      const key = `${code}#${year}`;
      let entry = byCode.get(key);
      if (!entry) {
        entry = { code, year, points: [] };
        byCode.set(key, entry);
      }
      entry.points.push([day.date, rate]);
    }
  }
  return [...byCode.values()]
    .sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : a.year - b.year))
    .map(({ code, year, points }) => {
      points.sort((a, b) => (a[0] < b[0] ? -1 : 1));
      return { code, year, dates: points.map((p) => p[0]), rates: points.map((p) => p[1]) };
    });
}

/** The days of `year` that can hold data: through 31 December, or through the ingestion horizon (tomorrow). */
function possibleDays(year: number, today: string): string[] {
  const first = `${String(year).padStart(4, '0')}-01-01`;
  const horizon = addDays(today, MAX_DAYS_AHEAD);
  const last = [`${String(year).padStart(4, '0')}-12-31`, horizon].sort()[0] as string;
  const days: string[] = [];
  for (let day = first; day <= last; day = addDays(day, 1)) days.push(day);
  return days;
}

/** Days written in one year from which the run reads the rest of the year, to write its series items whole. */
export const BULK_YEAR_DAYS = 28;

/** The possible days of each year with at least BULK_YEAR_DAYS day writes that the run has not read. */
export function unreadDaysOfBulkYears(
  writes: readonly RateSnapshot[],
  read: readonly string[],
  today: string,
): string[] {
  const perYear = new Map<number, number>();
  for (const day of writes) {
    const year = Number(day.date.slice(0, 4));
    perYear.set(year, (perYear.get(year) ?? 0) + 1);
  }
  const known = new Set(read);
  const unread: string[] = [];
  for (const [year, count] of perYear) {
    if (count >= BULK_YEAR_DAYS) unread.push(...possibleDays(year, today).filter((day) => !known.has(day)));
  }
  return unread.sort();
}

/**
 * The series writes for a run's day writes. `stored` holds the days the run read (consistently) before writing,
 * `read` the dates it asked for. Only currencies whose value changed against the stored day are touched. A year
 * every possible day of which was read (a bulk load, a full-history run) gets whole items for its changed
 * currencies, written in batches; any other year gets UpdateItems that set (or remove) just the changed days.
 */
export function planSeries(input: {
  writes: readonly RateSnapshot[];
  stored: ReadonlyMap<string, RateSnapshot>;
  read: readonly string[];
  today: string;
}): SeriesPlan {
  const writesByYear = new Map<number, RateSnapshot[]>();
  for (const day of input.writes) {
    const year = Number(day.date.slice(0, 4));
    const list = writesByYear.get(year) ?? [];
    list.push(day);
    writesByYear.set(year, list);
  }
  const read = new Set(input.read);
  const plan: SeriesPlan = { updates: [], items: [] };
  for (const [year, writes] of [...writesByYear].sort((a, b) => a[0] - b[0])) {
    const changed = new Map<string, SeriesUpdate>();
    const changeOf = (code: string): SeriesUpdate => {
      let update = changed.get(code);
      if (!update) {
        update = { code, year, set: {}, remove: [] };
        changed.set(code, update);
      }
      return update;
    };
    for (const day of writes) {
      const before = input.stored.get(day.date)?.rates ?? {};
      const attribute = seriesAttribute(day.date);
      for (const [code, rate] of Object.entries(day.rates)) {
        if (before[code] !== rate) changeOf(code).set[attribute] = rate;
      }
      for (const code of Object.keys(before)) {
        if (day.rates[code] === undefined) changeOf(code).remove.push(attribute);
      }
    }
    const days = possibleDays(year, input.today);
    if (days.every((day) => read.has(day))) {
      const final = new Map<string, RateSnapshot>();
      for (const day of days) {
        const stored = input.stored.get(day);
        if (stored) final.set(day, stored);
      }
      for (const day of writes) final.set(day.date, day);
      const whole = seriesOfDays(final.values()).filter((series) => changed.has(series.code));
      plan.items.push(...whole);
      // A currency whose every day was removed has no item left to put: its changes stay updates (removals).
      const put = new Set(whole.map((series) => series.code));
      for (const [code, update] of changed) if (!put.has(code)) plan.updates.push(update);
    } else {
      plan.updates.push(...[...changed.values()].sort((a, b) => (a.code < b.code ? -1 : 1)));
    }
  }
  return plan;
}

/** Applies a plan; returns the writes made (UpdateItem calls plus items put). */
export async function maintainSeries(store: RatesStore, plan: SeriesPlan): Promise<number> {
  const put = plan.items.length > 0 ? await store.putSeries(plan.items) : 0;
  const updated = plan.updates.length > 0 ? await store.updateSeries(plan.updates) : 0;
  return put + updated;
}

export interface SeriesBackfillResult {
  years: number;
  /** Day items read. */
  days: number;
  /** Series items written. */
  items: number;
  /** False when a run started during the rebuild: the marker then asks the next start for another rebuild. */
  recorded: boolean;
  durationMs: number;
}

/**
 * A run counted in longer ago than this has stopped (the ingest function's timeout is 5 minutes); a newer one may
 * still be writing, and a rebuild under it could overwrite its series writes, so the rebuild waits for the next start.
 */
export const SERIES_RUN_STALE_MS = 15 * 60_000;

/**
 * Rebuilds every series item from the stored day items, year by year, then records SERIES_VERSION in the marker
 * item unless a run was counted in meanwhile (recordSeriesRebuild). Idempotent: it can be run again at any time.
 */
export async function backfillSeries(
  store: RatesStore,
  options: { clock?: Clock; log?: IngestLog } = {},
): Promise<SeriesBackfillResult> {
  const started = Date.now();
  const clock = options.clock ?? systemClock;
  const today = formatDay(clock());
  const runsStarted = (await store.getSeriesMeta())?.runsStarted ?? 0;
  const lastYear = Number(addDays(today, MAX_DAYS_AHEAD).slice(0, 4));
  let days = 0;
  let items = 0;
  for (let year = SERIES_FIRST_YEAR; year <= lastYear; year++) {
    const stored = await store.getDays(possibleDays(year, today));
    days += stored.size;
    items += await store.putSeries(seriesOfDays(stored.values()));
  }
  const recorded = await store.recordSeriesRebuild(SERIES_VERSION, formatTimestamp(clock()), runsStarted);
  const result = { years: lastYear - SERIES_FIRST_YEAR + 1, days, items, recorded, durationMs: Date.now() - started };
  if (recorded) options.log?.info('series rebuilt', { ...result });
  else
    options.log?.warn('series rebuilt under a run that started meanwhile; the next start rebuilds again', {
      ...result,
    });
  return result;
}

/**
 * Makes sure the table's series items match its days before a run adds any: rebuilt (backfillSeries) when `force`d,
 * or when the marker is missing from a table with rates, names an older layout, counts runs that did not end cleanly
 * (above 0: one stopped between its day and series writes; below 0: a rebuild ran under one), or asks for it after
 * a rebuild that overlapped a run. Unless forced, a run counted less than `staleRunMs` ago defers the rebuild to the
 * next start. A new table (no marker, no LATEST) is only marked. Returns the rebuild, when there was one.
 */
export async function ensureSeries(
  store: RatesStore,
  options: { clock?: Clock; log?: IngestLog; force?: boolean; staleRunMs?: number } = {},
): Promise<SeriesBackfillResult | undefined> {
  const clock = options.clock ?? systemClock;
  const meta = await store.getSeriesMeta();
  if (!options.force && meta === undefined && (await store.getLatest()) === undefined) {
    await store.recordSeriesRebuild(SERIES_VERSION, formatTimestamp(clock()), 0);
    return undefined;
  }
  const current =
    meta !== undefined &&
    meta.version !== undefined &&
    meta.version >= SERIES_VERSION &&
    meta.pendingRuns === 0 &&
    !meta.rebuildNeeded;
  if (current && !options.force) return undefined;
  const staleRunMs = options.staleRunMs ?? SERIES_RUN_STALE_MS;
  const runAt = meta?.lastRunAt === undefined ? Number.NaN : Date.parse(meta.lastRunAt);
  const underWay = (meta?.pendingRuns ?? 0) > 0 && clock().getTime() - runAt < staleRunMs;
  if (underWay && !options.force) {
    options.log?.warn('series rebuild deferred: a run that writes days may still be under way', {
      lastRunAt: meta?.lastRunAt,
    });
    return undefined;
  }
  return backfillSeries(store, options);
}
