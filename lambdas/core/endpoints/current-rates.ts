/** What the rate endpoints share: today's snapshot restricted to the served currencies, and store reads judged. */
import { isActiveCode } from '../domain/currencies';
import { ServiceUnavailableError, UnsupportedCurrencyError } from '../domain/errors';
import { crossRate, PIVOT, type RateSnapshot, SOURCE_IDS, type SourceId } from '../domain/rates';
import { STORE_UNAVAILABLE_RETRY_AFTER_SECONDS } from '../http/middleware';
import { logger } from '../observability';
import { isStoreUnavailable } from '../store/store-errors';
import type { EndpointDeps } from './deps';

/**
 * A store read, judged as the authorizer judges its own: a store that timed out, throttled past the SDK's retries,
 * was unreachable or answered 5xx is an outage, answered 503 with the authorizer's Retry-After so clients retry.
 * Anything else (a missing table, a refused permission, a malformed request) is a fault of the deployment that no
 * retry cures: it is rethrown, and the error handler answers 500 internal-error and logs it with its cause.
 */
export async function storeRead<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (!isStoreUnavailable(error)) throw error;
    logger.warn('rate store unavailable: answered 503', { error: error as Error });
    throw new ServiceUnavailableError(undefined, STORE_UNAVAILABLE_RETRY_AFTER_SECONDS);
  }
}

/**
 * The latest snapshot, read once per request, and its rates restricted to the currencies served today
 * (withdrawn codes only live in history).
 */
export async function current(deps: EndpointDeps): Promise<{ snapshot: RateSnapshot; rates: Record<string, number> }> {
  const snapshot = await storeRead(() => deps.reader.getLatest());
  if (!snapshot) throw new ServiceUnavailableError('No rate data has been ingested yet; please retry later.');
  const rates = deps.reader.memo(snapshot, 'active', () => {
    const active: Record<string, number> = {};
    for (const [code, rate] of Object.entries(snapshot.rates)) if (isActiveCode(code)) active[code] = rate;
    return active;
  });
  return { snapshot, rates };
}

export function requireServed(rates: Record<string, number>, code: string, param: 'from' | 'to' | 'base'): void {
  if (rates[code] === undefined) throw new UnsupportedCurrencyError(code, param);
}

/** Today's rate between two served currencies with the snapshot it comes from (its publication, its sources). */
export async function currentPair(
  deps: EndpointDeps,
  from: string,
  to: string,
): Promise<{ rate: number; snapshot: RateSnapshot }> {
  const { snapshot, rates } = await current(deps);
  requireServed(rates, from, 'from');
  requireServed(rates, to, 'to');
  return { rate: crossRate(rates, from, to) as number, snapshot };
}

/**
 * `sources` of `expand=sources`: each code to the source of its quote against the euro in the snapshot. EUR has
 * no entry: it is the pivot both sources quote against.
 */
export function sourcesOf(snapshot: RateSnapshot, codes: Iterable<string>): Record<string, SourceId> {
  const sources: Record<string, SourceId> = {};
  for (const code of codes) {
    const source = snapshot.sources[code];
    if (code !== PIVOT && source !== undefined) sources[code] = source;
  }
  return sources;
}

/** The sources feeding a snapshot, in precedence order; every configured one when it names none. */
export function feedingSources(snapshot: RateSnapshot): readonly SourceId[] {
  const feeding = new Set(Object.values(snapshot.sources));
  const named = SOURCE_IDS.filter((id) => feeding.has(id));
  return named.length > 0 ? named : SOURCE_IDS;
}
