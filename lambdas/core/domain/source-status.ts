/**
 * What the service knows about each upstream source: the last run it delivered in, recorded by ingestion and read by
 * GET /v1/sources. A source that fails keeps its previous status, so the facts always name the last success.
 */
import { type CrossCheck, crossCheck } from './official-rates';
import { AGGREGATOR, PIVOT, type RateSnapshot, type SourceId } from './rates';

export interface SourceStatus {
  /** `upstream`: fetched from the source itself; `bundled`: loaded from the files in the repository (local server). */
  origin: 'upstream' | 'bundled';
  /** When the delivering fetch ran (ISO 8601 UTC); null for bundled data, which was never fetched by this service. */
  fetchedAt: string | null;
  /** The newest day the source delivered, `YYYY-MM-DD`. */
  publishedDate: string;
  /** When the source published that day (ISO 8601 UTC). */
  publishedAt: string;
  /** The codes it delivered for that day, sorted, EUR (the pivot both sources quote against) left out. */
  currencies: string[];
  /** How its quotes of that day compared with the rates served from other publishers; absent before any check. */
  crossCheck?: CrossCheckSummary;
}

/**
 * A source's quotes of one day against the rates served that day where another publisher's quote was chosen:
 * how many were compared, how many differ by more than the tolerance, and the widest spread.
 */
export interface CrossCheckSummary {
  date: string;
  /** The relative spread above which a quote counts as over tolerance (0.05 = 5 %). */
  tolerance: number;
  compared: number;
  overTolerance: number;
  /**
   * Of `overTolerance`, the quotes of exempt currencies (known multi-rate ones), which the CrossCheckOverTolerance
   * metric and its alarm leave out; absent when there are none.
   */
  exempt?: number;
  /** 0 when nothing was compared. */
  maxSpread: number;
  worst: { code: string; spread: number; servedBy: SourceId } | null;
}

/** A summary's fields in snake_case: as the status item stores them and as GET /v1/sources shows them. */
export function snakeCaseCrossCheck(check: CrossCheckSummary) {
  return {
    date: check.date,
    tolerance: check.tolerance,
    compared: check.compared,
    over_tolerance: check.overTolerance,
    max_spread: check.maxSpread,
    worst: check.worst ? { code: check.worst.code, spread: check.worst.spread, served_by: check.worst.servedBy } : null,
  };
}

/** Spreads above this are recorded and warned about: the widest ordinary spreads in the recordings are about 4 %. */
export const DEFAULT_CROSS_CHECK_TOLERANCE = 0.05;

/**
 * Currencies with more than one official rate, whose publishers legitimately disagree every day: in the recordings
 * the Cuban peso (NBP vs CBR, about 96 %) and the Lebanese pound (NBU vs Bank of Israel, 11 to 12 %). Their spreads
 * are still recorded and logged, but not counted towards the cross-check alarm.
 */
export const DEFAULT_CROSS_CHECK_EXEMPT: readonly string[] = ['CUP', 'LBP'];

/** The over-tolerance quotes of a summary that count towards the alarm: those of currencies not exempt. */
export function countedOverTolerance(summary: CrossCheckSummary): number {
  return summary.overTolerance - (summary.exempt ?? 0);
}

/** One day as a source delivered it, against the euro. */
interface QuotedDay {
  source: SourceId;
  date: string;
  base: string;
  rates: Readonly<Record<string, number>>;
}

/**
 * Each source's newest day (of `days`) checked against the snapshot served for that date: the summary per
 * source that had a quote compared, and every over-tolerance check, for the log. The aggregator is never checked; a day on another base
 * (not yet rebased) is left out. Over-tolerance quotes of `exempt` currencies are counted apart in the summary.
 */
export function crossCheckSources(
  days: readonly QuotedDay[],
  served: (date: string) => RateSnapshot | undefined,
  tolerance: number,
  exempt: ReadonlySet<string> = new Set(),
): { summaries: Partial<Record<SourceId, CrossCheckSummary>>; over: CrossCheck[] } {
  const euro = days.filter((d) => d.base === PIVOT);
  const newest = new Map<SourceId, string>();
  for (const day of euro) {
    const current = newest.get(day.source);
    if (current === undefined || day.date > current) newest.set(day.source, day.date);
  }
  const byDate = new Map<string, CrossCheck[]>();
  const checksOf = (date: string): CrossCheck[] => {
    let checks = byDate.get(date);
    if (checks === undefined) {
      const snapshot = served(date);
      const quotes = new Map(euro.filter((d) => d.date === date).map((d) => [d.source as string, d.rates]));
      checks = snapshot ? crossCheck(snapshot, quotes, tolerance, AGGREGATOR) : [];
      byDate.set(date, checks);
    }
    return checks;
  };
  const summaries: Partial<Record<SourceId, CrossCheckSummary>> = {};
  const over: CrossCheck[] = [];
  for (const [source, date] of newest) {
    if (source === AGGREGATOR) continue;
    const mine = checksOf(date).filter((c) => c.source === source);
    // Nothing compared (the ECB, which serves every code it quotes; a source alone on its day): no figures.
    if (mine.length === 0) continue;
    let worst: CrossCheck | undefined;
    for (const check of mine) if (!worst || check.spread > worst.spread) worst = check;
    const overTolerance = mine.filter((c) => c.overTolerance);
    over.push(...overTolerance);
    const exempted = overTolerance.filter((c) => exempt.has(c.code)).length;
    summaries[source] = {
      date,
      tolerance,
      compared: mine.length,
      overTolerance: overTolerance.length,
      ...(exempted > 0 ? { exempt: exempted } : {}),
      maxSpread: worst?.spread ?? 0,
      worst: worst ? { code: worst.code, spread: worst.spread, servedBy: worst.servedBy as SourceId } : null,
    };
  }
  return { summaries, over };
}

export type SourceStatuses = Partial<Record<SourceId, SourceStatus>>;

/** One day as a source delivered it: the subset of its shape a status needs. */
interface DeliveredDay {
  date: string;
  publishedAt: string;
  rates: Readonly<Record<string, number>>;
}

/** The status a source's delivery gives it: its newest day, with that day's publication and codes. */
export function statusOfDelivery(
  days: readonly DeliveredDay[],
  origin: SourceStatus['origin'],
  fetchedAt: string | null,
): SourceStatus | undefined {
  let newest: DeliveredDay | undefined;
  for (const day of days) if (!newest || day.date > newest.date) newest = day;
  if (!newest) return undefined;
  return {
    origin,
    fetchedAt,
    publishedDate: newest.date,
    publishedAt: newest.publishedAt,
    currencies: Object.keys(newest.rates)
      .filter((code) => code !== PIVOT)
      .sort(),
  };
}
