import { type DynamoDBDocumentClient, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';

/**
 * A local-only item in the rates table recording which bundled data was fully loaded, so a restart over an
 * existing data directory skips reloading 27 years of history. It is written after the load completes, so an
 * interrupted first load is simply redone (idempotently) on the next start.
 */
export const BUNDLED_MARKER_KEY = 'MARKER#bundled-data';

export async function readBundledMarker(
  client: DynamoDBDocumentClient,
  tableName: string,
): Promise<string | undefined> {
  const out = await client.send(
    new GetCommand({ TableName: tableName, Key: { pk: BUNDLED_MARKER_KEY }, ConsistentRead: true }),
  );
  const fingerprint = out.Item?.fingerprint;
  return typeof fingerprint === 'string' ? fingerprint : undefined;
}

export async function writeBundledMarker(
  client: DynamoDBDocumentClient,
  tableName: string,
  fingerprint: string,
  loadedAt: string,
): Promise<void> {
  await client.send(
    new PutCommand({ TableName: tableName, Item: { pk: BUNDLED_MARKER_KEY, fingerprint, loaded_at: loadedAt } }),
  );
}
