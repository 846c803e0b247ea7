/**
 * Typed failures of the upstream sources. Every way a fetch or a parse can go wrong ends in one of these, so the
 * ingestion can report a source as down with a reason instead of crashing on whatever the network delivered.
 */
export type SourceErrorKind = 'http' | 'timeout' | 'too-large' | 'network' | 'format';

export class SourceError extends Error {
  constructor(
    readonly kind: SourceErrorKind,
    message: string,
    readonly url?: string,
  ) {
    super(message);
    this.name = 'SourceError';
  }
}

export class SourceHttpError extends SourceError {
  constructor(
    url: string,
    readonly status: number,
  ) {
    super('http', `HTTP ${status} from ${url}`, url);
    this.name = 'SourceHttpError';
  }
}

export class SourceTimeoutError extends SourceError {
  constructor(url: string, timeoutMs: number) {
    super('timeout', `no complete response from ${url} within ${timeoutMs} ms`, url);
    this.name = 'SourceTimeoutError';
  }
}

export class SourceTooLargeError extends SourceError {
  constructor(url: string, maxBytes: number) {
    super('too-large', `response from ${url} exceeds ${maxBytes} bytes`, url);
    this.name = 'SourceTooLargeError';
  }
}

export class SourceNetworkError extends SourceError {
  constructor(url: string, cause: unknown) {
    super('network', `request to ${url} failed: ${networkReason(cause)}`, url);
    this.name = 'SourceNetworkError';
  }
}

/** The body arrived but is not what the source publishes: truncated, HTML, hostile XML, bad numbers. */
export class SourceFormatError extends SourceError {
  constructor(message: string, url?: string) {
    super('format', url ? `${message} (${url})` : message, url);
    this.name = 'SourceFormatError';
  }
}

const messageOf = (value: unknown): string | undefined =>
  typeof value === 'object' && value !== null && typeof (value as { message?: unknown }).message === 'string'
    ? (value as { message: string }).message
    : undefined;

/**
 * fetch() wraps the useful reason (ECONNREFUSED, ENOTFOUND) in `cause`. Duck-typed, because errors from Node's
 * own fetch are not `instanceof Error` in every realm (a test sandbox, for one).
 */
function networkReason(error: unknown): string {
  const cause = typeof error === 'object' && error !== null ? (error as { cause?: unknown }).cause : undefined;
  return messageOf(cause) ?? messageOf(error) ?? String(error);
}

/** Parsers do not know where the text came from; adapters add the URL to their errors. */
export function withUrl<T>(url: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof SourceFormatError && error.url === undefined) throw new SourceFormatError(error.message, url);
    throw error;
  }
}

/** The message of a failed fetch, for a run's warnings. */
export function errorMessage(error: unknown): string {
  return String((error as Error)?.message ?? error);
}
