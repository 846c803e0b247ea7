/**
 * What a source adapter declares: how a run fetches it, how a backfill fetches a range of it, and where its files
 * sit in the bundled data. Its pure facts (name, schedule, next publication) are in domain/source-schedule.ts, apart
 * from this code, so the endpoints that show them bundle no fetcher or parser.
 */
import type { CentralBankId } from '../domain/publishers';
import type { SourceId } from '../domain/rates';
import type { SourceDay } from './source-day';

export interface SourceFetch {
  days: SourceDay[];
  warnings: string[];
}

export interface SourceFetcher {
  id: SourceId;
  fetch(): Promise<SourceFetch>;
}

export interface SourceUrls {
  ecbBaseUrl: string;
  currencyApiBaseUrl: string;
  /** A template with `{date}` (a day or `latest`). */
  currencyApiFallbackUrl: string;
  /**
   * Where every central bank is asked instead of its own host (a test or mirror server): their paths differ, so
   * one origin serves all twelve. Absent: each publisher's own origin.
   */
  centralBankOrigin?: string;
}

/**
 * `scheduled`: ECB daily + 90-day XML, currency-api latest + recent days, each central bank's last 8 days.
 * `history`: the ECB zip instead, and each central bank's last 366 days.
 */
export type IngestMode = 'scheduled' | 'history';

export interface FetchPlan {
  urls: SourceUrls;
  timeoutMs: number;
  mode: IngestMode;
  /** currency-api days before `latest` to fetch too, so a missed run is caught up. */
  recentDays?: number;
  /** Today (UTC) `YYYY-MM-DD`, which the central banks' spans end on; the system clock's day when absent. */
  today?: string;
  signal?: AbortSignal;
}

/** The days a backfill asks for; either end open. `today` bounds a source that publishes day by day. */
export interface BackfillRange {
  from?: string;
  to?: string;
  today: string;
}

/** One bundled file, read by the caller (the local server and the backfill CLI, never a Lambda). */
export interface BundledFile {
  path: string;
  /** The day a day-per-file source's file is named by. */
  date?: string;
  bytes(): Uint8Array;
  text(): string;
  /** Another file of the same folder (a central bank's recorded answers beside its `source.json`). */
  sibling(name: string): Uint8Array;
}

export interface BundledData {
  /** The source's name in the bundled-data marker's coverage and in `readBundledDays`' answer. */
  key: 'ecb' | 'currencyApi' | CentralBankId;
  /** Its folder in `data/`. */
  dir: string;
  /** One file that must be there, or one file per day whose name's first capture is the day. */
  file: string | RegExp;
  /** A fixed `file` that may be missing: the data folder is still usable without this source's files. */
  optional?: boolean;
  parse(file: BundledFile): SourceDay[];
  /** How the start banner describes its span: `<label> <first> to <last> (<n> <unit>, <note>)`. */
  label: string;
  unit: string;
  note: string;
}

export interface SourceModule {
  id: SourceId;
  /** A scheduled or history run. */
  fetcher(plan: FetchPlan): SourceFetcher;
  /** The backfill CLI's online fetch of `range`. */
  backfill(plan: FetchPlan, range: BackfillRange): SourceFetcher;
  bundled: BundledData;
}
