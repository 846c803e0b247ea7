import { code, currencyDoc, dayDoc, object, type RouteDocs, ref, WITHDRAWN_RULE } from '../../../api-docs/route-docs';
import { daysBetween, formatDay } from '../domain/dates';
import { ApiError, InvalidParameterError, NoSeriesDataError, ServiceUnavailableError } from '../domain/errors';
import type { PlanId } from '../domain/plans';
import { SETTLED_AFTER_DAYS } from '../domain/rates';
import {
  daysInclusive,
  SERIES_VERSION,
  type SeriesPoint,
  type SeriesSummary,
  summarize,
  withinRange,
  yearsOf,
} from '../domain/series';
import { pathAndQuery } from '../http/api-handler';
import { acceptsCsv, CSV_CONTENT_TYPE, seriesCsv } from '../http/csv';
import { headerValue } from '../http/headers';
import { accessOf } from '../http/middleware';
import {
  documented,
  MAX_PARAMETER_LENGTH,
  MAX_SERIES_DAYS,
  type Parameter,
  type RawParameters,
  readAll,
  readDay,
  SERIES_FORMAT,
  SERIES_FORMATS,
  type SeriesFormat,
  sameAllDay,
} from '../http/parameters';
import { RawNumber, successResponse } from '../http/responses';
import { TIMESERIES_CACHE_CONTROL } from '../http/routes';
import type { RateReader } from '../service/rate-reader';
import { storeRead } from './current-rates';
import { type EndpointDeps, lambdaEndpointDeps } from './deps';
import { defineEndpoint } from './endpoint';
import { PAST_PAIR, requireHistoryCodes, requireHistoryPlan } from './history-access';

/** The range's ends, judged against `today` (UTC). */
const range = /* @__PURE__ */ sameAllDay((today: string) => ({
  start: { in: 'query', read: (raw: string) => readDay(raw, today, 'start') } satisfies Parameter<string>,
  end: { in: 'query', read: (raw: string) => readDay(raw, today, 'end') } satisfies Parameter<string>,
}));

/** The parameters, in reading order. */
const parameters = /* @__PURE__ */ sameAllDay((today: string) => ({
  ...PAST_PAIR,
  ...range(today),
  format: SERIES_FORMAT,
}));

/** `start` after `end`, or more than MAX_SERIES_DAYS days, is a 400. */
function checkRange({ start, end }: { start: string; end: string }): void {
  if (start > end) throw new InvalidParameterError('start', `The start ${start} is after the end ${end}.`);
  const days = daysInclusive(start, end);
  if (days > MAX_SERIES_DAYS) {
    throw new InvalidParameterError(
      'end',
      `The range from ${start} to ${end} covers ${days} days; at most ${MAX_SERIES_DAYS} are allowed.`,
    );
  }
}

/**
 * `from`/`to` (withdrawn codes included), `start` and `end` (both required, judged against `today`, UTC) and the
 * optional `format` of GET /rates/timeseries, checked together; then the range itself: `start` after `end`, or
 * more than MAX_SERIES_DAYS days, is a 400 (after every single parameter is known to be well-formed).
 */
export function readTimeseriesInput(
  request: RawParameters,
  today: string,
): { from: string; to: string; start: string; end: string; format: SeriesFormat | undefined } {
  try {
    const input = readAll(parameters(today), request);
    checkRange(input);
    return input;
  } catch (error) {
    // A range that is malformed as a whole is a 400 too, and outranks an unsupported currency (422).
    if (error instanceof ApiError && error.status > 400) checkRange(readAll(range(today), request));
    throw error;
  }
}

/**
 * The pair's points from `start` to `end`: one series item per currency and calendar year (a range of at most
 * 366 days touches two years), all read at once through the reader's cache. At most 4 GetItems cold (6 per call
 * with LATEST and the series marker), none warm.
 */
async function seriesPoints(
  reader: RateReader,
  from: string,
  to: string,
  start: string,
  end: string,
): Promise<SeriesPoint[]> {
  const years = yearsOf(start, end);
  const items = await Promise.all(
    years.map((year) => Promise.all([reader.getSeries(from, year), reader.getSeries(to, year)])),
  );
  const points: SeriesPoint[] = [];
  for (const [fromYear, toYear] of items) {
    if (fromYear && toYear) points.push(...withinRange(reader.pairPoints(fromYear, toYear), start, end));
  }
  return points;
}

export const SERIES_NOT_BUILT = 'The time series are being built from the stored days; please retry in a few minutes.';

/**
 * The use case: the pair's daily rates from `start` to `end` with their summary, once the currencies, the plan
 * (whose window must hold the whole range, judged by its first day) and the data allow it.
 */
