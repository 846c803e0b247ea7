/**
 * Pure merge of source days into stored day snapshots and into LATEST, under the rule of domain/official-rates.ts:
 * per currency, the ECB first, then the currency's issuing central bank, then the other official publishers in the
 * configured order (weekly tables after daily ones), the aggregator last. Stored days only gain currencies (or a
 * higher-ranked value replacing a lower one); a value a source already delivered for a day is never replaced by the
 * same or a lower-ranked source.
 */
import { isActiveCode } from '../domain/currencies';
import { addDays } from '../domain/dates';
import { type RankedSource, rankFor } from '../domain/official-rates';
import { isWeeklyQuote, PUBLISHERS } from '../domain/publishers';
import { AGGREGATOR, PIVOT, type RateSnapshot, SOURCE_IDS, type SourceId } from '../domain/rates';
import { isPositiveRate, type SourceDay } from '../sources/source-day';

/** Highest precedence first: the default order when no configured list is given. */
export const SOURCE_PRECEDENCE: readonly SourceId[] = SOURCE_IDS;
/** A source whose newest day is further behind the newest day overall does not feed LATEST with its daily quotes. */
export const LATEST_DAILY_LAG_DAYS = 4;
/**
 * The oldest quote LATEST serves, in days behind its newest day: a weekly table's (NBP's table B appears on
 * Wednesdays, so a week and a day). It is also how far back LATEST reads stored days.
 */
export const LATEST_MAX_LAG_DAYS = 8;

/** What the rule knows of each central bank, built once. */
const RANKED: ReadonlyMap<string, RankedSource> = new Map(
  Object.entries(PUBLISHERS).map(([id, facts]) => [
    id,
    { ...(facts.issuer ? { currency: facts.currency } : {}), weekly: (code: string) => isWeeklyQuote(facts, code) },
  ]),
);
const rankedFacts = (source: string): RankedSource | undefined => RANKED.get(source);

/** Whether `source` quotes `code` from a weekly table. */
const isWeekly = (source: string, code: string): boolean => RANKED.get(source)?.weekly?.(code) ?? false;

/** The configured order followed by every source it leaves out, in the default order. */
const fullOrder = (order: readonly SourceId[]): SourceId[] => [
  ...order,
  ...SOURCE_IDS.filter((id) => !order.includes(id)),
];

/** One ranker per order list, so a run merging hundreds of days ranks each (source, code) once. */
const rankers = new WeakMap<readonly SourceId[], (source: SourceId, code: string) => number>();

/**
 * The rank of `source` for `code` under `order` (the configured sources, highest precedence first); lower wins.
 * A source missing from the list (a day stored while it was configured) ranks after the listed ones, in the
 * default order, so removing a source from the list never lets its old values outrank a listed one.
 */
function ranker(order: readonly SourceId[] = SOURCE_PRECEDENCE): (source: SourceId, code: string) => number {
  const known = rankers.get(order);
  if (known) return known;
  const full = fullOrder(order);
  const cache = new Map<string, number>();
  const rank = (source: SourceId, code: string): number => {
    const key = `${source}|${code}`;
    let value = cache.get(key);
    if (value === undefined) {
      value = rankFor(full, rankedFacts, AGGREGATOR, source, code);
      cache.set(key, value);
    }
    return value;
  };
  rankers.set(order, rank);
  return rank;
}

/** The newest of some `YYYY-MM-DD` days (they order as text). */
export function newestDate(dates: Iterable<string>): string | undefined {
  let newest: string | undefined;
  for (const date of dates) {
    if (newest === undefined || date > newest) newest = date;
  }
  return newest;
}
const REBASE_DIGITS = 12;

/**
 * The day against EUR. Sources normally quote against EUR already; a day quoted against another base is divided
 * through by its EUR rate. Undefined when the day has no usable EUR rate to rebase with.
 */
export function rebaseToEur(day: SourceDay): SourceDay | undefined {
  if (day.base === PIVOT) return day.rates[PIVOT] === 1 ? day : { ...day, rates: { ...day.rates, [PIVOT]: 1 } };
  const eurPerBase = day.rates[PIVOT];
  if (!isPositiveRate(eurPerBase)) return undefined;
  const rates: Record<string, number> = { [PIVOT]: 1 };
  for (const [code, value] of Object.entries(day.rates)) {
    if (code === PIVOT) continue;
    rates[code] = Number((value / eurPerBase).toPrecision(REBASE_DIGITS));
  }
  return { ...day, base: PIVOT, rates };
}

export interface DayMerge {
  snapshot: RateSnapshot;
  /** Codes whose value or source differs from the stored day (all codes for a new day). */
  changed: string[];
}

/**
 * Publication time of a day: the newest publication among the stored day and the sources that supplied one of
 * the changed codes. A source whose values were all already stored does not make the day newer.
 */
export function dayPublishedAt(
  stored: RateSnapshot | undefined,
  contributions: readonly SourceDay[],
  snapshot: RateSnapshot,
  changed: readonly string[],
): string {
  let publishedAt = stored?.publishedAt ?? '';
  for (const day of contributions) {
    const supplied = changed.some((code) => snapshot.sources[code] === day.source);
    if (supplied && day.publishedAt > publishedAt) publishedAt = day.publishedAt;
  }
  return publishedAt;
}

