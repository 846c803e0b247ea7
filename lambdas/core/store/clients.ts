import { ConditionalCheckFailedException, DynamoDBClient, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { tracingEnabled } from '../tracing';
import { restoreFastProperties } from './fast-properties';
import { traceClient } from './xray';

/**
 * How long one DynamoDB call of a Lambda function may take, and how often it is tried: the one place these are set
 * (the authorizer's reads and admission write, the endpoints' rate reads, the dashboard, ingestion). The SDK's own
 * defaults set no timeout at all, so a DynamoDB brownout held each request until its function timed out.
 *
 * - `connectionTimeoutMs`: opening a connection to DynamoDB's regional endpoint takes milliseconds (tens on a cold
 *   start); 300 ms is far above that and cuts a black-holed endpoint short. A warm function reuses its kept-alive
 *   connection and never pays it.
 * - `requestTimeoutMs`: the whole attempt, connecting included, until the response arrives. A single-item read or
 *   write answers in well under 20 ms at p99, a batch of 25 in well under 100 ms; an attempt that has not answered
 *   in 1 s is caught in a brownout, and a second attempt on a new connection is likelier to succeed than waiting.
 *   The SDK only logs a warning when it passes unless `throwOnRequestTimeout` is set, so it is set, and the same
 *   value bounds a response body that stalls after its headers (`socketTimeout`).
 * - `maxAttempts`: one retry, with the SDK's standard strategy, which backs off up to 50 ms after a timeout or a
 *   network error and up to 1 s after throttling (this SDK's constants).
 *
 * So one call ends within 2 × 1 s + 50 ms ≈ 2.05 s whatever DynamoDB does (throttled, then hanging: 1 s + 1 s).
 * Against the limits around it:
 * - The authorizer (5 s timeout, lib/api.ts): a warm authorizer makes one call per request (the admission write;
 *   key and account come from its cache), so a store that hangs is answered 503 after about 2 s. A cold cache makes
 *   three calls in a row, up to 6.2 s in the worst brownout, which is why the authorizer also stops at a deadline
 *   drawn from its remaining time (lambdas/authorizer/handler.ts) and answers 503 then: a Lambda timeout would be a
 *   500 (AUTHORIZER_CONFIGURATION_ERROR).
 * - The endpoint functions (10 s) and API Gateway's 29 s integration limit: an endpoint reads rates with one or two
 *   calls (a batch read retries unprocessed keys a few times more), so a store outage is its 503 within seconds,
 *   never API Gateway's 504.
 * The admin CLI, the backfill and the local server keep the SDK's defaults: they are not on a request's path, and
 * a slow local store must not fail a restore. (The local authorizer applies the same deadline to its transport,
 * local-server/local-authorizer.ts.)
 */
export const STORE_CALL_LIMITS = {
  connectionTimeoutMs: 300,
  requestTimeoutMs: 1_000,
  maxAttempts: 2,
} as const;

/** The variable that points every client at a local emulator instead of DynamoDB (see createDocumentClient). */
export const DYNAMODB_ENDPOINT_ENV = 'DYNAMODB_ENDPOINT';

/**
 * The throwaway credentials of a client pointed at a local emulator. DynamoDB Local keeps one database per access
 * key and region, so whatever shares its tables with these clients signs with the same key and region.
 */
export const LOCAL_ENDPOINT_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' } as const;

export interface ClientOptions {
  /** Apply STORE_CALL_LIMITS: timeouts on the SDK's HTTP handler (when it is not replaced) and bounded retries. */
  failFast?: boolean;
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
    config.maxAttempts = STORE_CALL_LIMITS.maxAttempts;
    config.retryMode = 'standard';
  }
  if (endpoint) {
    config.endpoint = endpoint;
    config.region = process.env.AWS_REGION ?? 'local';
    config.credentials = { ...LOCAL_ENDPOINT_CREDENTIALS };
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
 * A DynamoDB client without the SDK's logger middleware, which filters every call's input and output for a log
 * entry nobody receives, and with its config made fast in place (the middlewares hold that very object).
 */
// Why: docs/clever-parts.md#no-sdk-logger-middleware
function dynamoClient(config: DynamoDBClientConfig): DynamoDBClient {
  const client = new DynamoDBClient(config);
  client.middlewareStack.remove(SDK_LOGGER_MIDDLEWARE);
  // With tracing on (FXRATES_TRACING), each call becomes an X-Ray subsegment; the SDK that records it is loaded only
  // then (see xray.ts), so bundles and cold starts without tracing do not carry it.
  if (tracingEnabled()) traceClient(client);
  restoreFastProperties(client.config);
  return client;
}

/**
 * Builds a document client. On AWS the SDK's defaults apply unless `options.failFast` (STORE_CALL_LIMITS), which
 * the functions' module-scope clients below use; `DYNAMODB_ENDPOINT` points it at a local emulator (dynalite under
 * `npm start`, DynamoDB Local in tests) with throwaway credentials. `requestHandler` replaces the SDK's HTTP
 * transport (the local server's threads reach its store thread over message ports); the timeouts belong to the
 * SDK's transport, so a replaced one keeps only the bounded retries.
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
 * The low-level client for the one write every request makes (admission). With `cacheMiddleware` the SDK
 * resolves its middleware stack once per command type rather than on every call, which the document client
 * refuses to do. It sends through the document client's transport, so both share one connection pool and its
 * timeouts. Middleware must be added before its first request.
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
