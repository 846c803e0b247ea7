import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { CENTRAL_BANK_IDS, type CentralBankId } from '../lambdas/core/domain/publishers';

/**
 * A local-only item in the rates table recording which bundled data was fully loaded, so a restart over an
 * existing data directory skips reloading 27 years of history. It is written after the load completes, so an
 * interrupted first load is simply redone (idempotently) on the next start. It also keeps which days the bundled
 * data covers, so a restart can say so without parsing the files again.
 */
export const BUNDLED_MARKER_KEY = 'MARKER#bundled-data';

/** The first and last day one source's bundled data has, and how many days. */
export interface SourceCoverage {
  first: string;
  last: string;
  days: number;
}

/** Each central bank's coverage sits under its id. */
export interface BundledCoverage extends Partial<Record<CentralBankId, SourceCoverage>> {
  ecb?: SourceCoverage;
  currencyApi?: SourceCoverage;
}

export interface BundledMarker {
  fingerprint: string;
  coverage?: BundledCoverage;
}

function sourceCoverage(value: unknown): SourceCoverage | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { first, last, days } = value as Record<string, unknown>;
  return typeof first === 'string' && typeof last === 'string' && typeof days === 'number'
    ? { first, last, days }
    : undefined;
}

export async function readBundledMarker(
  client: DynamoDBDocumentClient,
  tableName: string,
): Promise<BundledMarker | undefined> {
  const out = await client.send(
    new GetCommand({ TableName: tableName, Key: { pk: BUNDLED_MARKER_KEY }, ConsistentRead: true }),
  );
  const fingerprint = out.Item?.fingerprint;
  if (typeof fingerprint !== 'string') return undefined;
  const stored = (out.Item?.coverage ?? {}) as Record<string, unknown>;
  const ecb = sourceCoverage(stored.ecb);
  const currencyApi = sourceCoverage(stored.currency_api);
  const banks = CENTRAL_BANK_IDS.flatMap((id) => {
    const span = sourceCoverage(stored[id]);
    return span ? [[id, span] as const] : [];
  });
  return {
    fingerprint,
    coverage: { ...(ecb ? { ecb } : {}), ...(currencyApi ? { currencyApi } : {}), ...Object.fromEntries(banks) },
  };
}

export async function writeBundledMarker(
  client: DynamoDBDocumentClient,
  tableName: string,
  marker: BundledMarker,
  loadedAt: string,
): Promise<void> {
  await client.send(
    new PutCommand({
      TableName: tableName,
      Item: {
        pk: BUNDLED_MARKER_KEY,
        fingerprint: marker.fingerprint,
        coverage: {
          ecb: marker.coverage?.ecb,
          currency_api: marker.coverage?.currencyApi,
          ...Object.fromEntries(CENTRAL_BANK_IDS.map((id) => [id, marker.coverage?.[id]])),
        },
        loaded_at: loadedAt,
      },
    }),
  );
}