async function pairSeries(
  deps: EndpointDeps,
  query: { from: string; to: string; start: string; end: string; plan: PlanId | undefined; today: string },
): Promise<{ points: SeriesPoint[]; summary: SeriesSummary }> {
  const { from, to, start, end, plan, today } = query;
  await requireHistoryCodes(deps, from, to);
  requireHistoryPlan(plan, today, start, 'start');
  // Until the table's series are built (a stack upgraded from a version without them, before the ingest function
  // has rebuilt them), an empty or partial series would pass for real data, final and immutable.
  const [ready, points] = await storeRead(() =>
    Promise.all([deps.reader.seriesReady(SERIES_VERSION), seriesPoints(deps.reader, from, to, start, end)]),
  );
  if (!ready) throw new ServiceUnavailableError(SERIES_NOT_BUILT);
  const summary = summarize(points);
  if (!summary) throw new NoSeriesDataError(from, to, start, end);
  return { points, summary };
}

/** GET /v1/rates/timeseries/{from}/{to}?start=&end=[&format=json|csv]: the adapter of `pairSeries`. */
export const endpoint = defineEndpoint({
  route: 'timeseries',
  lambdaDeps: lambdaEndpointDeps,
  create: (deps) => async (event) => {
    const today = formatDay(deps.clock());
    const { from, to, start, end, format } = readTimeseriesInput(
      pathAndQuery(event, ['start', 'end', 'format']),
      today,
    );
    const { points, summary } = await pairSeries(deps, { from, to, start, end, plan: accessOf(event).plan, today });
    const cacheControl =
      daysBetween(end, today) > SETTLED_AFTER_DAYS ? TIMESERIES_CACHE_CONTROL.final : TIMESERIES_CACHE_CONTROL.recent;
    // An explicit format wins; otherwise Accept decides. Either way the answer depends on Accept.
    const csv = format === undefined ? acceptsCsv(headerValue(event.headers, 'Accept')) : format === 'csv';
    if (csv) {
      return {
        statusCode: 200,
        headers: {
          'Content-Type': CSV_CONTENT_TYPE,
          'Content-Disposition': `attachment; filename="${from}-${to}-${start}-${end}.csv"`,
          'Cache-Control': cacheControl,
          Vary: 'Accept',
        },
        body: seriesCsv(points),
      };
    }
    const response = successResponse(
      {
        base: from,
        target: to,
        start,
        end,
        rates: points,
        summary: {
          first: summary.first,
          last: summary.last,
          change: new RawNumber(summary.change),
          change_pct: new RawNumber(summary.changePct),
          min: summary.min,
          max: summary.max,
        },
      },
      { cacheControl },
    );
    response.headers.Vary = 'Accept';
    return response;
  },
});

const CSV_EXAMPLE = 'date,rate\r\n2026-09-28,150.21\r\n2026-09-29,149.87\r\n';

/** The route's part of the API reference (api-docs/); never called in a function, so never bundled. */
export function docs(): RouteDocs {
  return {
    tag: 'Rates',
    notes:
      'One entry per day from `start` to `end` on which both currencies have a rate (no rows are invented for ' +
      'weekends or holidays), ascending; each rate is exactly what history answers for that pair and day. ' +
      '`summary`: the first and last entries, `change` (`last − first`, exact) and `change_pct` (`change / first ' +
      '× 100`, rounded half-even to 4 places), and the lowest and highest rates with their days (on a tie, the ' +
      'earliest). At most 366 days, both ends included. Free: not included (403). Pro: the whole range within one ' +
      'year before today (UTC, same month and day), judged by `start`. Business: every day since 1999-01-04. ' +
      'Order of checks: malformed input (400) before an unsupported currency (422), then the plan (403), then the ' +
      'data (404, when no day of the range has a rate for the pair). `format=csv`, or `Accept: text/csv` without ' +
      '`format`, returns `text/csv` (`date,rate` rows after a header, CRLF line ends) as an attachment named ' +
      '`<FROM>-<TO>-<start>-<end>.csv`; both variants carry `Vary: Accept` and have different `ETag`s; errors ' +
      'are JSON either way. Cost: at most 6 reads of the rate store when nothing is cached (the latest snapshot ' +
      'for the currency check, the series marker, and one item per currency and calendar year), none once ' +
      'cached. On a deployment upgraded from a version without time series, the answer is 503 ' +
      '`service-unavailable` until the ingest function has built them from the stored days (its next run, or ' +
      'an invocation with `{"mode": "series"}`).',
    parameters: timeSeriesParameters(),
    errors: ['plan-upgrade-required', 'no-data-available', 'service-unavailable'],
    data: timeSeriesData(),
    example: {
      base: 'USD',
      target: 'JPY',
      start: '2026-09-28',
      end: '2026-09-29',
      rates: [
        { date: '2026-09-28', rate: 150.21 },
        { date: '2026-09-29', rate: 149.87 },
      ],
      summary: {
        first: { date: '2026-09-28', rate: 150.21 },
        last: { date: '2026-09-29', rate: 149.87 },
        change: -0.34,
        change_pct: -0.2263,
        min: { date: '2026-09-29', rate: 149.87 },
        max: { date: '2026-09-28', rate: 150.21 },
      },
    },
    shorterCacheControl: {
      value: TIMESERIES_CACHE_CONTROL.recent,
      when: 'a range whose `end` is at most 7 days before today (UTC): those days can still gain currencies',
    },
    successHeaders: {
      Vary: {
        description: 'The body depends on `Accept` (CSV or JSON), on both variants.',
        schema: { type: 'string', const: 'Accept' },
        required: true,
      },
      'Content-Disposition': {
        description: 'CSV only: `attachment; filename="<FROM>-<TO>-<start>-<end>.csv"`.',
        schema: { type: 'string' },
        required: false,
        example: 'attachment; filename="USD-JPY-2026-09-28-2026-09-29.csv"',
      },
    },
    otherContent: {
      'text/csv': {
        schema: {
          type: 'string',
          description:
            'A header line `date,rate`, then one line per entry of `rates` (the same days and rates as the JSON, ' +
            'rates as plain decimals), each line ended by CRLF.',
          pattern: '^date,rate\\r\\n(\\d{4}-\\d{2}-\\d{2},\\d+(\\.\\d+)?\\r\\n)+$',
          examples: [CSV_EXAMPLE],
        },
        example: CSV_EXAMPLE,
      },
    },
  };
}

