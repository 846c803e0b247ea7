import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { CENTRAL_BANK_IDS, type CentralBankId, PUBLICATION_WINDOWS } from '../lambdas/core/domain/publishers';
import type { SourceId } from '../lambdas/core/domain/rates';
import { INGEST_ENV } from '../lambdas/core/ingest/fetchers';
import { RATES_TABLE, SERIES_KEY_PREFIX, SERIES_META_KEY, SOURCES_KEY } from '../lambdas/core/store/tables';
import { reservedConcurrency } from './concurrency';
import type { DeployConfig } from './config';
import { FxratesFunction } from './fxrates-function';
import { grantTable, grantTableItems, TABLE_ACCESS } from './grants';

/** What the schedule sends; the one-off backfill sends `{"mode":"history"}` instead (docs/deploying.md). */
export const SCHEDULED_EVENT = { mode: 'scheduled' } as const;

/** Minutes past the hour after a publisher's window that its run starts: the window's last hour plus a margin. */
const AFTER_WINDOW_MINUTE = 15;

export interface IngestionRule {
  /** The construct id of its EventBridge rule. */
  id: string;
  expression: string;
  description: string;
  /** The sources its runs fetch (the event's `sources`). */
  sources: SourceId[];
}

/**
 * The schedule: the configured one (hourly by default) for the ECB and currency-api, and for the central banks
 * one rule per distinct hour their windows end, on weekdays, shortly after it, fetching only the publishers whose
 * window just ended. A publisher's run covers its last 8 days, so a late publication is caught the next weekday.
 */
export function ingestionRules(config: Pick<DeployConfig, 'sources' | 'ingestSchedule'>): IngestionRule[] {
  const banks = config.sources.filter((id): id is CentralBankId =>
    (CENTRAL_BANK_IDS as readonly string[]).includes(id),
  );
  const others = config.sources.filter((id) => !(banks as readonly string[]).includes(id));
  const rules: IngestionRule[] = [
    {
      id: 'Schedule',
      expression: config.ingestSchedule,
      description: 'fxrates ingestion run',
      // With only central banks configured, this run still fetches them all: it is the heartbeat's run.
      sources: others.length > 0 ? others : [...config.sources],
    },
  ];
  const byHour = new Map<number, CentralBankId[]>();
  for (const id of banks) {
    const hour = (PUBLICATION_WINDOWS[id][1] + 1) % 24;
    byHour.set(hour, [...(byHour.get(hour) ?? []), id]);
  }
  for (const [hour, ids] of [...byHour].sort(([a], [b]) => a - b)) {
    const hh = String(hour).padStart(2, '0');
    rules.push({
      id: `AfterWindow${hh}`,
      expression: `cron(${AFTER_WINDOW_MINUTE} ${hour} ? * MON-FRI *)`,
      description: `fxrates ingestion after the ${hh}:00 UTC end of ${ids.join(', ')}'s publication window`,
      sources: ids,
    });
  }
  return rules;
}

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
  /** Every rule: `schedule` first, then the central banks' (ingestionRules). */
  readonly rules: events.Rule[];

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
    if (config.centralBankOrigin) environment[INGEST_ENV.centralBankOrigin] = config.centralBankOrigin;
    if (config.crossCheckTolerance !== undefined) {
      environment[INGEST_ENV.crossCheckTolerance] = String(config.crossCheckTolerance);
    }
    if (config.crossCheckExempt) environment[INGEST_ENV.crossCheckExempt] = config.crossCheckExempt;

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
    this.rules = ingestionRules(config).map(
      (rule) =>
        new events.Rule(this, rule.id, {
          description: rule.description,
          schedule: events.Schedule.expression(rule.expression),
          targets: [
            new targets.LambdaFunction(this.function.function, {
              event: events.RuleTargetInput.fromObject({ ...SCHEDULED_EVENT, sources: rule.sources }),
              retryAttempts: INGEST_RETRY.attempts,
              maxEventAge: INGEST_RETRY.maxEventAge,
              deadLetterQueue: this.deadLetterQueue,
            }),
          ],
        }),
    );
    this.schedule = this.rules[0] as events.Rule;
  }
}
