import {
  BatchGetCommand,
  BatchWriteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
} from '@aws-sdk/lib-dynamodb';
import type { RateSnapshot, SourceId } from '../domain/rates';
import { dayKey, LATEST_KEY } from './tables';

/** `sources` is stored per source as one comma-joined code list: a third of the size of a per-code map. */
type StoredSources = Partial<Record<SourceId, string>>;

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

function fromItem(item: Record<string, unknown>): RateSnapshot {
  const stored = (item.sources ?? {}) as StoredSources;
  const sources: Record<string, SourceId> = {};
  for (const [source, codes] of Object.entries(stored)) {
    if (!codes) continue;
    for (const code of codes.split(',')) sources[code] = source as SourceId;
  }
  return {
    date: String(item.date),
    rates: item.rates as Record<string, number>,
    sources,
    publishedAt: String(item.published_at),
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface BatchOptions {
  /** Attempts for unprocessed items before giving up. */
  maxAttempts?: number;
  /** First backoff in ms; doubles per attempt, with jitter. */
  baseDelayMs?: number;
  random?: () => number;
}

/** Adapts the `rates` table: one item per day plus LATEST; every read is one GetItem. */
export class RatesStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    readonly tableName: string,
  ) {}

  async getLatest(): Promise<RateSnapshot | undefined> {
    return this.get(LATEST_KEY);
  }

  async getDay(day: string): Promise<RateSnapshot | undefined> {
    return this.get(dayKey(day));
  }

  private async get(pk: string): Promise<RateSnapshot | undefined> {
    const out = await this.client.send(new GetCommand({ TableName: this.tableName, Key: { pk } }));
    return out.Item ? fromItem(out.Item) : undefined;
  }

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
      for (let attempt = 0; keys.length > 0; attempt++) {
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
