import {
  code,
  currencyDoc,
  dayDoc,
  EXPAND_DOC,
  object,
  publishedAt,
  type RouteDocs,
  ref,
  WITHDRAWN_RULE,
} from '../../../api-docs/route-docs';
import { addDays, daysBetween, formatDay } from '../domain/dates';
import { NoDataAvailableError, NoFallbackDataError } from '../domain/errors';
import { crossRate, type RateSnapshot, SETTLED_AFTER_DAYS } from '../domain/rates';
import { pathAndQuery } from '../http/api-handler';
import { accessOf } from '../http/middleware';
import {
  documented,
  EXPAND,
  type Expand,
  FALLBACK,
  type Fallback,
  MAX_PARAMETER_LENGTH,
  type Parameter,
  type RawParameters,
  readAll,
  readDay,
  sameAllDay,
} from '../http/parameters';
import { successBody, successResponse } from '../http/responses';
import { UNSETTLED_CACHE_CONTROL } from '../http/routes';
import { LruCache } from '../service/lru-cache';
import type { RateReader } from '../service/rate-reader';
import { sourcesOf, storeRead } from './current-rates';
import { lambdaEndpointDeps } from './deps';
import { defineEndpoint } from './endpoint';
import { PAST_PAIR, requireHistoryCodes, requireHistoryPlan } from './history-access';

/** How far `fallback=previous` looks back: a week covers a weekend and the longest closure (Easter, 4 days). */
export const FALLBACK_DAYS = 7;

/** The parameters, in reading order; the date is judged against `today` (UTC). */
const parameters = /* @__PURE__ */ sameAllDay((today: string) => ({
  ...PAST_PAIR,
  date: { in: 'path', read: (raw: string) => readDay(raw, today) } satisfies Parameter<string>,
  fallback: FALLBACK,
  expand: EXPAND,
}));

/**
 * `from`/`to` (withdrawn codes included), `date` (judged against `today`, UTC) and the optional `fallback` and
 * `expand` of GET /rates/history, path and query checked together.
 */
export function readHistoryInput(
  request: RawParameters,
  today: string,
): { from: string; to: string; date: string; fallback: Fallback | undefined; expand: Expand | undefined } {
  return readAll(parameters(today), request);
}

interface Served {
  day: string;
  snapshot: RateSnapshot;
  rate: number;
}

/** The days `fallback=previous` looks at, nearest first, remembered for the most recently requested days. */
const earlierDays = new LruCache<readonly string[]>(1024);

function daysBefore(date: string): readonly string[] {
  const held = earlierDays.get(date);
  if (held) return held.value;
  const days = Array.from({ length: FALLBACK_DAYS }, (_, i) => addDays(date, -(i + 1)));
  earlierDays.set(date, days);
  return days;
}

/** The days' snapshots when memory holds every one of them, else undefined (then they are read together). */
function cachedDays(reader: RateReader, days: readonly string[]): (RateSnapshot | undefined)[] | undefined {
  const snapshots: (RateSnapshot | undefined)[] = [];
  for (const day of days) {
    const cached = reader.cachedDay(day);
    if (!cached) return undefined;
    snapshots.push(cached.value);
  }
  return snapshots;
}

/**
 * The requested day's rate or, with `fallback`, the nearest of the 7 earlier days that has one. The requested
 * day is read first; only when it lacks the pair are the 7 earlier days read, all at once, each through the
 * reader's cache: 8 reads at most, cold. Days the cache holds are taken from it without a promise.
 */
async function servedDay(
  reader: RateReader,
  from: string,
  to: string,
  date: string,
  fallback: boolean,
): Promise<Served | undefined> {
  // A pair's rate on a past day is computed once per day's snapshot: its rounding was about half the warm handler's time.
  const rateKey = `rate:${from}:${to}`;
  const rateOf = (snapshot: RateSnapshot) => reader.memo(snapshot, rateKey, () => crossRate(snapshot.rates, from, to));
  const held = reader.cachedDay(date);
  const requested = held ? held.value : await storeRead(() => reader.getDay(date));
  const rate = requested ? rateOf(requested) : undefined;
  if (requested && rate !== undefined) return { day: date, snapshot: requested, rate };
  if (!fallback) return undefined;
  const earlier = daysBefore(date);
  const snapshots =
    cachedDays(reader, earlier) ?? (await storeRead(() => Promise.all(earlier.map((day) => reader.getDay(day)))));
  for (const [i, snapshot] of snapshots.entries()) {
    const earlierRate = snapshot ? rateOf(snapshot) : undefined;
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
    const { from, to, date, fallback, expand } = readHistoryInput(pathAndQuery(event, ['fallback', 'expand']), today);
    await requireHistoryCodes(deps, from, to);
    // The plan judges the requested date: a fallback may serve a day before the window's first.
    requireHistoryPlan(accessOf(event).plan, today, date, 'date');
    const served = await servedDay(deps.reader, from, to, date, fallback === 'previous');
    if (!served) {
      if (fallback === 'previous') throw new NoFallbackDataError(from, to, date, FALLBACK_DAYS);
      throw new NoDataAvailableError(from, to, date);
    }
    const render = () => ({
      base: from,
      target: to,
      date,
      ...(fallback === 'previous' ? { effective_date: served.day } : {}),
      rate: served.rate,
      published_at: served.snapshot.publishedAt,
      ...(expand === 'sources' ? { sources: sourcesOf(served.snapshot, [from, to]) } : {}),
    });
    // The answer depends on the served day's snapshot, the requested day, the pair and the options only: rendered
    // once per snapshot, as latest's body is (a warm cached day took 1.4 to 1.7 times latest's handler time, not 2.8;
    // one that fell back, 3.3 times). A day that gains its rate late is served from its own, new snapshot.
    const kind = served.day === date ? 'history' : 'history-fallback';
    const key = `${kind}:${date}:${from}:${to}:${fallback ?? ''}:${expand ?? ''}`;
    const body = deps.reader.memo(served.snapshot, key, () => successBody(render()));
    if (served.day === date) return successResponse(undefined, { body });
    // The requested day's own rate may still arrive (a late source): such an answer can change, so not immutable.
    const recentFallback = daysBetween(date, today) <= SETTLED_AFTER_DAYS;
    return successResponse(undefined, recentFallback ? { body, cacheControl: UNSETTLED_CACHE_CONTROL } : { body });
  },
});

