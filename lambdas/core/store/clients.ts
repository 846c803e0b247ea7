import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/**
 * Builds a document client. On AWS the SDK's defaults apply; `DYNAMODB_ENDPOINT` points it at a local
 * emulator (dynalite under `npm start`, DynamoDB Local in tests) with throwaway credentials. `requestHandler`
 * replaces the SDK's HTTP transport (the local server reaches its embedded emulator in process).
 */
export function createDocumentClient(
  endpoint = process.env.DYNAMODB_ENDPOINT,
  requestHandler?: DynamoDBClientConfig['requestHandler'],
): DynamoDBDocumentClient {
  const config: DynamoDBClientConfig = requestHandler ? { requestHandler } : {};
  if (endpoint) {
    config.endpoint = endpoint;
    config.region = process.env.AWS_REGION ?? 'local';
    config.credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
  }
  return DynamoDBDocumentClient.from(new DynamoDBClient(config), {
    marshallOptions: { removeUndefinedValues: true },
  });
}

let shared: DynamoDBDocumentClient | undefined;

/** The module-scope client of a Lambda function: created on first use, reused across invocations. */
export function documentClient(): DynamoDBDocumentClient {
  shared ??= createDocumentClient();
  return shared;
}
