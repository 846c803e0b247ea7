import { Duration, Stack, Token } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import type { Construct } from 'constructs';
import { PLAN_IDS, PLANS } from '../../lambdas/core/domain/plans';
import { CENTRAL_BANK_IDS } from '../../lambdas/core/domain/publishers';
import type { SourceId } from '../../lambdas/core/domain/rates';
import { AUTHORIZER_METRICS, INGEST_METRICS, METRIC_DIMENSIONS, SERVICE_NAME } from '../../lambdas/core/metric-names';
import { ACCOUNTS_TABLE } from '../../lambdas/core/store/tables';
import type { Api } from '../api';
import type { DeployConfig } from '../config';
import type { DashboardApi } from '../dashboard-api';
import type { FxratesFunction } from '../fxrates-function';
import type { Ingestion } from '../ingestion';
import { metricNamespace } from '../stage';
import { ingestionAlarmFigures } from './thresholds';

const isCentralBank = (source: SourceId): boolean => (CENTRAL_BANK_IDS as readonly string[]).includes(source);

/** What the dashboard and alarms read, by the names the functions publish (lambdas/core/metric-names.ts). */

export const METRICS = {
  service: SERVICE_NAME,
  planNames: PLAN_IDS.map((id) => PLANS[id].name),
} as const;

export interface MonitoringProps {
  api: Api;
  dashboardApi: DashboardApi;
  ingestion: Ingestion;
  tables: { rates: ITable; accounts: ITable };
  config: DeployConfig;
}

/** A monitored function: the group its throttles alarm in, its label on the graphs, the function. */
export type MonitoredFunction = [group: string, label: string, fn: FxratesFunction];

export type MonitoringMetrics = ReturnType<typeof monitoringMetrics>;

export function monitoringMetrics(scope: Construct, props: MonitoringProps) {
  const { api, ingestion, tables, config } = props;
  const figures = ingestionAlarmFigures(config);
  const fiveMinutes = Duration.minutes(5);
  const runPeriod = Duration.hours(figures.runHours);
  const namespace = metricNamespace(config.stage);
  const custom = (metricName: string, dimensions: Record<string, string> = {}, statistic = 'Sum') =>
    new cloudwatch.Metric({
      namespace,
      metricName,
      dimensionsMap: { [METRIC_DIMENSIONS.service]: METRICS.service, ...dimensions },
      statistic,
      period: fiveMinutes,
    });
  // Ids unique across the construct: several sums share a graph, and ids are per graph or alarm.
  let nextId = 0;
  const sum = (label: string, metrics: cloudwatch.IMetric[], period = fiveMinutes) => {
    const ids = metrics.map(() => `m${nextId++}`);
    return new cloudwatch.MathExpression({
      expression: `SUM([${ids.join(', ')}])`,
      usingMetrics: Object.fromEntries(metrics.map((m, i) => [ids[i], m])),
      label,
      period,
    });
  };
  const functions: MonitoredFunction[] = [
    ['public API', 'authorizer', api.authorizerFunction],
    ...[...api.routeFunctions].map(([routeId, fn]): MonitoredFunction => ['public API', routeId, fn]),
    ...[...props.dashboardApi.routeFunctions].map(
      ([routeId, fn]): MonitoredFunction => ['account dashboard', `dashboard ${routeId}`, fn],
    ),
    ['ingestion', 'ingest', ingestion.function],
  ];
  return {
    figures,
    fiveMinutes,
    custom,
    decisions: (plan: string, verdict: string) =>
      custom(AUTHORIZER_METRICS.requests, { [METRIC_DIMENSIONS.plan]: plan, [METRIC_DIMENSIONS.verdict]: verdict }),
    sum,
    functions,
    p99Latency: api.restApi.metricLatency({ period: fiveMinutes, statistic: 'p99', label: 'p99' }),
    tableThrottles: tableThrottles(tables, fiveMinutes),
    snapshotAge: custom(INGEST_METRICS.snapshotAgeSeconds, {}, 'Maximum').with({
      period: Duration.hours(1),
      label: 'Snapshot age (seconds)',
    }),
    successfulRuns: custom(INGEST_METRICS.successfulRuns).with({ period: Duration.hours(1), label: 'Successful runs' }),
    currenciesServed: custom(INGEST_METRICS.currenciesServed, {}, 'Maximum').with({
      period: runPeriod,
      label: 'Currencies served',
    }),
    // A central bank is fetched once a weekday (lib/ingestion.ts), so its runs are a day apart.
    sourceFailures: (source: SourceId) =>
      custom(INGEST_METRICS.sourceFailures, { [METRIC_DIMENSIONS.source]: source }, 'Minimum').with({
        period: isCentralBank(source) ? Duration.hours(24) : runPeriod,
        label: `${source} failed`,
      }),
    crossCheckOverTolerance: (source: SourceId) =>
      custom(INGEST_METRICS.crossCheckOverTolerance, { [METRIC_DIMENSIONS.source]: source }, 'Maximum').with({
        period: runPeriod,
        label: `${source} over tolerance`,
      }),
    // The cross-check alarm judges days: a central bank reports once a weekday, the others once a run.
    crossCheckDaily: (source: SourceId) =>
      custom(INGEST_METRICS.crossCheckOverTolerance, { [METRIC_DIMENSIONS.source]: source }, 'Maximum').with({
        period: Duration.hours(24),
        label: `${source} over tolerance`,
      }),
    deadLetters: ingestion.deadLetterQueue.metricNumberOfMessagesSent({
      period: fiveMinutes,
      statistic: 'Sum',
      label: 'Dead letters sent',
    }),
    waf: api.webAcl ? wafMetrics(api.webAcl.acl.visibilityConfig, Stack.of(scope).region) : undefined,
  };
}

