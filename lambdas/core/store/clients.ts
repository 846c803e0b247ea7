import { ConditionalCheckFailedException, DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { restoreFastProperties } from './fast-properties';

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
 * True when DynamoDB refused a write because its condition failed. Matched by name as well, for errors that crossed
 * a thread or process boundary and lost their class.
 */
export function isConditionFailure(error: unknown): error is ConditionalCheckFailedException {
  return (
    error instanceof ConditionalCheckFailedException ||
    (error as { name?: string } | null)?.name === 'ConditionalCheckFailedException'
  );
}

/** The name under which the SDK adds its logger middleware to every client's stack. */
export const SDK_LOGGER_MIDDLEWARE = 'loggerMiddleware';

/**
 * A DynamoDB client without the SDK's logger middleware, and with a config object V8 can read quickly.
 *
 * - We give the SDK no logger, yet that middleware runs the sensitive-data filters over every command's input and
 *   output to build a log entry nobody receives: on the admission write that is about 8 % of the SDK's CPU per call.
 * - The SDK leaves `client.config` in V8's slow dictionary mode, and every call copies and reads it; on the admission
 *   write that costs about a quarter of the SDK's time (see fast-properties.ts). The middlewares hold that very
 *   object, so it is made fast in place rather than replaced.
 */
function dynamoClient(config: DynamoDBClientConfig): DynamoDBClient {
  const client = new DynamoDBClient(config);
  client.middlewareStack.remove(SDK_LOGGER_MIDDLEWARE);
  restoreFastProperties(client.config);
  return client;
}

/**
 * Builds a document client. On AWS the SDK's defaults apply; `DYNAMODB_ENDPOINT` points it at a local
 * emulator (dynalite under `npm start`, DynamoDB Local in tests) with throwaway credentials. `requestHandler`
 * replaces the SDK's HTTP transport (the local server's threads reach its store thread over message ports).
 */
export function createDocumentClient(
  endpoint = process.env.DYNAMODB_ENDPOINT,
  requestHandler?: DynamoDBClientConfig['requestHandler'],
): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(dynamoClient(clientConfig(endpoint, requestHandler)), {
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
  return dynamoClient({
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
