import { daysBetween, formatDay } from '../domain/dates';
import { NoSeriesDataError, ServiceUnavailableError } from '../domain/errors';
import { SETTLED_AFTER_DAYS } from '../domain/rates';
import { SERIES_VERSION, type SeriesPoint, summarize, withinRange, yearsOf } from '../domain/series';
import { pathParams, singleQuery } from '../http/api-handler';
import { acceptsCsv, CSV_CONTENT_TYPE, seriesCsv } from '../http/csv';
import { headerValue } from '../http/headers';
import { RawNumber } from '../http/json';
import { readTimeseriesInput } from '../http/parameters';
import { type HttpResponse, successResponse } from '../http/responses';
import { TIMESERIES_CACHE_CONTROL } from '../http/routes';
import type { RateReader } from '../service/rate-reader';
import { storeRead } from './current-rates';
import { lambdaEndpointDeps } from './deps';
import { defineEndpoint } from './endpoint';
import { requireHistoryCodes, requireHistoryPlan } from './history-access';

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

/** GET /v1/rates/timeseries/{from}/{to}?start=&end=[&format=json|csv] */
export const endpoint = defineEndpoint({
  route: 'timeseries',
  lambdaDeps: lambdaEndpointDeps,
  create: (deps) => async (event) => {
    const today = formatDay(deps.clock());
    const { from, to, start, end, format } = readTimeseriesInput(
      { path: pathParams(event), query: singleQuery(event, ['start', 'end', 'format']) },
      today,
    );
    await requireHistoryCodes(deps, from, to);
    // The whole range must lie in the plan's window: judged by its first day.
    requireHistoryPlan(event, today, start, 'start');
    // Until the table's series are built (a stack upgraded from a version without them, before the ingest function
    // has rebuilt them), an empty or partial series would pass for real data, final and immutable.
    const [ready, points] = await storeRead(() =>
      Promise.all([deps.reader.seriesReady(SERIES_VERSION), seriesPoints(deps.reader, from, to, start, end)]),
    );
    if (!ready) throw new ServiceUnavailableError(SERIES_NOT_BUILT);
    const summary = summarize(points);
    if (!summary) throw new NoSeriesDataError(from, to, start, end);
    const cacheControl =
      daysBetween(end, today) > SETTLED_AFTER_DAYS ? TIMESERIES_CACHE_CONTROL.final : TIMESERIES_CACHE_CONTROL.recent;
    // An explicit format wins; otherwise Accept decides. Either way the answer depends on Accept.
    const csv = format === undefined ? acceptsCsv(headerValue(event.headers, 'Accept')) : format === 'csv';
    if (csv) {
      const response: HttpResponse = {
        statusCode: 200,
        headers: {
          'Content-Type': CSV_CONTENT_TYPE,
          'Content-Disposition': `attachment; filename="${from}-${to}-${start}-${end}.csv"`,
          'Cache-Control': cacheControl,
          Vary: 'Accept',
        },
        body: seriesCsv(points),
      };
      return response;
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
