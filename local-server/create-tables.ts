import {
  CreateTableCommand,
  type CreateTableCommandInput,
  DescribeTableCommand,
  ResourceInUseException,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { TableDefinition } from '../lambdas/core/store/tables';

/** Local bootstrap and tests: creates a table from its shared definition; an existing table is left alone. */
export async function createTable(
  client: DynamoDBDocumentClient,
  definition: TableDefinition,
  tableName: string,
): Promise<void> {
  const attributes = new Set([definition.partitionKey, ...definition.indexes.map((i) => i.partitionKey)]);
  const input: CreateTableCommandInput = {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    KeySchema: [{ AttributeName: definition.partitionKey, KeyType: 'HASH' }],
    AttributeDefinitions: [...attributes].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
  };
  if (definition.indexes.length > 0) {
    input.GlobalSecondaryIndexes = definition.indexes.map((index) => ({
      IndexName: index.name,
      KeySchema: [{ AttributeName: index.partitionKey, KeyType: 'HASH' }],
      Projection: { ProjectionType: 'ALL' },
    }));
  }
  try {
    await client.send(new CreateTableCommand(input));
  } catch (error) {
    if (error instanceof ResourceInUseException) return waitUntilActive(client, tableName);
    throw error;
  }
  await waitUntilActive(client, tableName);
  if (definition.ttlAttribute) await enableTimeToLive(client, tableName, definition.ttlAttribute);
}

/** Turns on TTL by `attribute`, where the implementation has TTL. */
export async function enableTimeToLive(
  client: DynamoDBDocumentClient,
  tableName: string,
  attribute: string,
): Promise<void> {
  try {
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: tableName,
        TimeToLiveSpecification: { AttributeName: attribute, Enabled: true },
      }),
    );
  } catch (error) {
    // An implementation without TTL (UnknownOperationException, dynalite) keeps the table as it is: the attribute is
    // still written, and implementations that have TTL expire items by it.
    if ((error as { name?: string }).name !== 'UnknownOperationException') throw error;
  }
}

const ACTIVE_POLL_MS = 5;
const ACTIVE_TIMEOUT_MS = 30_000;

/**
 * A new table answers reads and writes only once ACTIVE; until then it reports CREATING and a write to it fails
 * with ResourceNotFoundException.
 */
async function waitUntilActive(client: DynamoDBDocumentClient, tableName: string): Promise<void> {
  const deadline = Date.now() + ACTIVE_TIMEOUT_MS;
  for (;;) {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    if (Table?.TableStatus === 'ACTIVE') return;
    if (Date.now() > deadline)
      throw new Error(`table ${tableName} is still ${Table?.TableStatus} after ${ACTIVE_TIMEOUT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, ACTIVE_POLL_MS));
  }
}