/** Throttled reads and writes of each table and of the accounts table's indexes. */
function tableThrottles(tables: MonitoringProps['tables'], period: Duration): cloudwatch.Metric[] {
  return [
    ...Object.entries(tables).flatMap(([name, table]) => [
      table.metric('ReadThrottleEvents', { statistic: 'Sum', period, label: `${name} read` }),
      table.metric('WriteThrottleEvents', { statistic: 'Sum', period, label: `${name} write` }),
    ]),
    ...ACCOUNTS_TABLE.indexes.flatMap((index) =>
      ['ReadThrottleEvents', 'WriteThrottleEvents'].map((metricName) =>
        tables.accounts.metric(metricName, {
          statistic: 'Sum',
          period,
          label: `accounts ${index.name} ${metricName.startsWith('Read') ? 'read' : 'write'}`,
          dimensionsMap: { TableName: tables.accounts.tableName, GlobalSecondaryIndexName: index.name },
        }),
      ),
    ),
  ];
}

/** `WebACL` is the metric name of the ACL's visibility config; `Rule` = `ALL` gives its totals. */
function wafMetrics(
  visibility: wafv2.CfnWebACL['visibilityConfig'],
  region: string,
): { allowed: cloudwatch.Metric; blocked: cloudwatch.Metric } {
  const metricName = Token.isUnresolved(visibility)
    ? undefined
    : (visibility as wafv2.CfnWebACL.VisibilityConfigProperty).metricName;
  if (typeof metricName !== 'string' || Token.isUnresolved(metricName)) {
    throw new Error('the web ACL needs a literal metric name in its visibility config for its alarms');
  }
  const metric = (name: string) =>
    new cloudwatch.Metric({
      namespace: 'AWS/WAFV2',
      metricName: name,
      dimensionsMap: { WebACL: metricName, Region: region, Rule: 'ALL' },
      statistic: 'Sum',
      period: Duration.minutes(5),
    });
  return { allowed: metric('AllowedRequests'), blocked: metric('BlockedRequests') };
}
