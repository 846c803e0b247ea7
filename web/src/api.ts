/**
 * The dashboard API client: bearer ID token in, the envelope's `data` out, or an ApiFailure carrying the
 * envelope's error code for the page to put into words.
 */
import { isRecord } from './config';
import type { AccountData, CreatedKey, KeysData, PlansData, RevokedKey } from './types';

/** Codes of failures the page itself detects, beside the API's own. */
export const NETWORK_ERROR = 'network-error';
export const BAD_RESPONSE = 'bad-response';

export class ApiFailure extends Error {
  override name = 'ApiFailure';
  constructor(
    /** HTTP status, 0 when no answer came back. */
    readonly status: number,
    readonly code: string,
    message: string,
    readonly param?: string,
    /** From Retry-After, when the answer had one in seconds. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** Retry-After in seconds; the HTTP-date form is not parsed, as the API sends seconds. */
export function retryAfterSeconds(header: string | null): number | undefined {
  if (header === null || !/^\s*\d+\s*$/.test(header)) return undefined;
  return Number(header);
}

/** Reads one answer in the public API's envelope; throws ApiFailure for an error or anything not an envelope. */
export function parseEnvelope<T>(status: number, bodyText: string, retryAfter: string | null = null): T {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    throw new ApiFailure(status, BAD_RESPONSE, `the answer (HTTP ${status}) is not JSON`);
  }
  if (isRecord(body) && body.success === true && isRecord(body.data) && status >= 200 && status < 300) {
    return body.data as T;
  }
  if (isRecord(body) && body.success === false && isRecord(body.error) && typeof body.error.code === 'string') {
    const { code, message, param } = body.error;
    throw new ApiFailure(
      status,
      code,
      typeof message === 'string' ? message : '',
      typeof param === 'string' ? param : undefined,
      retryAfterSeconds(retryAfter),
    );
  }
  throw new ApiFailure(status, BAD_RESPONSE, `the answer (HTTP ${status}) is not in the API's envelope`);
}

export interface DashboardApi {
  account(): Promise<AccountData>;
  listKeys(): Promise<KeysData>;
  createKey(name: string): Promise<CreatedKey>;
  revokeKey(id: string): Promise<RevokedKey>;
  plans(): Promise<PlansData>;
}

export function createDashboardApi(options: {
  /** e.g. `/api`, without a trailing slash. */
  base: string;
  fetch: typeof fetch;
  /** The current ID token, or null when signed out or about to expire. */
  idToken: () => string | null;
  /** Tried once without a current token and once on a 401, before the page asks to sign in again. */
  refresh?: () => Promise<boolean>;
}): DashboardApi {
  const renewed = async (): Promise<string | null> =>
    options.refresh && (await options.refresh()) ? options.idToken() : null;

  async function send(method: string, path: string, token: string, body?: object): Promise<Response> {
    // The raw ID token, with no scheme: what API Gateway's Cognito user pool authorizer reads from the header.
    const headers: Record<string, string> = { Authorization: token, Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    try {
      return await options.fetch(`${options.base}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: 'omit',
      });
    } catch (error) {
      throw new ApiFailure(0, NETWORK_ERROR, error instanceof Error ? error.message : String(error));
    }
  }

  async function call<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: object): Promise<T> {
    const token = options.idToken() ?? (await renewed());
    if (token === null) throw new ApiFailure(401, 'unauthenticated', 'not signed in');
    let response = await send(method, path, token, body);
    if (response.status === 401) {
      // A token the API no longer accepts (a server whose pool changed, a clock that disagrees): renewed once.
      const fresh = await renewed();
      if (fresh !== null) response = await send(method, path, fresh, body);
    }
    const text = await response.text().catch(() => '');
    return parseEnvelope<T>(response.status, text, response.headers.get('retry-after'));
  }

  return {
    account: () => call('GET', '/account'),
    listKeys: () => call('GET', '/keys'),
    createKey: (name) => call('POST', '/keys', { name }),
    revokeKey: (id) => call('DELETE', `/keys/${encodeURIComponent(id)}`),
    plans: () => call('GET', '/plans'),
  };
}
