import { DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

function clientConfig(
  endpoint: string | undefined,
  requestHandler: DynamoDBClientConfig['requestHandler'] | undefined,
): DynamoDBClientConfig {
  const config: DynamoDBClientConfig = requestHandler ? { requestHandler } : {};
  if (endpoint) {
    config.endpoint = endpoint;
    config.region = process.env.AWS_REGION ?? 'local';
    config.credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
  }
  return config;
}

/**
 * Builds a document client. On AWS the SDK's defaults apply; `DYNAMODB_ENDPOINT` points it at a local
 * emulator (dynalite under `npm start`, DynamoDB Local in tests) with throwaway credentials. `requestHandler`
 * replaces the SDK's HTTP transport (the local server reaches its embedded emulator in process).
 */
export function createDocumentClient(
  endpoint = process.env.DYNAMODB_ENDPOINT,
  requestHandler?: DynamoDBClientConfig['requestHandler'],
): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(new DynamoDBClient(clientConfig(endpoint, requestHandler)), {
    marshallOptions: { removeUndefinedValues: true },
  });
}

/**
 * The low-level client for the one write every request makes (admission). With `cacheMiddleware` the SDK
 * resolves its middleware stack once per command type rather than on every call, which the document client
 * refuses to do; that saves about a quarter of the SDK's CPU per write. It sends through the document client's
 * transport, so both share one connection pool. Middleware must be added before its first request.
 */
export function createMeteringClient(
  document: DynamoDBDocumentClient,
  endpoint = process.env.DYNAMODB_ENDPOINT,
): DynamoDBClient {
  return new DynamoDBClient({
    ...clientConfig(endpoint, document.config.requestHandler as DynamoDBClientConfig['requestHandler']),
    cacheMiddleware: true,
  });
}

let shared: DynamoDBDocumentClient | undefined;

/** The module-scope client of a Lambda function: created on first use, reused across invocations. */
export function documentClient(): DynamoDBDocumentClient {
  shared ??= createDocumentClient();
  return shared;
}

let sharedMetering: DynamoDBClient | undefined;

/** The module-scope metering client of a Lambda function, on the shared document client's transport. */
export function meteringClient(): DynamoDBClient {
  sharedMetering ??= createMeteringClient(documentClient());
  return sharedMetering;
}
