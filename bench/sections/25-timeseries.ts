/**
 * The time series: the whole bundled history loaded by ingestion into the embedded store (as `npm start`'s first
 * start loads it, the series items written along), then the handler alone, in process: DynamoDB reads per call
 * cold (a new reader, nothing cached) and warm, and the latency of warm calls over one-year ranges of varied pairs
 * (budget: p99 under 5 ms, no read). Then the rebuild of every series item from the stored days (backfillSeries).
 */
import { performance } from 'node:perf_hooks';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { endpoint as timeseriesEndpoint } from '../../lambdas/core/endpoints/timeseries';
import { apiHandler } from '../../lambdas/core/http/api-handler';
import { encodeAccess } from '../../lambdas/core/http/authorizer-context';
import { ingestDays } from '../../lambdas/core/ingest/ingest';
import { backfillSeries, ensureSeries } from '../../lambdas/core/ingest/series';
import { RateReader } from '../../lambdas/core/service/rate-reader';
import { bundledFiles, readBundledDays } from '../../local-server/bundled-data';
import { startLocalService } from '../../local-server/service';
import { percentile } from '../stats';
import { attachDdbCounter } from '../support/ddb-counter';

const WARM_CALLS = 5_000;
const BUDGET_P99_MS = 5;
const NOW = new Date('2026-09-30T12:00:00Z');

/** One-year ranges of varied pairs: ECB pairs, EUR on either side, a currency-api-only code, a withdrawn one. */
const CASES: readonly { pair: string; start: string; end: string }[] = [
  { pair: 'USD/JPY', start: '2025-04-14', end: '2026-04-13' },
  { pair: 'EUR/GBP', start: '2024-07-01', end: '2025-06-30' },
  { pair: 'CHF/EUR', start: '2019-01-01', end: '2019-12-31' },
  { pair: 'GBP/AUD', start: '2008-03-01', end: '2009-02-28' },
  { pair: 'CYP/USD', start: '2004-06-01', end: '2005-05-31' },
  { pair: 'SEK/NOK', start: '1999-01-01', end: '1999-12-31' },
  { pair: 'CAD/CNY', start: '2012-01-01', end: '2012-12-31' },
  { pair: 'AED/USD', start: '2025-10-01', end: '2026-09-29' },
  { pair: 'USD/USD', start: '2016-01-01', end: '2016-12-31' },
  { pair: 'JPY/KRW', start: '2020-02-29', end: '2021-02-28' },
];

export default async function timeseriesBench(): Promise<void> {
  const service = await startLocalService({
    port: 0,
    demoAccounts: false,
    dashboard: false,
    clock: () => NOW,
    loadRates: async ({ store }) => {
      const bundled = readBundledDays(bundledFiles());
      const started = performance.now();
      // As npm start does: the new table is marked first, so the series are known to be built along the days.
      await ensureSeries(store, { clock: () => NOW });
      const result = await ingestDays(store, {
        days: [...bundled.ecb, ...bundled.currencyApi],
        reports: {},
        clock: () => NOW,
      });
      console.log(
        `whole bundled history ingested: ${result.daysWritten} days, ${result.seriesWrites} series writes, ` +
          `${((performance.now() - started) / 1000).toFixed(2)} s`,
      );
      return 'bundled';
    },
  });
  try {
    const counter = attachDdbCounter(service.client);
    const access = encodeAccess({ verdict: 'admitted', accountId: 'bench', plan: 'business' });
    const event = ({ pair, start, end }: (typeof CASES)[number]) => {
      const [from, to] = pair.split('/');
      return {
        resource: '/rates/timeseries/{from}/{to}',
        path: `/rates/timeseries/${pair}`,
        httpMethod: 'GET',
        headers: {},
        multiValueHeaders: {},
        queryStringParameters: { start, end },
        multiValueQueryStringParameters: { start: [start], end: [end] },
        pathParameters: { from, to },
        requestContext: { requestId: 'bench', authorizer: access },
      } as unknown as APIGatewayProxyEvent;
    };
    const events = CASES.map(event);

    // Cold: a new reader per call, as in a new Lambda instance.
    const cold: number[] = [];
    for (const ev of events) {
      const handler = apiHandler(
        'timeseries',
        timeseriesEndpoint.create({ reader: new RateReader(service.ratesStore, () => NOW), clock: () => NOW }),
      );
      counter.reset();
      const reply = await handler(ev, {} as Context);
      if (reply.statusCode !== 200) throw new Error(`timeseries answered ${reply.statusCode}: ${reply.body}`);
      cold.push(counter.snapshot().byOperation.GetItem ?? 0);
      if (counter.snapshot().reads !== (counter.snapshot().byOperation.GetItem ?? 0))
        throw new Error('a read other than GetItem');
    }
    console.log(
      `timeseries handler, cold (a new reader per call; one-year ranges over two calendar years): ` +
        `GetItem per call ${cold.join(', ')} (max ${Math.max(...cold)}: LATEST, the series marker, and one series item per currency and year)`,
    );

    // Warm: one reader, every case once, then many calls round the cases.
    const reader = new RateReader(service.ratesStore, () => NOW);
    const handler = apiHandler('timeseries', timeseriesEndpoint.create({ reader, clock: () => NOW }));
    for (const ev of events) await handler(ev, {} as Context);
    counter.reset();
    const samples: number[] = [];
    let bytes = 0;
    for (let i = 0; i < WARM_CALLS; i++) {
      const ev = events[i % events.length] as APIGatewayProxyEvent;
      const t0 = performance.now();
      const reply = await handler(ev, {} as Context);
      samples.push(performance.now() - t0);
      bytes += reply.body.length;
    }
    samples.sort((a, b) => a - b);
    const p99 = percentile(samples, 99);
    console.log(
      `timeseries handler, warm (${WARM_CALLS} calls round ${CASES.length} pairs, one-year ranges, ` +
        `${Math.round(bytes / WARM_CALLS)} bytes per body): p50 ${percentile(samples, 50).toFixed(3)} ms, ` +
        `p99 ${p99.toFixed(3)} ms, max ${(samples.at(-1) ?? 0).toFixed(3)} ms; DynamoDB reads ${counter.snapshot().reads} ` +
        `(budget p99 < ${BUDGET_P99_MS} ms, 0 reads: ${p99 < BUDGET_P99_MS && counter.snapshot().reads === 0 ? 'within' : 'OVER'})`,
    );

    counter.reset();
    const rebuilt = await backfillSeries(service.ratesStore, { clock: () => NOW });
    const ops = counter.snapshot().byOperation;
    console.log(
      `series backfill (every item rebuilt from the stored days, embedded store): ${rebuilt.items} items from ` +
        `${rebuilt.days} days over ${rebuilt.years} years in ${(rebuilt.durationMs / 1000).toFixed(2)} s ` +
        `(${ops.BatchGetItem ?? 0} BatchGetItem, ${ops.BatchWriteItem ?? 0} BatchWriteItem, ${ops.PutItem ?? 0} PutItem)`,
    );
  } finally {
    await service.close();
  }
}
