import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { RateSnapshot, SourceId } from '../domain/rates';
import { dayKey, LATEST_KEY } from './tables';

/** `sources` is stored per source as one comma-joined code list: a third of the size of a per-code map. */
export type StoredSources = Partial<Record<SourceId, string>>;

export function fromItem(item: Record<string, unknown>): RateSnapshot {
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

/**
 * The read side of the `rates` table: LATEST and one day, one GetItem each. The endpoints bundle only this, so
 * their role needs GetItem and nothing else.
 */
export class RatesReadStore {
  constructor(
    protected readonly client: DynamoDBDocumentClient,
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
}
