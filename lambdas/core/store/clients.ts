import { ConditionalCheckFailedException, DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { tracingEnabled } from '../tracing';
import { restoreFastProperties } from './fast-properties';
import { traceClient } from './xray';

/**
 * How long one DynamoDB call of a Lambda function may take, and how often it is tried (the SDK's defaults set no
 * timeout, so a brownout held each request until its function timed out). A single-item call answers in well under
 * 20 ms at p99, so 300 ms to connect and 1 s per attempt cut a black-holed endpoint short, and a second attempt on a
 * new connection beats waiting. One call ends within about 2.05 s: the authorizer (5 s; a cold cache makes three
 * calls, hence its own deadline in lambdas/authorizer/handler.ts) and the endpoints (10 s) answer 503, never a Lambda
 * timeout or API Gateway's 504. The admin CLI, backfill and local server keep the SDK's defaults.
 */
export const STORE_CALL_LIMITS = {
  connectionTimeoutMs: 300,
  requestTimeoutMs: 1_000,
  maxAttempts: 2,
} as const;

/** The variable that points every client at a local emulator instead of DynamoDB (see createDocumentClient). */
export const DYNAMODB_ENDPOINT_ENV = 'DYNAMODB_ENDPOINT';

/** DynamoDB Local keeps one database per access key and region: whatever shares these tables signs with these. */
export const LOCAL_ENDPOINT_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' } as const;

export interface ClientOptions {
  /** Apply STORE_CALL_LIMITS: timeouts on the SDK's HTTP handler (when it is not replaced) and bounded retries. */
  failFast?: boolean;
  /** With `failFast`, fewer attempts than STORE_CALL_LIMITS' (the local server's admission write makes one itself). */
  maxAttempts?: number;
}

type RequestHandlerInput = DynamoDBClientConfig['requestHandler'];

function clientConfig(
  endpoint: string | undefined,
  requestHandler: RequestHandlerInput | undefined,
  options: ClientOptions,
): DynamoDBClientConfig {
  const config: DynamoDBClientConfig = {};
  if (requestHandler) {
    config.requestHandler = requestHandler;
  } else if (options.failFast) {
    // Options rather than an instance: the client builds its NodeHttpHandler from them.
    config.requestHandler = {
      connectionTimeout: STORE_CALL_LIMITS.connectionTimeoutMs,
      requestTimeout: STORE_CALL_LIMITS.requestTimeoutMs,
      throwOnRequestTimeout: true,
      socketTimeout: STORE_CALL_LIMITS.requestTimeoutMs,
    };
  }
  if (options.failFast) {
    config.maxAttempts = options.maxAttempts ?? STORE_CALL_LIMITS.maxAttempts;
    config.retryMode = 'standard';
  }
  if (endpoint) {
    config.endpoint = endpoint;
    config.region = process.env.AWS_REGION ?? 'local';
    config.credentials = { ...LOCAL_ENDPOINT_CREDENTIALS };
  }
  return config;
}

/** Matched by name as well, for errors that crossed a thread or process boundary and lost their class. */
export function isConditionFailure(error: unknown): error is ConditionalCheckFailedException {
  return (
    error instanceof ConditionalCheckFailedException ||
    (error as { name?: string } | null)?.name === 'ConditionalCheckFailedException'
  );
}

export const SDK_LOGGER_MIDDLEWARE = 'loggerMiddleware';

/** The config is made fast in place because the middlewares hold that very object. */
// Why: docs/clever-parts.md#no-sdk-logger-middleware
function dynamoClient(config: DynamoDBClientConfig): DynamoDBClient {
  const client = new DynamoDBClient(config);
  client.middlewareStack.remove(SDK_LOGGER_MIDDLEWARE);
  if (tracingEnabled()) traceClient(client);
  restoreFastProperties(client.config);
  return client;
}

/**
 * `requestHandler` replaces the SDK's HTTP transport (the local server's threads reach its store thread over message
 * ports); the timeouts belong to the SDK's transport, so a replaced one keeps only the bounded retries.
 */
export function createDocumentClient(
  endpoint = process.env[DYNAMODB_ENDPOINT_ENV],
  requestHandler?: RequestHandlerInput,
  options: ClientOptions = {},
): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(dynamoClient(clientConfig(endpoint, requestHandler, options)), {
    marshallOptions: { removeUndefinedValues: true },
  });
}

/**
 * The low-level client for the admission write, on the document client's transport (one connection pool). With
 * `cacheMiddleware`, middleware must be added before its first request.
 */
// Why: docs/clever-parts.md#cached-middleware-stack-for-admission-writes
export function createMeteringClient(
  document: DynamoDBDocumentClient,
  endpoint = process.env[DYNAMODB_ENDPOINT_ENV],
  options: ClientOptions = {},
): DynamoDBClient {
  return dynamoClient({
    ...clientConfig(endpoint, document.config.requestHandler as RequestHandlerInput, options),
    cacheMiddleware: true,
  });
}

let shared: DynamoDBDocumentClient | undefined;

/** The module-scope client of a Lambda function: created on first use, reused across invocations; fails fast. */
export function documentClient(): DynamoDBDocumentClient {
  shared ??= createDocumentClient(undefined, undefined, { failFast: true });
  return shared;
}

let sharedMetering: DynamoDBClient | undefined;

/** The module-scope metering client of a Lambda function, on the shared document client's transport. */
export function meteringClient(): DynamoDBClient {
  sharedMetering ??= createMeteringClient(documentClient(), undefined, { failFast: true });
  return sharedMetering;
}
