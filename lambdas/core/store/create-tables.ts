import {
  CreateTableCommand,
  type CreateTableCommandInput,
  ResourceInUseException,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { TableDefinition } from './tables';

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
    if (error instanceof ResourceInUseException) return;
    throw error;
  }
  if (definition.ttlAttribute) {
    try {
      await client.send(
        new UpdateTimeToLiveCommand({
          TableName: tableName,
          TimeToLiveSpecification: { AttributeName: definition.ttlAttribute, Enabled: true },
        }),
      );
    } catch (error) {
      // dynalite does not implement TTL; the attribute is still written, so AWS and DynamoDB Local expire items.
      if ((error as { name?: string }).name !== 'UnknownOperationException') throw error;
    }
  }
}
