import { addDays, daysBetween, formatDay } from '../domain/dates';
import { NoDataAvailableError, NoFallbackDataError } from '../domain/errors';
import { crossRate, type RateSnapshot, SETTLED_AFTER_DAYS } from '../domain/rates';
import { pathParams, singleQuery } from '../http/api-handler';
import { readHistoryInput } from '../http/parameters';
import { successResponse } from '../http/responses';
import { UNSETTLED_CACHE_CONTROL } from '../http/routes';
import type { RateReader } from '../service/rate-reader';
import { sourcesOf, storeRead } from './current-rates';
import { lambdaEndpointDeps } from './deps';
import { defineEndpoint } from './endpoint';
import { requireHistoryCodes, requireHistoryPlan } from './history-access';

/** How far `fallback=previous` looks back: a week covers a weekend and the longest closure (Easter, 4 days). */
export const FALLBACK_DAYS = 7;

interface Served {
  day: string;
  snapshot: RateSnapshot;
  rate: number;
}

/**
 * The requested day's rate or, with `fallback`, the nearest of the 7 earlier days that has one. The requested
 * day is read first; only when it lacks the pair are the 7 earlier days read, all at once, each through the
 * reader's cache: 8 reads at most, cold.
 */
async function servedDay(
  reader: RateReader,
  from: string,
  to: string,
  date: string,
  fallback: boolean,
): Promise<Served | undefined> {
  const requested = await storeRead(() => reader.getDay(date));
  const rate = requested ? crossRate(requested.rates, from, to) : undefined;
  if (requested && rate !== undefined) return { day: date, snapshot: requested, rate };
  if (!fallback) return undefined;
  const earlier = Array.from({ length: FALLBACK_DAYS }, (_, i) => addDays(date, -(i + 1)));
  const snapshots = await storeRead(() => Promise.all(earlier.map((day) => reader.getDay(day))));
  for (const [i, snapshot] of snapshots.entries()) {
    const earlierRate = snapshot ? crossRate(snapshot.rates, from, to) : undefined;
    if (snapshot && earlierRate !== undefined) return { day: earlier[i] as string, snapshot, rate: earlierRate };
  }
  return undefined;
}

/** GET /v1/rates/history/{from}/{to}/{date} */
export const endpoint = defineEndpoint({
  route: 'history',
  lambdaDeps: lambdaEndpointDeps,
  create: (deps) => async (event) => {
    const today = formatDay(deps.clock());
    const { from, to, date, fallback, expand } = readHistoryInput(
      { path: pathParams(event), query: singleQuery(event, ['fallback', 'expand']) },
      today,
    );
    await requireHistoryCodes(deps, from, to);
    // The plan judges the requested date: a fallback may serve a day before the window's first.
    requireHistoryPlan(event, today, date, 'date');
    const served = await servedDay(deps.reader, from, to, date, fallback === 'previous');
    if (!served) {
      if (fallback === 'previous') throw new NoFallbackDataError(from, to, date, FALLBACK_DAYS);
      throw new NoDataAvailableError(from, to, date);
    }
    const data = {
      base: from,
      target: to,
      date,
      ...(fallback === 'previous' ? { effective_date: served.day } : {}),
      rate: served.rate,
      published_at: served.snapshot.publishedAt,
      ...(expand === 'sources' ? { sources: sourcesOf(served.snapshot, [from, to]) } : {}),
    };
    // The requested day's own rate may still arrive (a late source): such an answer can change, so not immutable.
    const recentFallback = served.day !== date && daysBetween(date, today) <= SETTLED_AFTER_DAYS;
    return successResponse(data, recentFallback ? { cacheControl: UNSETTLED_CACHE_CONTROL } : {});
  },
});
