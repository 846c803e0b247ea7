/**
 * Which DynamoDB failures mean "the store is down or overloaded right now" (503 with Retry-After) rather than "this
 * deployment is wrong" (500). Matched by name, code and status rather than by class, so errors that crossed a thread
 * boundary or came from another copy of the SDK are judged alike; no SDK import keeps it out of endpoint bundles.
 */

interface KnownFailures {
  names: Set<string>;
  /** Node's network errors: the endpoint refused, reset, unreachable or unresolvable. */
  codes: Set<string>;
}

/** Built at the first failed store call, not at load: a cold start that reads the store without failing needs none. */
let known: KnownFailures | undefined;

function knownFailures(): KnownFailures {
  known ??= {
    names: new Set([
      // Timeouts: the SDK's own (connection and request timeouts) and DynamoDB's.
      'TimeoutError',
      'RequestTimeout',
      'RequestTimeoutException',
      // Throttling that outlasted the SDK's retries, and DynamoDB's server-side failures.
      'ProvisionedThroughputExceededException',
      'RequestLimitExceeded',
      'ThrottlingException',
      'Throttling',
      'TooManyRequestsException',
      'InternalServerError',
      'InternalFailure',
      'ServiceUnavailable',
      'ServiceUnavailableException',
    ]),
    codes: new Set([
      'ECONNREFUSED',
      'ECONNRESET',
      'ECONNABORTED',
      'ETIMEDOUT',
      'EPIPE',
      'ENOTFOUND',
      'EAI_AGAIN',
      'EHOSTUNREACH',
      'EHOSTDOWN',
      'ENETUNREACH',
      'ENETDOWN',
    ]),
  };
  return known;
}

interface ErrorShape {
  name?: unknown;
  code?: unknown;
  cause?: unknown;
  $metadata?: { httpStatusCode?: unknown };
}

/** Follows `cause` a few levels, as the SDK wraps. */
export function isStoreUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 4) return false;
  const e = error as ErrorShape;
  const { names, codes } = knownFailures();
  if (typeof e.name === 'string' && names.has(e.name)) return true;
  if (typeof e.code === 'string' && codes.has(e.code)) return true;
  const status = e.$metadata?.httpStatusCode;
  if (typeof status === 'number' && (status >= 500 || status === 429)) return true;
  return isStoreUnavailable(e.cause, depth + 1);
}
