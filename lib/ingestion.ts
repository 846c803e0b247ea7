import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { INGEST_ENV } from '../lambdas/core/ingest/fetchers';
import { RATES_TABLE, SERIES_KEY_PREFIX, SERIES_META_KEY, SOURCES_KEY } from '../lambdas/core/store/tables';
import { reservedConcurrency } from './concurrency';
import type { DeployConfig } from './config';
import { FxratesFunction } from './fxrates-function';
import { grantTable, grantTableItems, TABLE_ACCESS } from './grants';

/** What the schedule sends; the one-off backfill sends `{"mode":"history"}` instead (docs/deploying.md). */
export const SCHEDULED_EVENT = { mode: 'scheduled' } as const;

/** The longest run: history mode unpacks and parses the full ECB archive in one run. */
const INGEST_TIMEOUT = Duration.minutes(5);

/**
 * Async invocations of the ingestion function retried after a failure, and how old an event may get. The age also
 * bounds Lambda's retries of an event throttled by the reserved concurrency of 1 (while another run holds it): an
 * hour leaves room for a run and its two retries to wait behind another run and its retries, each at most
 * INGEST_TIMEOUT, well before the next hourly event (test/infra/least-privilege.test.ts replays this).
 */
export const INGEST_RETRY = { attempts: 2, maxEventAge: Duration.hours(1) } as const;

/**
 * The scheduled ingestion run. Failures never disappear silently: a run that keeps failing, and an event the
 * schedule could not deliver at all, both land in the dead-letter queue, whose depth is alarmed.
 */
export class Ingestion extends Construct {
  readonly function: FxratesFunction;
  readonly deadLetterQueue: sqs.Queue;
  readonly schedule: events.Rule;

  constructor(scope: Construct, id: string, props: { rates: ITable; config: DeployConfig }) {
    super(scope, id);
    const { config } = props;

    this.deadLetterQueue = new sqs.Queue(this, 'DeadLetterQueue', {
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });

    const environment: Record<string, string> = {
      [RATES_TABLE.envVar]: props.rates.tableName,
      [INGEST_ENV.sources]: config.sources.join(','),
    };
    if (config.ecbBaseUrl) environment[INGEST_ENV.ecbBaseUrl] = config.ecbBaseUrl;
    if (config.currencyApiBaseUrl) environment[INGEST_ENV.currencyApiBaseUrl] = config.currencyApiBaseUrl;
    if (config.currencyApiFallbackUrl) environment[INGEST_ENV.currencyApiFallbackUrl] = config.currencyApiFallbackUrl;

    this.function = new FxratesFunction(this, 'IngestFunction', {
      name: 'ingest',
      description: 'fxrates ingestion: fetch, merge and validate upstream rates into day snapshots',
      memorySize: 1024,
      timeout: INGEST_TIMEOUT,
      // One run at a time: two runs at once would fetch the same upstreams and write the same items concurrently.
      reservedConcurrency: reservedConcurrency(config, 'ingest'),
      environment,
      // Function errors: Lambda retries the asynchronous invocation, then hands the event to the queue.
      retryAttempts: INGEST_RETRY.attempts,
      maxEventAge: INGEST_RETRY.maxEventAge,
      deadLetterQueue: this.deadLetterQueue,
    });
    grantTable(this.function.role, props.rates, TABLE_ACCESS.ingestRates);
    grantTableItems(this.function.role, props.rates, TABLE_ACCESS.ingestSourceStatus, [SOURCES_KEY]);
    grantTableItems(this.function.role, props.rates, TABLE_ACCESS.ingestSeries, [
      `${SERIES_KEY_PREFIX}*`,
      SERIES_META_KEY,
    ]);

    // Delivery errors (the invoke itself refused): EventBridge retries, then hands the event to the same queue.
    this.schedule = new events.Rule(this, 'Schedule', {
      description: 'fxrates ingestion run',
      schedule: events.Schedule.expression(config.ingestSchedule),
      targets: [
        new targets.LambdaFunction(this.function.function, {
          event: events.RuleTargetInput.fromObject(SCHEDULED_EVENT),
          retryAttempts: INGEST_RETRY.attempts,
          maxEventAge: INGEST_RETRY.maxEventAge,
          deadLetterQueue: this.deadLetterQueue,
        }),
      ],
    });
  }
}
