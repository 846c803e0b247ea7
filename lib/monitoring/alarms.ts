import { Duration, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type { Construct } from 'constructs';
import { AGGREGATOR } from '../../lambdas/core/domain/rates';
import type { DeployConfig } from '../config';
import type { InsightRules } from './contributor-insights';
import type { MonitoringMetrics, MonitoringProps } from './metrics';
import { ALARM_THRESHOLDS } from './thresholds';

type AddAlarm = (key: string, name: string, notifyOk: boolean, alarmProps: cloudwatch.AlarmProps) => void;

/**
 * Every alarm, by a stable key (`sourceFailures:<source>`, `lambdaThrottles:<group>` for the per-item ones), each
 * notifying `alarmActions`.
 */
export function createAlarms(
  scope: Construct,
  props: MonitoringProps,
  metrics: MonitoringMetrics,
  insightRules: InsightRules,
  alarmActions: cloudwatch.IAlarmAction[],
): Record<string, cloudwatch.Alarm> {
  const stackName = Stack.of(scope).stackName;
  const alarms: Record<string, cloudwatch.Alarm> = {};
  const alarm: AddAlarm = (key, name, notifyOk, alarmProps) => {
    const created = new cloudwatch.Alarm(
      scope,
      `${name.replace(/(^|-)(\w)/g, (_, __, c: string) => c.toUpperCase())}Alarm`,
      {
        alarmName: `${stackName}-${name}`,
        ...alarmProps,
      },
    );
    for (const action of alarmActions) {
      created.addAlarmAction(action);
      if (notifyOk) created.addOkAction(action);
    }
    alarms[key] = created;
  };
  ingestionAlarms(alarm, metrics, props.config);
  apiAlarms(alarm, metrics, props);
  throttleAlarms(alarm, metrics, props);
  if (metrics.waf) wafAlarm(alarm, metrics.waf, metrics.fiveMinutes);
  quotaAlarm(alarm, insightRules, props.config);
  return alarms;
}

function ingestionAlarms(alarm: AddAlarm, m: MonitoringMetrics, config: DeployConfig): void {
  const { figures } = m;
  alarm('ingestionHeartbeat', 'ingestion-heartbeat', true, {
    alarmDescription: `No ingestion run stored rates for ${figures.heartbeatHours} hours (every run failed, or none ran).`,
    metric: m.successfulRuns,
    threshold: 1,
    comparisonOperator: cloudwatch.ComparisonOperator.LESS_THAN_THRESHOLD,
    evaluationPeriods: figures.heartbeatHours,
    datapointsToAlarm: figures.heartbeatHours,
    // Every run reports 1 or 0; an hour without any report is an hour in which ingestion did not run.
    treatMissingData: cloudwatch.TreatMissingData.BREACHING,
  });
  alarm('staleRates', 'stale-rates', true, {
    alarmDescription: `The newest rates were published more than ${figures.staleAfterHours} hours ago, or ingestion has reported no age for ${figures.heartbeatHours} hours.`,
    metric: m.snapshotAge,
    threshold: figures.staleAfterHours * 3600,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
    evaluationPeriods: figures.heartbeatHours,
    datapointsToAlarm: figures.heartbeatHours,
    treatMissingData: cloudwatch.TreatMissingData.BREACHING,
  });
  alarm('currenciesServed', 'currencies-served', true, {
    alarmDescription: `The latest rates serve fewer than ${figures.minCurrencies} currencies in two runs in a row (a source stopped contributing).`,
    metric: m.currenciesServed,
    threshold: figures.minCurrencies,
    comparisonOperator: cloudwatch.ComparisonOperator.LESS_THAN_THRESHOLD,
    evaluationPeriods: 2,
    datapointsToAlarm: 2,
    // No run, no figure: the heartbeat alarms on that.
    treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
  });
  for (const source of config.sources) {
    alarm(`sourceFailures:${source}`, `source-failing-${source}`, true, {
      alarmDescription: `Every run of ${ALARM_THRESHOLDS.sourceFailureRuns} in a row failed to fetch ${source}.`,
      metric: m.sourceFailures(source),
      threshold: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: ALARM_THRESHOLDS.sourceFailureRuns,
      datapointsToAlarm: ALARM_THRESHOLDS.sourceFailureRuns,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
  }
  // The aggregator is never cross-checked, so it has no figure to alarm on.
  for (const source of config.sources.filter((id) => id !== AGGREGATOR)) {
    alarm(`crossCheck:${source}`, `cross-check-${source}`, true, {
      alarmDescription: `${source}'s quotes differed from the served rates by more than the cross-check tolerance on ${ALARM_THRESHOLDS.crossCheckDaysToAlarm} of the last ${ALARM_THRESHOLDS.crossCheckDays} days (exempt multi-rate currencies not counted).`,
      metric: m.crossCheckDaily(source),
      threshold: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: ALARM_THRESHOLDS.crossCheckDays,
      datapointsToAlarm: ALARM_THRESHOLDS.crossCheckDaysToAlarm,
      // A day without a check (a weekend, a holiday, nothing compared) is no disagreement.
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
  }
  // A new message each time, not a depth that stays up: every failed run or undelivered event notifies again.
  alarm('deadLetters', 'ingestion-dead-letters', false, {
    alarmDescription:
      'An ingestion event reached the dead-letter queue: a run failed after its retries, or the schedule could not invoke it.',
    metric: m.deadLetters,
    threshold: 1,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    evaluationPeriods: 1,
    treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
  });
}

/** Two of the last three periods past the threshold; no data is no breach. */
const TWO_OF_THREE = {
  comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
  evaluationPeriods: 3,
  datapointsToAlarm: 2,
  treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
} as const;

function apiAlarms(alarm: AddAlarm, m: MonitoringMetrics, props: MonitoringProps): void {
  const fiveMinutes = m.fiveMinutes;
  const serverErrorRate = (restApi: MonitoringProps['api']['restApi'], label: string) =>
    new cloudwatch.MathExpression({
      expression: `IF(requests >= ${ALARM_THRESHOLDS.minRequests}, errors / requests, 0)`,
      usingMetrics: {
        requests: restApi.metricCount({ period: fiveMinutes, statistic: 'Sum' }),
        errors: restApi.metricServerError({ period: fiveMinutes, statistic: 'Sum' }),
      },
      label,
      period: fiveMinutes,
    });
  alarm('serverErrors', 'api-5xx-rate', true, {
    alarmDescription: `More than ${ALARM_THRESHOLDS.serverErrorRate * 100}% of public API requests answered 5xx (from ${ALARM_THRESHOLDS.minRequests} requests in five minutes).`,
    metric: serverErrorRate(props.api.restApi, 'Public API 5xx share'),
    threshold: ALARM_THRESHOLDS.serverErrorRate,
    ...TWO_OF_THREE,
  });
  alarm('dashboardServerErrors', 'dashboard-api-5xx-rate', true, {
    alarmDescription: `More than ${ALARM_THRESHOLDS.serverErrorRate * 100}% of account dashboard API requests answered 5xx (from ${ALARM_THRESHOLDS.minRequests} requests in five minutes).`,
    metric: serverErrorRate(props.dashboardApi.restApi, 'Dashboard API 5xx share'),
    threshold: ALARM_THRESHOLDS.serverErrorRate,
    ...TWO_OF_THREE,
  });
  const authorizer = props.api.authorizerFunction.function;
  alarm('authorizerErrors', 'authorizer-error-rate', true, {
    alarmDescription: `More than ${ALARM_THRESHOLDS.authorizerErrorRate * 100}% of authorizer invocations failed (from ${ALARM_THRESHOLDS.minAuthorizerInvocations} in five minutes); callers received 5xx.`,
    metric: new cloudwatch.MathExpression({
      expression: `IF(invocations >= ${ALARM_THRESHOLDS.minAuthorizerInvocations}, errors / invocations, 0)`,
      usingMetrics: {
        invocations: authorizer.metricInvocations({ period: fiveMinutes, statistic: 'Sum' }),
        errors: authorizer.metricErrors({ period: fiveMinutes, statistic: 'Sum' }),
      },
      label: 'Authorizer error share',
      period: fiveMinutes,
    }),
    threshold: ALARM_THRESHOLDS.authorizerErrorRate,
    ...TWO_OF_THREE,
  });
  alarm('latency', 'api-p99-latency', true, {
    alarmDescription: `The public API's p99 latency stayed above ${ALARM_THRESHOLDS.p99LatencyMs} ms for 15 minutes.`,
    metric: m.p99Latency,
    threshold: ALARM_THRESHOLDS.p99LatencyMs,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
    evaluationPeriods: 3,
    datapointsToAlarm: 3,
    // Too few requests for a p99 (a quiet stage's cold starts) leave the state as it is.
    evaluateLowSampleCountPercentile: 'ignore',
    treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
  });
}

function throttleAlarms(alarm: AddAlarm, m: MonitoringMetrics, props: MonitoringProps): void {
  // An alarm reads at most 10 metrics: one alarm per group of functions. Ingestion has none: its reserved
  // concurrency of 1 throttles a run that finds another one running on purpose, and Lambda keeps and retries that
  // event; a run that never happens is the heartbeat alarm's to report.
  const groups = new Map<string, cloudwatch.IMetric[]>();
  for (const [group, label, fn] of m.functions) {
    if (fn === props.ingestion.function) continue;
    groups.set(group, [...(groups.get(group) ?? []), fn.function.metricThrottles({ period: m.fiveMinutes, label })]);
  }
  for (const [group, metrics] of groups) {
    for (let start = 0; start < metrics.length; start += 10) {
      const slug = `${group.toLowerCase().replace(/\W+/g, '-')}${start === 0 ? '' : `-${start / 10 + 1}`}`;
      alarm(`lambdaThrottles:${slug}`, `lambda-throttles-${slug}`, false, {
        alarmDescription: `Lambda throttled invocations of the ${group} functions (concurrency limit reached).`,
        metric: m.sum(`Throttles (${group})`, metrics.slice(start, start + 10)),
        threshold: ALARM_THRESHOLDS.lambdaThrottles,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
    }
  }
  alarm('dynamoDbThrottles', 'dynamodb-throttles', true, {
    alarmDescription:
      'DynamoDB throttled reads or writes of the rates or accounts table (or its indexes) in two of three 5-minute periods; a hot usage item is the usual cause.',
    metric: m.sum('DynamoDB throttle events', m.tableThrottles),
    threshold: ALARM_THRESHOLDS.dynamoDbThrottles,
    ...TWO_OF_THREE,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
  });
}

function wafAlarm(
  alarm: AddAlarm,
  waf: NonNullable<MonitoringMetrics['waf']>,
  fiveMinutes: MonitoringMetrics['fiveMinutes'],
): void {
  alarm('wafBlocks', 'waf-blocked-share', true, {
    alarmDescription: `The web ACL blocked more than ${ALARM_THRESHOLDS.wafBlockedShare * 100}% of requests for 15 minutes (from ${ALARM_THRESHOLDS.minWafRequests} in five minutes): an attack, or a rule refusing real clients.`,
    metric: new cloudwatch.MathExpression({
      expression: `IF(allowed + blocked >= ${ALARM_THRESHOLDS.minWafRequests}, blocked / (allowed + blocked), 0)`,
      usingMetrics: { allowed: waf.allowed, blocked: waf.blocked },
      label: 'Blocked share',
      period: fiveMinutes,
    }),
    threshold: ALARM_THRESHOLDS.wafBlockedShare,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
    evaluationPeriods: 3,
    datapointsToAlarm: 3,
    treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
  });
}

function quotaAlarm(alarm: AddAlarm, insightRules: InsightRules, config: DeployConfig): void {
  // The highest single quota sample of the hour: one account past the share is enough.
  alarm('quota', 'account-near-quota', false, {
    alarmDescription: `An account used at least ${config.quotaAlarmPercent}% of its monthly limit; the dashboard's "Accounts by share of their monthly limit" names it.`,
    metric: new cloudwatch.MathExpression({
      expression: `INSIGHT_RULE_METRIC('${insightRules.quota.attrRuleName}', 'Maximum')`,
      usingMetrics: {},
      label: 'Highest share of a monthly limit used (%)',
      period: Duration.hours(1),
    }),
    threshold: config.quotaAlarmPercent,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    evaluationPeriods: 1,
    // An hour without samples keeps the state: the account is still past the share until the month turns.
    treatMissingData: cloudwatch.TreatMissingData.MISSING,
  });
}
