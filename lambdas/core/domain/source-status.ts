/**
 * What the service knows about each upstream source: the last run it delivered in, recorded by ingestion and read by
 * GET /v1/sources. A source that fails keeps its previous status, so the facts always name the last success.
 */
import { PIVOT, type SourceId } from './rates';

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