/** The route's part of the API reference (api-docs/); never called in a function, so never bundled. */
export function docs(): RouteDocs {
  return {
    tag: 'Rates',
    notes:
      "The rate of that day's snapshot, with no fallback to an earlier day unless `fallback=previous` is given. " +
      'Free: not included (403). Pro: ' +
      'dates from one year before today (UTC, same month and day). Business: every day with data, the ECB ' +
      'history since 1999-01-04. Order of checks: a currency that is not supported (422) comes before the plan ' +
      '(403), which comes before the data (404).\n\n' +
      '**Weekends and holidays.** The ECB publishes its reference rates on TARGET business days only, around ' +
      '16:00 CET: not on Saturdays, Sundays, 1 January, Good Friday, Easter Monday, 1 May, 25 and 26 December. ' +
      'currency-api publishes every day. So a weekend or holiday has no ECB row, and a currency only the ECB ' +
      'quotes that day has no rate: 404 `no-data-available`. With `fallback=previous` such a day answers with ' +
      'the nearest earlier day that has a rate for the pair, at most 7 days back: `date` stays the requested ' +
      'day and `effective_date` names the day served (equal to `date` when it has a rate). Nothing within 7 ' +
      'days is still 404. The plan judges the requested date, so a Pro request on the first day of its window ' +
      'may be served a day before it. The requested day is read first; only when it lacks the pair are the 7 ' +
      'days before it read, together (8 day reads at most, each cached, beside the cached latest snapshot the ' +
      'currency check reads).\n\n' +
      '**Caching.** An answer that fell back, for a day at most 7 days before today (UTC), can change when that ' +
      "day's rate arrives late, so it carries `Cache-Control: private, max-age=3600` instead of the immutable " +
      'policy; older answers are final.',
    // The readers are not run: any day stands for today.
    parameters: documented(parameters(''), {
      from: currencyDoc(`The base currency. ${WITHDRAWN_RULE}`, 'USD'),
      to: currencyDoc(`The target currency. ${WITHDRAWN_RULE}`, 'CHF'),
      date: dayDoc('The day, `YYYY-MM-DD`: a real calendar day, not after today (UTC).', '2026-04-13'),
      fallback: {
        description:
          'What to serve for a day without a rate for the pair. Absent: 404 `no-data-available`. `previous`: the ' +
          'nearest earlier day that has one, at most 7 days back (`effective_date` names it; `date` stays the ' +
          'requested day); nothing within 7 days is still 404 `no-data-available`. The ECB publishes reference ' +
          'rates on TARGET business days only (not Saturdays, Sundays, 1 January, Good Friday, Easter Monday, ' +
          '1 May, 25 and 26 December), so its currencies have no rate on those days; currency-api publishes ' +
          'daily. Plan rules apply to the requested date. Any other value, empty included, is ' +
          '`invalid-parameter`.',
        schema: { type: 'string', enum: ['previous'], maxLength: MAX_PARAMETER_LENGTH },
        example: 'previous',
        errors: [],
      },
      expand: EXPAND_DOC,
    }),
    errors: ['plan-upgrade-required', 'no-data-available', 'service-unavailable'],
    data: {
      name: 'HistoricalRate',
      schema: object(
        {
          base: code('The `from` currency.', 'USD'),
          target: code('The `to` currency.', 'CHF'),
          date: { type: 'string', format: 'date', description: 'The requested day.', examples: ['2026-04-13'] },
          effective_date: {
            type: 'string',
            format: 'date',
            description:
              'Only with `fallback=previous`: the day whose rate is served, `date` itself when that day has a rate, ' +
              'else the nearest of the 7 days before it that has one.',
            examples: ['2026-04-10'],
          },
          rate: {
            ...ref('Rate'),
            description:
              "The rate of the day's snapshot; without `fallback`, never an earlier day's. With " +
              "`fallback=previous`, the rate of `effective_date`'s snapshot.",
          },
          published_at: publishedAt("the served day's snapshot (`effective_date`'s with a fallback)"),
          sources: {
            ...ref('QuoteSources'),
            description:
              'Only with `expand=sources`: the base and the target, except EUR, to the source of their quote against the euro on the served day. EUR has no entry: it is the pivot both sources quote against.',
          },
        },
        ['base', 'target', 'date', 'rate', 'published_at'],
      ),
    },
    example: {
      base: 'USD',
      target: 'CHF',
      date: '2026-04-13',
      rate: 0.81543,
      published_at: '2026-04-13T14:00:00Z',
    },
    shorterCacheControl: {
      value: UNSETTLED_CACHE_CONTROL,
      when:
        'an answer that fell back (`fallback=previous`, `effective_date` before `date`) for a day at most 7 days ' +
        "before today (UTC): that day's rate may still arrive",
    },
  };
}
