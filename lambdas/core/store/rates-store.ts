import { BatchGetCommand, BatchWriteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { RateSnapshot, SourceId } from '../domain/rates';
import { type CurrencyYear, seriesAttribute } from '../domain/series';
import type { SourceStatus } from '../domain/source-status';
import { isConditionFailure } from './clients';
import { fromItem, RatesReadStore, type StoredSources, toStoredStatus } from './rates-read-store';
import { dayKey, LATEST_KEY, SERIES_META_KEY, SOURCES_KEY, seriesKey } from './tables';

interface RateItem {
  pk: string;
  date: string;
  rates: Record<string, number>;
  sources: StoredSources;
  published_at: string;
}

export type SnapshotKey = typeof LATEST_KEY | `DAY#${string}`;

function toItem(pk: string, snapshot: RateSnapshot): RateItem {
  const sources: Record<string, string[]> = {};
  for (const code of Object.keys(snapshot.sources).sort()) {
    const source = snapshot.sources[code] as SourceId;
    const codes = sources[source] ?? [];
    codes.push(code);
    sources[source] = codes;
  }
  const stored: StoredSources = {};
  for (const [source, codes] of Object.entries(sources)) stored[source as SourceId] = codes.join(',');
  return { pk, date: snapshot.date, rates: snapshot.rates, sources: stored, published_at: snapshot.publishedAt };
}

/** Attributes set (or removed) by one UpdateItem: about 15 characters each keeps the expression under 4 KB. */
export const SERIES_ATTRIBUTES_PER_UPDATE = 200;
const SERIES_UPDATE_CONCURRENCY = 8;

export interface SeriesMeta {
  version: number | undefined;
  builtAt?: string;
  /** Runs counted in and not yet out: above 0 while one is under way or after one stopped; below 0 after a rebuild
   * reset the count under a run that was still going (its series writes may have been overwritten). */
  pendingRuns: number;
  /** Every run ever counted in: a rebuild records the series only if no run started while it read and wrote. */
  runsStarted: number;
  /** When the newest run was counted in. */
  lastRunAt?: string;
  /** A rebuild overlapped a run and could not vouch for the items: the next start rebuilds again. */
  rebuildNeeded: boolean;
}

/** Day attributes to set and remove on one currency's series item of one year (`dMMDD`, see domain/series). */
export interface SeriesUpdate {
  code: string;
  year: number;
  set: Record<string, number>;
  remove: string[];
}

/** A whole series item: its key and one attribute per day. */
function seriesItem(series: CurrencyYear): Record<string, unknown> {
  const item: Record<string, unknown> = { pk: seriesKey(series.code, series.year) };
  series.dates.forEach((date, i) => {
    item[seriesAttribute(date)] = series.rates[i];
  });
  return item;
}

/** Runs `work` over `items`, at most `concurrency` at a time. */
async function inParallel<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface BatchOptions {
  /** Attempts for unprocessed items before giving up. */
  maxAttempts?: number;
  /** First backoff in ms; doubles per attempt, with jitter. */
  baseDelayMs?: number;
  random?: () => number;
}

/** Adapts the `rates` table for ingestion and tools: the reads, plus batch reads and writes. */
export class RatesStore extends RatesReadStore {
  async putLatest(snapshot: RateSnapshot): Promise<void> {
    await this.client.send(new PutCommand({ TableName: this.tableName, Item: toItem(LATEST_KEY, snapshot) }));
  }

  async putDay(snapshot: RateSnapshot): Promise<void> {
    await this.client.send(
      new PutCommand({ TableName: this.tableName, Item: toItem(dayKey(snapshot.date), snapshot) }),
    );
  }

  /**
   * Records one source's delivery in the status item: one UpdateItem that sets only that source's attribute, so
   * the other source's status, and a failed source's previous one, stay as they were. With `keepUpstream` (a load
   * of bundled files), a status recorded by a real fetch is kept: bundled data never hides one. Returns whether it
   * wrote.
   */
  async recordSourceStatus(
    source: SourceId,
    status: SourceStatus,
    options: { keepUpstream?: boolean } = {},
  ): Promise<boolean> {
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: SOURCES_KEY },
          UpdateExpression: 'SET #source = :status',
          ...(options.keepUpstream
            ? {
                ConditionExpression: 'attribute_not_exists(#source) OR #source.#origin <> :upstream',
                ExpressionAttributeNames: { '#source': source, '#origin': 'origin' },
                ExpressionAttributeValues: { ':status': toStoredStatus(status), ':upstream': 'upstream' },
              }
            : {
                ExpressionAttributeNames: { '#source': source },
                ExpressionAttributeValues: { ':status': toStoredStatus(status) },
              }),
        }),
      );
      return true;
    } catch (error) {
      if (options.keepUpstream && isConditionFailure(error)) return false;
      throw error;
    }
  }

  /** Reads many days with BatchGetItem (100 keys a call), retrying unprocessed keys. Missing days are absent. */
  async getDays(days: readonly string[], options: BatchOptions = {}): Promise<Map<string, RateSnapshot>> {
    const found = new Map<string, RateSnapshot>();
    for (let i = 0; i < days.length; i += 100) {
      let keys: Record<string, unknown>[] = days.slice(i, i + 100).map((d) => ({ pk: dayKey(d) }));
      const maxAttempts = options.maxAttempts ?? 8;
      for (let attempt = 0; keys.length > 0; attempt++) {
        if (attempt >= maxAttempts) {
          throw new Error(`BatchGetItem left ${keys.length} keys unprocessed after ${maxAttempts} attempts`);
        }
        if (attempt > 0) await this.backoff(attempt, options);
        const out = await this.client.send(
          new BatchGetCommand({ RequestItems: { [this.tableName]: { Keys: keys, ConsistentRead: true } } }),
        );
        for (const item of out.Responses?.[this.tableName] ?? []) {
          const snapshot = fromItem(item);
          found.set(snapshot.date, snapshot);
        }
        keys = (out.UnprocessedKeys?.[this.tableName]?.Keys ?? []) as Record<string, unknown>[];
      }
    }
    return found;
  }

  /** Writes days with BatchWriteItem (25 a call), retrying UnprocessedItems with exponential backoff. */
  async putDays(snapshots: readonly RateSnapshot[], options: BatchOptions = {}): Promise<number> {
    return this.putItems(
      snapshots.map((s): Record<string, unknown> => ({ ...toItem(dayKey(s.date), s) })),
      options,
    );
  }

  /**
   * Sets and removes day attributes of series items, one UpdateItem per item (several for an item with more days
   * than one expression holds), a few at a time. Top-level attributes need no existence check: an item that is
   * not there yet is created. Returns the UpdateItem calls made.
   */
  async updateSeries(updates: readonly SeriesUpdate[]): Promise<number> {
    const calls: { pk: string; set: [string, number][]; remove: string[] }[] = [];
    for (const update of updates) {
      const pk = seriesKey(update.code, update.year);
      const set = Object.entries(update.set);
      for (let i = 0; i < Math.max(set.length, update.remove.length); i += SERIES_ATTRIBUTES_PER_UPDATE) {
        calls.push({
          pk,
          set: set.slice(i, i + SERIES_ATTRIBUTES_PER_UPDATE),
          remove: update.remove.slice(i, i + SERIES_ATTRIBUTES_PER_UPDATE),
        });
      }
    }
    await inParallel(calls, SERIES_UPDATE_CONCURRENCY, async ({ pk, set, remove }) => {
      const values: Record<string, number> = {};
      const clauses: string[] = [];
      if (set.length > 0) {
        clauses.push(
          `SET ${set
            .map(([attribute, value], i) => {
              values[`:v${i}`] = value;
              return `${attribute} = :v${i}`;
            })
            .join(', ')}`,
        );
      }
      if (remove.length > 0) clauses.push(`REMOVE ${remove.join(', ')}`);
      await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk },
          UpdateExpression: clauses.join(' '),
          ...(set.length > 0 ? { ExpressionAttributeValues: values } : {}),
        }),
      );
    });
    return calls.length;
  }

  /** Writes whole series items with BatchWriteItem, replacing what was stored under their keys. */
  async putSeries(items: readonly CurrencyYear[], options: BatchOptions = {}): Promise<number> {
    return this.putItems(items.map(seriesItem), options);
  }

  /** One series item read consistently (ingestion and tests; the endpoints read through getSeries). */
  async getSeriesItem(code: string, year: number): Promise<Record<string, unknown> | undefined> {
    const out = await this.client.send(
      new GetCommand({ TableName: this.tableName, Key: { pk: seriesKey(code, year) }, ConsistentRead: true }),
    );
    return out.Item;
  }

  /**
   * The series marker: which version of the series items the table holds (as backfillSeries recorded it), and the
   * runs that write days counted in and out around their series writes.
   */
  async getSeriesMeta(): Promise<SeriesMeta | undefined> {
    const out = await this.client.send(
      new GetCommand({ TableName: this.tableName, Key: { pk: SERIES_META_KEY }, ConsistentRead: true }),
    );
    if (!out.Item) return undefined;
    const item = out.Item;
    const count = (value: unknown) => (typeof value === 'number' ? value : 0);
    return {
      version: typeof item.version === 'number' ? item.version : undefined,
      ...(typeof item.built_at === 'string' ? { builtAt: item.built_at } : {}),
      pendingRuns: count(item.pending_runs),
      runsStarted: count(item.runs_started),
      ...(typeof item.last_run_at === 'string' ? { lastRunAt: item.last_run_at } : {}),
      rebuildNeeded: item.rebuild_needed === true,
    };
  }

  /**
   * Records a complete rebuild, resetting the count of runs left pending, only if no run was counted in since
   * `runsStarted` was read (its day and series writes could have interleaved with the rebuild's whole-item puts).
   * Otherwise the marker is flagged for another rebuild and false is returned. Never a Put: the counts survive.
   */
  async recordSeriesRebuild(version: number, builtAt: string, runsStarted: number): Promise<boolean> {
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: SERIES_META_KEY },
          UpdateExpression: 'SET version = :version, built_at = :at, pending_runs = :zero REMOVE rebuild_needed',
          ConditionExpression:
            runsStarted === 0 ? 'attribute_not_exists(runs_started) OR runs_started = :zero' : 'runs_started = :seen',
          ExpressionAttributeValues: {
            ':version': version,
            ':at': builtAt,
            ':zero': 0,
            ...(runsStarted === 0 ? {} : { ':seen': runsStarted }),
          },
        }),
      );
      return true;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: SERIES_META_KEY },
          UpdateExpression: 'SET rebuild_needed = :yes',
          ExpressionAttributeValues: { ':yes': true },
        }),
      );
      return false;
    }
  }

  /**
   * Counts a run that changes days in (before its day writes) and out (once the series are in step): a run that
   * stops in between leaves the count above 0, and the next start rebuilds the series instead of missing those
   * days. A count rather than a flag, so one run ending cannot clear the mark of another still under way.
   */
  async beginSeriesRun(at: string): Promise<void> {
    await this.client.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { pk: SERIES_META_KEY },
        UpdateExpression: 'ADD pending_runs :one, runs_started :one SET last_run_at = :at',
        ExpressionAttributeValues: { ':one': 1, ':at': at },
      }),
    );
  }

  async endSeriesRun(): Promise<void> {
    await this.client.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: { pk: SERIES_META_KEY },
        UpdateExpression: 'ADD pending_runs :less',
        ExpressionAttributeValues: { ':less': -1 },
      }),
    );
  }

  /** Writes items with BatchWriteItem (25 a call), a few calls at a time; returns how many. */
  private async putItems(items: readonly Record<string, unknown>[], options: BatchOptions): Promise<number> {
    const chunks: Record<string, unknown>[][] = [];
    for (let i = 0; i < items.length; i += 25) chunks.push(items.slice(i, i + 25));
    // A few batches in flight keep the emulator and DynamoDB busy without bursting past on-demand limits.
    await inParallel(chunks, 4, (chunk) => this.writeChunk(chunk, options));
    return items.length;
  }

  private async writeChunk(chunk: Record<string, unknown>[], options: BatchOptions): Promise<void> {
    const maxAttempts = options.maxAttempts ?? 8;
    let requests = chunk.map((Item) => ({ PutRequest: { Item } }));
    for (let attempt = 0; requests.length > 0; attempt++) {
      if (attempt >= maxAttempts) {
        throw new Error(`BatchWriteItem left ${requests.length} items unprocessed after ${maxAttempts} attempts`);
      }
      if (attempt > 0) await this.backoff(attempt, options);
      const out = await this.client.send(new BatchWriteCommand({ RequestItems: { [this.tableName]: requests } }));
      requests = (out.UnprocessedItems?.[this.tableName] ?? []) as typeof requests;
    }
  }

  private async backoff(attempt: number, options: BatchOptions): Promise<void> {
    const base = options.baseDelayMs ?? 50;
    const random = options.random ?? Math.random;
    await sleep(base * 2 ** (attempt - 1) * (0.5 + random() / 2));
  }
}