/** Merges EUR-based source days of one date into the stored snapshot of that date (if any). */
export function mergeDay(
  date: string,
  stored: RateSnapshot | undefined,
  contributions: readonly SourceDay[],
  order: readonly SourceId[] = SOURCE_PRECEDENCE,
): DayMerge {
  const rank = ranker(order);
  const rates: Record<string, number> = { ...stored?.rates, [PIVOT]: 1 };
  const sources: Record<string, SourceId> = { ...stored?.sources };
  const changed = new Set<string>();
  for (const day of contributions) {
    for (const [code, value] of Object.entries(day.rates)) {
      if (code === PIVOT) continue;
      const current = sources[code];
      const wins = current === undefined ? true : rank(day.source, code) < rank(current, code);
      if (!wins) continue;
      rates[code] = value;
      sources[code] = day.source;
    }
  }
  for (const code of Object.keys(sources)) {
    if (stored?.rates[code] !== rates[code] || stored?.sources[code] !== sources[code]) changed.add(code);
  }
  const snapshot: RateSnapshot = { date, rates, sources, publishedAt: '' };
  const changedCodes = [...changed].sort();
  snapshot.publishedAt = dayPublishedAt(stored, contributions, snapshot, changedCodes);
  return { snapshot, changed: changedCodes };
}

export interface LatestBuild {
  latest: RateSnapshot;
  /** The day each qualifying source contributed. */
  contributing: Partial<Record<SourceId, string>>;
}

/**
 * LATEST from final day snapshots: each source's newest day, if that day is at most LATEST_DAILY_LAG_DAYS behind
 * the newest day overall, contributes the currencies it supplied; a weekly quote (NBP's table B) may be up to
 * LATEST_MAX_LAG_DAYS behind. Per currency the rule's rank decides between sources. `date` is the newest
 * contributing day and `publishedAt` the newest contributing publication. Only active currencies are served as
 * latest; withdrawn ones live on in their historical days.
 */
export function buildLatest(
  days: readonly RateSnapshot[],
  order: readonly SourceId[] = SOURCE_PRECEDENCE,
): LatestBuild | undefined {
  const rank = ranker(order);
  const newest = newestDate(days.map((d) => d.date));
  if (newest === undefined) return undefined;
  const dailyStart = addDays(newest, -LATEST_DAILY_LAG_DAYS);
  const weeklyStart = addDays(newest, -LATEST_MAX_LAG_DAYS);
  const newestBySource = new Map<SourceId, RateSnapshot>();
  /** source → code → the newest day its weekly quote of the code is on. */
  const weeklyBySource = new Map<SourceId, Map<string, RateSnapshot>>();
  for (const day of days) {
    if (day.date < weeklyStart) continue;
    for (const [code, source] of Object.entries(day.sources)) {
      if (!isWeekly(source, code)) continue;
      const byCode = weeklyBySource.get(source) ?? new Map<string, RateSnapshot>();
      const current = byCode.get(code);
      if (!current || day.date > current.date) byCode.set(code, day);
      weeklyBySource.set(source, byCode);
    }
    if (day.date < dailyStart) continue;
    for (const source of new Set(Object.values(day.sources))) {
      const current = newestBySource.get(source);
      if (!current || day.date > current.date) newestBySource.set(source, day);
    }
  }
  const contributing = fullOrder(order).flatMap((source) => {
    const day = newestBySource.get(source);
    return day ? [{ source, day }] : [];
  });
  if (contributing.length === 0 && weeklyBySource.size === 0) return undefined;
  // The best-ranked quote of each code among the sources' newest days and their recent weekly quotes.
  const best = new Map<string, { value: number; source: SourceId; rank: number; day: RateSnapshot }>();
  const offer = (code: string, value: number | undefined, source: SourceId, day: RateSnapshot) => {
    if (code === PIVOT || value === undefined || !isActiveCode(code)) return;
    const r = rank(source, code);
    const current = best.get(code);
    if (!current || r < current.rank) best.set(code, { value, source, rank: r, day });
  };
  for (const { source, day } of contributing) {
    for (const [code, value] of Object.entries(day.rates))
      if (day.sources[code] === source) offer(code, value, source, day);
  }
  for (const [source, byCode] of weeklyBySource) {
    for (const [code, day] of byCode) offer(code, day.rates[code], source, day);
  }
  const rates: Record<string, number> = { [PIVOT]: 1 };
  const sources: Record<string, SourceId> = {};
  const used = new Map<SourceId, RateSnapshot>();
  for (const code of [...best.keys()].sort()) {
    const { value, source, day } = best.get(code) as { value: number; source: SourceId; day: RateSnapshot };
    rates[code] = value;
    sources[code] = source;
    const seen = used.get(source);
    if (!seen || day.date > seen.date) used.set(source, day);
  }
  // What the contributing days carry from elsewhere fills gaps (e.g. a currency the newest ECB day left out).
  const newestFirst = [...contributing].sort((a, b) => (a.day.date < b.day.date ? 1 : -1));
  for (const { day } of newestFirst) {
    for (const [code, value] of Object.entries(day.rates)) {
      if (code === PIVOT || code in rates || value === undefined || !isActiveCode(code)) continue;
      rates[code] = value;
      const source = day.sources[code];
      if (source) sources[code] = source;
    }
  }
  let date = '';
  let publishedAt = '';
  const contributed: Partial<Record<SourceId, string>> = {};
  const dated = [
    ...contributing,
    ...[...used].filter(([s]) => !newestBySource.has(s)).map(([source, day]) => ({ source, day })),
  ];
  for (const { source, day } of dated) {
    contributed[source] = day.date;
    if (day.date > date) date = day.date;
    if (day.publishedAt > publishedAt) publishedAt = day.publishedAt;
  }
  if (date === '') return undefined;
  return { latest: { date, rates, sources, publishedAt }, contributing: contributed };
}
