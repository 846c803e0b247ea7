import { BatchGetCommand, BatchWriteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type { RateSnapshot, SourceId } from '../domain/rates';
import { fromItem, RatesReadStore, type StoredSources } from './rates-read-store';
import { dayKey, LATEST_KEY } from './tables';

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
    const chunks: RateSnapshot[][] = [];
    for (let i = 0; i < snapshots.length; i += 25) chunks.push(snapshots.slice(i, i + 25));
    // A few batches in flight keep the emulator and DynamoDB busy without bursting past on-demand limits.
    const concurrency = 4;
    let next = 0;
    const worker = async () => {
      while (next < chunks.length) {
        const chunk = chunks[next++] as RateSnapshot[];
        await this.writeChunk(chunk, options);
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, chunks.length) }, worker));
    return snapshots.length;
  }

  private async writeChunk(chunk: RateSnapshot[], options: BatchOptions): Promise<void> {
    const maxAttempts = options.maxAttempts ?? 8;
    let requests = chunk.map((s) => ({ PutRequest: { Item: toItem(dayKey(s.date), s) } }));
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