/** The route's parameters as documented; the readers are not run, so any day stands for today. */
function timeSeriesParameters() {
  return documented(parameters(''), {
    from: currencyDoc(`The base currency. ${WITHDRAWN_RULE}`, 'USD'),
    to: currencyDoc(`The target currency. ${WITHDRAWN_RULE}`, 'JPY'),
    start: dayDoc(
      'The first day of the range, `YYYY-MM-DD`: a real calendar day, not after today (UTC), and not after ' +
        '`end` (else `invalid-parameter`).',
      '2025-10-01',
    ),
    end: dayDoc(
      `The last day of the range, \`YYYY-MM-DD\`, not after today (UTC). At most ${MAX_SERIES_DAYS} days ` +
        'from `start` to `end`, both included (a leap year); a longer range is `invalid-parameter`.',
      '2026-09-29',
    ),
    format: {
      description:
        '`json` (the envelope) or `csv` (`date,rate` rows after a header line, CRLF line ends, as an ' +
        'attachment). Without it, `Accept: text/csv` asks for CSV; given, it wins over `Accept`. Any other ' +
        'value is `invalid-parameter`. Errors are JSON either way.',
      schema: { type: 'string', enum: SERIES_FORMATS, maxLength: MAX_PARAMETER_LENGTH },
      example: 'json',
      errors: [],
    },
  });
}

function timeSeriesData(): RouteDocs['data'] {
  return {
    name: 'TimeSeries',
    schema: object(
      {
        base: code('The base currency.', 'USD'),
        target: code('The target currency.', 'JPY'),
        start: { ...ref('Day'), description: 'The first day of the range, as requested.' },
        end: { ...ref('Day'), description: 'The last day of the range, as requested.' },
        rates: {
          type: 'array',
          minItems: 1,
          maxItems: MAX_SERIES_DAYS,
          description:
            'One entry per day of the range on which both currencies have a rate, ascending; no entry for a ' +
            "weekend or holiday without one. Each rate is what history answers for that day's pair.",
          items: ref('SeriesPoint'),
        },
        summary: object(
          {
            first: { ...ref('SeriesPoint'), description: 'The first entry.' },
            last: { ...ref('SeriesPoint'), description: 'The last entry.' },
            change: {
              type: 'number',
              description: '`last.rate − first.rate`, exact (decimal arithmetic).',
              examples: [-2.39],
            },
            change_pct: {
              type: 'number',
              description: '`change / first.rate × 100`, rounded half-even to 4 decimal places.',
              examples: [-1.5929],
            },
            min: { ...ref('SeriesPoint'), description: 'The lowest rate; on a tie, its earliest day.' },
            max: { ...ref('SeriesPoint'), description: 'The highest rate; on a tie, its earliest day.' },
          },
          ['first', 'last', 'change', 'change_pct', 'min', 'max'],
        ),
      },
      ['base', 'target', 'start', 'end', 'rates', 'summary'],
    ),
  };
}
