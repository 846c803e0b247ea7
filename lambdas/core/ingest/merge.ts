/**
 * Pure merge of source days into stored day snapshots and into LATEST. ECB wins for the currencies it quotes;
 * currency-api fills the rest. Stored days only gain currencies (or an ECB value replacing a currency-api one);
 * a value a source already delivered for a day is never replaced by the same or a lower-ranked source.
 */
import { isActiveCode } from '../domain/currencies';
import { addDays } from '../domain/dates';
import { PIVOT, type RateSnapshot, SOURCE_IDS, type SourceId } from '../domain/rates';
import { isPositiveRate, type SourceDay } from '../sources/source-day';

/** Highest precedence first. */
export const SOURCE_PRECEDENCE: readonly SourceId[] = SOURCE_IDS;
/** A source whose newest day is further behind the newest day overall does not feed LATEST. */
export const LATEST_MAX_LAG_DAYS = 4;

const rank = (source: SourceId): number => SOURCE_PRECEDENCE.indexOf(source);

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

function byPrecedence(days: readonly SourceDay[]): SourceDay[] {
  return [...days].sort((a, b) => rank(a.source) - rank(b.source));
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
): DayMerge {
  const rates: Record<string, number> = { ...stored?.rates, [PIVOT]: 1 };
  const sources: Record<string, SourceId> = { ...stored?.sources };
  const changed = new Set<string>();
  for (const day of byPrecedence(contributions)) {
    for (const [code, value] of Object.entries(day.rates)) {
      if (code === PIVOT) continue;
      const current = sources[code];
      const wins = current === undefined ? true : rank(day.source) < rank(current);
      if (!wins) continue;
      if (rates[code] !== value || current !== day.source) changed.add(code);
      rates[code] = value;
      sources[code] = day.source;
    }
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
 * LATEST from final day snapshots: each source's newest day, if that day is at most LATEST_MAX_LAG_DAYS behind
 * the newest day overall, contributes the currencies it supplied; higher-ranked sources win. `date` is the
 * newest contributing day and `publishedAt` the newest contributing publication. Only active currencies are
 * served as latest; withdrawn ones live on in their historical days.
 */
export function buildLatest(days: readonly RateSnapshot[]): LatestBuild | undefined {
  const newest = newestDate(days.map((d) => d.date));
  if (newest === undefined) return undefined;
  const windowStart = addDays(newest, -LATEST_MAX_LAG_DAYS);
  const newestBySource = new Map<SourceId, RateSnapshot>();
  for (const day of days) {
    if (day.date < windowStart) continue;
    for (const source of new Set(Object.values(day.sources))) {
      const current = newestBySource.get(source);
      if (!current || day.date > current.date) newestBySource.set(source, day);
    }
  }
  const contributing = SOURCE_PRECEDENCE.flatMap((source) => {
    const day = newestBySource.get(source);
    return day ? [{ source, day }] : [];
  });
  if (contributing.length === 0) return undefined;
  const rates: Record<string, number> = { [PIVOT]: 1 };
  const sources: Record<string, SourceId> = {};
  const serve = (code: string, value: number | undefined, source: SourceId | undefined) => {
    if (code === PIVOT || code in rates || value === undefined || !isActiveCode(code)) return;
    rates[code] = value;
    if (source) sources[code] = source;
  };
  for (const { source, day } of contributing) {
    for (const [code, value] of Object.entries(day.rates)) if (day.sources[code] === source) serve(code, value, source);
  }
  // What the contributing days carry from elsewhere fills gaps (e.g. a currency the newest ECB day left out).
  const newestFirst = [...contributing].sort((a, b) => (a.day.date < b.day.date ? 1 : -1));
  for (const { day } of newestFirst) {
    for (const [code, value] of Object.entries(day.rates)) serve(code, value, day.sources[code]);
  }
  let date = '';
  let publishedAt = '';
  const contributed: Partial<Record<SourceId, string>> = {};
  for (const { source, day } of contributing) {
    contributed[source] = day.date;
    if (day.date > date) date = day.date;
    if (day.publishedAt > publishedAt) publishedAt = day.publishedAt;
  }
  return { latest: { date, rates, sources, publishedAt }, contributing: contributed };
}
