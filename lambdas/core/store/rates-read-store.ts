import { type DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { type RateSnapshot, SOURCE_IDS, type SourceId } from '../domain/rates';
import { attributeDay, type CurrencyYear } from '../domain/series';
import {
  type CrossCheckSummary,
  type SourceStatus,
  type SourceStatuses,
  snakeCaseCrossCheck,
} from '../domain/source-status';
import { dayKey, LATEST_KEY, SERIES_META_KEY, SOURCES_KEY, seriesKey } from './tables';

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

/** A series item as the endpoints read it: its `dMMDD` attributes as days, ascending. */
export function seriesFromItem(code: string, year: number, item: Record<string, unknown>): CurrencyYear {
  const days: [string, number][] = [];
  for (const [attribute, value] of Object.entries(item)) {
    const day = attributeDay(attribute, year);
    if (day !== undefined && typeof value === 'number') days.push([day, value]);
  }
  days.sort((a, b) => (a[0] < b[0] ? -1 : 1));
  return { code, year, dates: days.map((d) => d[0]), rates: days.map((d) => d[1]) };
}

/** A source's status as stored: a map attribute named after the source, its codes one comma-joined string. */
export interface StoredSourceStatus {
  origin: SourceStatus['origin'];
  fetched_at: string | null;
  published_date: string;
  published_at: string;
  currencies: string;
  cross_check?: ReturnType<typeof snakeCaseCrossCheck>;
}

export function toStoredStatus(status: SourceStatus): StoredSourceStatus {
  return {
    origin: status.origin,
    fetched_at: status.fetchedAt,
    published_date: status.publishedDate,
    published_at: status.publishedAt,
    currencies: status.currencies.join(','),
    ...(status.crossCheck ? { cross_check: snakeCaseCrossCheck(status.crossCheck) } : {}),
  };
}

function fromStoredCrossCheck(value: unknown): CrossCheckSummary | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const v = value as Record<string, unknown>;
  const numbers = [v.tolerance, v.compared, v.over_tolerance, v.max_spread];
  if (typeof v.date !== 'string' || !numbers.every((n) => typeof n === 'number')) return undefined;
  const w = (v.worst ?? null) as Record<string, unknown> | null;
  const worst =
    w && typeof w.code === 'string' && typeof w.spread === 'number' && typeof w.served_by === 'string'
      ? { code: w.code, spread: w.spread, servedBy: w.served_by as SourceId }
      : null;
  return {
    date: v.date,
    tolerance: v.tolerance as number,
    compared: v.compared as number,
    overTolerance: v.over_tolerance as number,
    maxSpread: v.max_spread as number,
    worst,
  };
}

function fromStoredStatus(value: unknown): SourceStatus | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const stored = value as Partial<Record<keyof StoredSourceStatus, unknown>>;
  const { origin, fetched_at: fetchedAt, published_date, published_at, currencies, cross_check } = stored;
  if (origin !== 'upstream' && origin !== 'bundled') return undefined;
  if (typeof published_date !== 'string' || typeof published_at !== 'string') return undefined;
  const crossCheck = fromStoredCrossCheck(cross_check);
  return {
    origin,
    fetchedAt: typeof fetchedAt === 'string' ? fetchedAt : null,
    publishedDate: published_date,
    publishedAt: published_at,
    currencies: typeof currencies === 'string' && currencies !== '' ? currencies.split(',') : [],
    ...(crossCheck ? { crossCheck } : {}),
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

  /** Each source's last delivery, as ingestion recorded it; a source never recorded is absent. */
  async getSourceStatuses(): Promise<SourceStatuses> {
    const out = await this.client.send(new GetCommand({ TableName: this.tableName, Key: { pk: SOURCES_KEY } }));
    const statuses: SourceStatuses = {};
    for (const source of SOURCE_IDS) {
      const status = fromStoredStatus(out.Item?.[source]);
      if (status) statuses[source] = status;
    }
    return statuses;
  }

  /** One currency's series item of one year (GetItem); undefined when the currency has no day that year. */
  async getSeries(code: string, year: number): Promise<CurrencyYear | undefined> {
    const out = await this.client.send(
      new GetCommand({ TableName: this.tableName, Key: { pk: seriesKey(code, year) } }),
    );
    return out.Item ? seriesFromItem(code, year, out.Item) : undefined;
  }

  /** The layout version the series marker records (undefined before the series were first built or marked). */
  async getSeriesVersion(): Promise<number | undefined> {
    const out = await this.client.send(new GetCommand({ TableName: this.tableName, Key: { pk: SERIES_META_KEY } }));
    const version = out.Item?.version;
    return typeof version === 'number' ? version : undefined;
  }

  private async get(pk: string): Promise<RateSnapshot | undefined> {
    const out = await this.client.send(new GetCommand({ TableName: this.tableName, Key: { pk } }));
    return out.Item ? fromItem(out.Item) : undefined;
  }
}
