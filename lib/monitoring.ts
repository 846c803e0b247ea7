import { Duration, RemovalPolicy, Stack, Token } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { PLAN_IDS, PLANS } from '../lambdas/core/domain/plans';
import type { SourceId } from '../lambdas/core/domain/rates';
import {
  ACCOUNT_VERDICTS,
  AUTHORIZER_METRICS,
  DECISION_FIELDS,
  INGEST_METRICS,
  KEYLESS_VERDICTS,
  METRIC_DIMENSIONS,
  METRIC_NAMESPACE,
  NO_PLAN,
  REFUSAL_VERDICTS,
  SERVICE_NAME,
} from '../lambdas/core/metric-names';
import { ACCOUNTS_TABLE } from '../lambdas/core/store/tables';
import type { Api } from './api';
import type { DeployConfig } from './config';
import type { DashboardApi } from './dashboard-api';
import type { FxratesFunction } from './fxrates-function';
import type { Ingestion } from './ingestion';
import { accountUniqueName, metricNamespace, stageOf } from './stage';

/** What the dashboard and alarms read, by the names the functions publish (lambdas/core/metric-names.ts). */
export const METRICS = {
  namespace: METRIC_NAMESPACE,
  service: SERVICE_NAME,
  planNames: PLAN_IDS.map((id) => PLANS[id].name),
} as const;

/** How long KMS waits before deleting the alarm topic's key once the stack is deleted: 7 days, its minimum. */
export const ALARM_TOPIC_KEY_PENDING_WINDOW = Duration.days(7);

/** Alarm thresholds, named so the guides and tests refer to the same figures. */
export const ALARM_THRESHOLDS = {
  /**
   * Snapshot age past which the rates are stale, in hours. currency-api publishes every day (its day starts at
   * 00:00 UTC), so with it two days mean a missed day. The ECB publishes on TARGET business days at 16:00 CET: the
   * longest gap is five days (25 and 26 December on a Monday and Tuesday: Friday to Wednesday; Easter's Good
   * Friday and Monday make four), plus the hour until the next run.
   */
  staleAfterHours: { daily: 48, ecbOnly: 124 },
  /** Currencies the latest snapshot must serve: about 160 with currency-api, the ECB's 31 without it. */
  minCurrencies: { withCurrencyApi: 100, ecbOnly: 25 },
  /** Consecutive runs a source must fail before it alarms. */
  sourceFailureRuns: 3,
  /** Runs in a row without success (at least three hours) before the heartbeat alarms. */
  heartbeatRuns: 3,
  /** Share of requests answered 5xx over five minutes, once at least `minRequests` arrived. */
  serverErrorRate: 0.05,
  minRequests: 20,
  /** Share of authorizer invocations that failed over five minutes, once at least `minAuthorizerInvocations` ran. */
  authorizerErrorRate: 0.02,
  minAuthorizerInvocations: 50,
  /** p99 of the public API's latency over five minutes, in milliseconds (percentiles of too few requests are ignored). */
  p99LatencyMs: 2500,
  /** Throttled Lambda invocations or DynamoDB requests in five minutes. */
  lambdaThrottles: 1,
  dynamoDbThrottles: 1,
  /** Share of the web ACL's requests it blocked over five minutes, once at least `minWafRequests` arrived. */
  wafBlockedShare: 0.1,
  minWafRequests: 100,
} as const;

/** Logs Insights over the authorizer's decision lines: accounts ordered by how much of their month they used. */
export const NEAREST_LIMIT_QUERY = [
  `fields ${DECISION_FIELDS.accountId}, ${DECISION_FIELDS.plan}, ${DECISION_FIELDS.percentUsed}, ${DECISION_FIELDS.monthUsed}, ${DECISION_FIELDS.monthLimit}`,
  `filter ispresent(${DECISION_FIELDS.percentUsed})`,
  `stats max(${DECISION_FIELDS.percentUsed}) as percent, max(${DECISION_FIELDS.monthUsed}) as used, max(${DECISION_FIELDS.monthLimit}) as monthlyLimit by ${DECISION_FIELDS.accountId}, ${DECISION_FIELDS.plan}`,
  'sort percent desc',
  'limit 25',
] as const;

/**
 * Hours between two runs of an EventBridge schedule expression, rounded up, at least 1 and at most 48: `rate(...)`
 * exactly, `cron(...)` by its hour field (`*` hourly, `*\/k` every k hours, a list of n hours every 24/n, else daily).
 */
export function scheduleIntervalHours(expression: string): number {
  const clamp = (hours: number) => Math.min(48, Math.max(1, Math.ceil(hours)));
  const rate = /^rate\(\s*(\d+)\s+(minutes?|hours?|days?)\s*\)$/.exec(expression.trim());
  if (rate) {
    const amount = Number(rate[1]);
    const unit = rate[2] ?? '';
    return clamp(unit.startsWith('minute') ? amount / 60 : unit.startsWith('hour') ? amount : amount * 24);
  }
  const cron = /^cron\((.+)\)$/.exec(expression.trim());
  const hourField = cron?.[1]?.trim().split(/\s+/)[1];
  if (hourField === undefined) return 24;
  if (hourField === '*') return 1;
  const step = /^(?:\*|\d+(?:-\d+)?)\/(\d+)$/.exec(hourField);
  if (step) return clamp(Number(step[1]));
  if (/^\d+(,\d+)+$/.test(hourField)) return clamp(24 / hourField.split(',').length);
  return 24;
}

/** The derived figures of the ingestion alarms for a deploy configuration. */
export function ingestionAlarmFigures(config: Pick<DeployConfig, 'sources' | 'ingestSchedule'>) {
  const runHours = scheduleIntervalHours(config.ingestSchedule);
  const daily = config.sources.includes('currency-api');
  return {
    /** The period of the per-run alarms (source failures, currencies): one run per period. */
    runHours,
    /** Hours without a successful run before the heartbeat alarms. */
    heartbeatHours: Math.max(3, ALARM_THRESHOLDS.heartbeatRuns * runHours),
    staleAfterHours: daily ? ALARM_THRESHOLDS.staleAfterHours.daily : ALARM_THRESHOLDS.staleAfterHours.ecbOnly,
    minCurrencies: daily ? ALARM_THRESHOLDS.minCurrencies.withCurrencyApi : ALARM_THRESHOLDS.minCurrencies.ecbOnly,
  };
}

/** The Contributor Insights rules over the authorizer's decision lines, by their name after the stack's. */
export const INSIGHT_RULES = {
  requests: 'requests-by-account',
  refusals: 'refusals-by-account',
  quota: 'quota-used-by-account',
} as const;

interface InsightRuleFilter {
  Match: string;
  In?: readonly string[];
  EqualTo?: number;
  IsPresent?: boolean;
}

/** A dashboard graph of a Contributor Insights rule's top contributors (CDK has no widget for it). */
class ContributorInsightsWidget extends cloudwatch.ConcreteWidget {
  constructor(
    private readonly props: {
      title: string;
      ruleName: string;
      region: string;
      orderBy: 'Sum' | 'Maximum';
      period: Duration;
      width: number;
      height: number;
    },
  ) {
    super(props.width, props.height);
  }

  toJson(): unknown[] {
    return [
      {
        type: 'metric',
        width: this.width,
        height: this.height,
        x: this.x,
        y: this.y,
        properties: {
          title: this.props.title,
          region: this.props.region,
          view: 'timeSeries',
          stacked: false,
          period: this.props.period.toSeconds(),
          insightRule: { maxContributorCount: 10, orderBy: this.props.orderBy, ruleName: this.props.ruleName },
          legend: { position: 'right' },
        },
      },
    ];
  }
}

export interface MonitoringProps {
  api: Api;
  dashboardApi: DashboardApi;
  ingestion: Ingestion;
  tables: { rates: ITable; accounts: ITable };
  config: DeployConfig;
}

/** The operators' dashboard, the alarms that page them, and the Contributor Insights rules that name accounts. */
export class Monitoring extends Construct {
  readonly dashboard: cloudwatch.Dashboard;
  readonly topic: sns.Topic;
  /** Every alarm, by a stable key (`sourceFailures:<source>`, `lambdaThrottles:<group>` for the per-item ones). */
  readonly alarms: Readonly<Record<string, cloudwatch.Alarm>>;
  readonly insightRules: Readonly<Record<keyof typeof INSIGHT_RULES, cloudwatch.CfnInsightRule>>;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    const { api, ingestion, tables, config } = props;
    const stack = Stack.of(this);
    const figures = ingestionAlarmFigures(config);

    this.topic = this.alarmTopic(config);
    const alarmActions: cloudwatch.IAlarmAction[] = [new actions.SnsAction(this.topic)];
    if (config.alarmTopicArn) {
      alarmActions.push(
        new actions.SnsAction(sns.Topic.fromTopicArn(this, 'ExistingAlarmTopic', config.alarmTopicArn)),
      );
    }

    const fiveMinutes = Duration.minutes(5);
    const runPeriod = Duration.hours(figures.runHours);
    const custom = (metricName: string, dimensions: Record<string, string> = {}, statistic = 'Sum') =>
      new cloudwatch.Metric({
        namespace: metricNamespace(stageOf(this)),
        metricName,
        dimensionsMap: { [METRIC_DIMENSIONS.service]: METRICS.service, ...dimensions },
        statistic,
        period: fiveMinutes,
      });
    const decisions = (plan: string, verdict: string) =>
      custom(AUTHORIZER_METRICS.requests, { [METRIC_DIMENSIONS.plan]: plan, [METRIC_DIMENSIONS.verdict]: verdict });
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

    // --- Contributor Insights over the authorizer's decision lines ------------------------------------------------
    const authorizerLogs = api.authorizerFunction.logGroup;
    const field = (name: string) => `$.${name}`;
    const rule = (
      key: keyof typeof INSIGHT_RULES,
      contribution: { Keys: string[]; ValueOf?: string; Filters: InsightRuleFilter[] },
      aggregateOn: 'Count' | 'Sum',
    ) =>
      new cloudwatch.CfnInsightRule(this, `${key[0]?.toUpperCase()}${key.slice(1)}InsightRule`, {
        ruleName: `${stack.stackName}-${INSIGHT_RULES[key]}`,
        ruleState: 'ENABLED',
        ruleBody: stack.toJsonString({
          Schema: { Name: 'CloudWatchLogRule', Version: 1 },
          LogGroupNames: [authorizerLogs.logGroupName],
          LogFormat: 'JSON',
          Contribution: contribution,
          AggregateOn: aggregateOn,
        }),
      });
    const decisionLine: InsightRuleFilter = { Match: field(DECISION_FIELDS.verdict), IsPresent: true };
    const ofAnAccount: InsightRuleFilter = { Match: field(DECISION_FIELDS.accountId), IsPresent: true };
    this.insightRules = {
      // Every request whose key named an account, admitted or not.
      requests: rule(
        'requests',
        { Keys: [field(DECISION_FIELDS.accountId), field(DECISION_FIELDS.plan)], Filters: [decisionLine, ofAnAccount] },
        'Count',
      ),
      // Refusals of valid keys, by account and reason.
      refusals: rule(
        'refusals',
        {
          Keys: [field(DECISION_FIELDS.accountId), field(DECISION_FIELDS.verdict)],
          Filters: [{ Match: field(DECISION_FIELDS.verdict), In: REFUSAL_VERDICTS }, ofAnAccount],
        },
        'Count',
      ),
      // One sample per account and minute, so a contributor's value in a one-minute period is its percentage.
      quota: rule(
        'quota',
        {
          Keys: [field(DECISION_FIELDS.accountId), field(DECISION_FIELDS.plan)],
          ValueOf: field(DECISION_FIELDS.percentUsed),
          Filters: [{ Match: field(DECISION_FIELDS.quotaSample), EqualTo: 1 }],
        },
        'Sum',
      ),
    };

    // --- metrics ----------------------------------------------------------------------------------------------------
    const functions: [string, string, FxratesFunction][] = [
      ['public API', 'authorizer', api.authorizerFunction],
      ...[...api.routeFunctions].map(([routeId, fn]): [string, string, FxratesFunction] => ['public API', routeId, fn]),
      ...[...props.dashboardApi.routeFunctions].map(([routeId, fn]): [string, string, FxratesFunction] => [
        'account dashboard',
        `dashboard ${routeId}`,
        fn,
      ]),
      ['ingestion', 'ingest', ingestion.function],
    ];
    const lambdaMetric = (name: 'errors' | 'throttles' | 'p99') =>
      functions.map(([, label, fn]) => {
        const f = fn.function;
        if (name === 'errors') return f.metricErrors({ period: fiveMinutes, label });
        if (name === 'throttles') return f.metricThrottles({ period: fiveMinutes, label });
        return f.metricDuration({ period: fiveMinutes, statistic: name, label: `${label} ${name}` });
      });

    const requestCount = api.restApi.metricCount({ period: fiveMinutes, statistic: 'Sum', label: 'Requests' });
    const serverErrors = api.restApi.metricServerError({ period: fiveMinutes, label: '5xx' });
    const serverErrorRate = (restApi: typeof api.restApi, label: string) =>
      new cloudwatch.MathExpression({
        expression: `IF(requests >= ${ALARM_THRESHOLDS.minRequests}, errors / requests, 0)`,
        usingMetrics: {
          requests: restApi.metricCount({ period: fiveMinutes, statistic: 'Sum' }),
          errors: restApi.metricServerError({ period: fiveMinutes, statistic: 'Sum' }),
        },
        label,
        period: fiveMinutes,
      });
    const p99Latency = api.restApi.metricLatency({ period: fiveMinutes, statistic: 'p99', label: 'p99' });

    const authorizer = api.authorizerFunction.function;
    const authorizerErrorRate = new cloudwatch.MathExpression({
      expression: `IF(invocations >= ${ALARM_THRESHOLDS.minAuthorizerInvocations}, errors / invocations, 0)`,
      usingMetrics: {
        invocations: authorizer.metricInvocations({ period: fiveMinutes, statistic: 'Sum' }),
        errors: authorizer.metricErrors({ period: fiveMinutes, statistic: 'Sum' }),
      },
      label: 'Authorizer error share',
      period: fiveMinutes,
    });

    const tableThrottles = [
      ...Object.entries(tables).flatMap(([name, table]) => [
        table.metric('ReadThrottleEvents', { statistic: 'Sum', period: fiveMinutes, label: `${name} read` }),
        table.metric('WriteThrottleEvents', { statistic: 'Sum', period: fiveMinutes, label: `${name} write` }),
      ]),
      ...ACCOUNTS_TABLE.indexes.flatMap((index) =>
        ['ReadThrottleEvents', 'WriteThrottleEvents'].map((metricName) =>
          tables.accounts.metric(metricName, {
            statistic: 'Sum',
            period: fiveMinutes,
            label: `accounts ${index.name} ${metricName.startsWith('Read') ? 'read' : 'write'}`,
            dimensionsMap: { TableName: tables.accounts.tableName, GlobalSecondaryIndexName: index.name },
          }),
        ),
      ),
    ];

    const snapshotAge = custom(INGEST_METRICS.snapshotAgeSeconds, {}, 'Maximum').with({
      period: Duration.hours(1),
      label: 'Snapshot age (seconds)',
    });
    const successfulRuns = custom(INGEST_METRICS.successfulRuns).with({
      period: Duration.hours(1),
      label: 'Successful runs',
    });
    const currenciesServed = custom(INGEST_METRICS.currenciesServed, {}, 'Maximum').with({
      period: runPeriod,
      label: 'Currencies served',
    });
    const sourceFailures = (source: SourceId) =>
      custom(INGEST_METRICS.sourceFailures, { [METRIC_DIMENSIONS.source]: source }, 'Minimum').with({
        period: runPeriod,
        label: `${source} failed`,
      });
    const deadLetters = ingestion.deadLetterQueue.metricNumberOfMessagesSent({
      period: fiveMinutes,
      statistic: 'Sum',
      label: 'Dead letters sent',
    });

    const waf = props.api.webAcl ? wafMetrics(props.api.webAcl.acl.visibilityConfig, stack.region) : undefined;

    // --- alarms -----------------------------------------------------------------------------------------------------
    const alarms: Record<string, cloudwatch.Alarm> = {};
    const alarm = (key: string, name: string, notifyOk: boolean, alarmProps: cloudwatch.AlarmProps) => {
      const created = new cloudwatch.Alarm(
        this,
        `${name.replace(/(^|-)(\w)/g, (_, __, c: string) => c.toUpperCase())}Alarm`,
        {
          alarmName: `${stack.stackName}-${name}`,
          ...alarmProps,
        },
      );
      for (const action of alarmActions) {
        created.addAlarmAction(action);
        if (notifyOk) created.addOkAction(action);
      }
      alarms[key] = created;
      return created;
    };

    alarm('ingestionHeartbeat', 'ingestion-heartbeat', true, {
      alarmDescription: `No ingestion run stored rates for ${figures.heartbeatHours} hours (every run failed, or none ran).`,
      metric: successfulRuns,
      threshold: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.LESS_THAN_THRESHOLD,
      evaluationPeriods: figures.heartbeatHours,
      datapointsToAlarm: figures.heartbeatHours,
      // Every run reports 1 or 0; an hour without any report is an hour in which ingestion did not run.
      treatMissingData: cloudwatch.TreatMissingData.BREACHING,
    });
    alarm('staleRates', 'stale-rates', true, {
      alarmDescription: `The newest rates were published more than ${figures.staleAfterHours} hours ago, or ingestion has reported no age for ${figures.heartbeatHours} hours.`,
      metric: snapshotAge,
      threshold: figures.staleAfterHours * 3600,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: figures.heartbeatHours,
      datapointsToAlarm: figures.heartbeatHours,
      treatMissingData: cloudwatch.TreatMissingData.BREACHING,
    });
    alarm('currenciesServed', 'currencies-served', true, {
      alarmDescription: `The latest rates serve fewer than ${figures.minCurrencies} currencies in two runs in a row (a source stopped contributing).`,
      metric: currenciesServed,
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
        metric: sourceFailures(source),
        threshold: 1,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: ALARM_THRESHOLDS.sourceFailureRuns,
        datapointsToAlarm: ALARM_THRESHOLDS.sourceFailureRuns,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
    }
    // A new message each time, not a depth that stays up: every failed run or undelivered event notifies again.
    alarm('deadLetters', 'ingestion-dead-letters', false, {
      alarmDescription:
        'An ingestion event reached the dead-letter queue: a run failed after its retries, or the schedule could not invoke it.',
      metric: deadLetters,
      threshold: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    alarm('serverErrors', 'api-5xx-rate', true, {
      alarmDescription: `More than ${ALARM_THRESHOLDS.serverErrorRate * 100}% of public API requests answered 5xx (from ${ALARM_THRESHOLDS.minRequests} requests in five minutes).`,
      metric: serverErrorRate(api.restApi, 'Public API 5xx share'),
      threshold: ALARM_THRESHOLDS.serverErrorRate,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 3,
      datapointsToAlarm: 2,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    alarm('dashboardServerErrors', 'dashboard-api-5xx-rate', true, {
      alarmDescription: `More than ${ALARM_THRESHOLDS.serverErrorRate * 100}% of account dashboard API requests answered 5xx (from ${ALARM_THRESHOLDS.minRequests} requests in five minutes).`,
      metric: serverErrorRate(props.dashboardApi.restApi, 'Dashboard API 5xx share'),
      threshold: ALARM_THRESHOLDS.serverErrorRate,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 3,
      datapointsToAlarm: 2,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    alarm('authorizerErrors', 'authorizer-error-rate', true, {
      alarmDescription: `More than ${ALARM_THRESHOLDS.authorizerErrorRate * 100}% of authorizer invocations failed (from ${ALARM_THRESHOLDS.minAuthorizerInvocations} in five minutes); callers received 5xx.`,
      metric: authorizerErrorRate,
      threshold: ALARM_THRESHOLDS.authorizerErrorRate,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 3,
      datapointsToAlarm: 2,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    alarm('latency', 'api-p99-latency', true, {
      alarmDescription: `The public API's p99 latency stayed above ${ALARM_THRESHOLDS.p99LatencyMs} ms for 15 minutes.`,
      metric: p99Latency,
      threshold: ALARM_THRESHOLDS.p99LatencyMs,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 3,
      datapointsToAlarm: 3,
      // Too few requests for a p99 (a quiet stage's cold starts) leave the state as it is.
      evaluateLowSampleCountPercentile: 'ignore',
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    // An alarm reads at most 10 metrics: one alarm per group of functions. Ingestion has none: its reserved
    // concurrency of 1 throttles a run that finds another one running on purpose, and Lambda keeps and retries that
    // event; a run that never happens is the heartbeat alarm's to report.
    const groups = new Map<string, cloudwatch.IMetric[]>();
    for (const [group, label, fn] of functions) {
      if (fn === ingestion.function) continue;
      groups.set(group, [...(groups.get(group) ?? []), fn.function.metricThrottles({ period: fiveMinutes, label })]);
    }
    for (const [group, metrics] of groups) {
      for (let start = 0; start < metrics.length; start += 10) {
        const slug = `${group.toLowerCase().replace(/\W+/g, '-')}${start === 0 ? '' : `-${start / 10 + 1}`}`;
        alarm(`lambdaThrottles:${slug}`, `lambda-throttles-${slug}`, false, {
          alarmDescription: `Lambda throttled invocations of the ${group} functions (concurrency limit reached).`,
          metric: sum(`Throttles (${group})`, metrics.slice(start, start + 10)),
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
      metric: sum('DynamoDB throttle events', tableThrottles),
      threshold: ALARM_THRESHOLDS.dynamoDbThrottles,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 3,
      datapointsToAlarm: 2,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    if (waf) {
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
    // The highest single quota sample of the hour: one account past the share is enough.
    alarm('quota', 'account-near-quota', false, {
      alarmDescription: `An account used at least ${config.quotaAlarmPercent}% of its monthly limit; the dashboard's "Accounts by share of their monthly limit" names it.`,
      metric: new cloudwatch.MathExpression({
        expression: `INSIGHT_RULE_METRIC('${this.insightRules.quota.attrRuleName}', 'Maximum')`,
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
    this.alarms = alarms;

    // --- dashboard --------------------------------------------------------------------------------------------------
    const graph = (title: string, left: cloudwatch.IMetric[], extra: Partial<cloudwatch.GraphWidgetProps> = {}) =>
      new cloudwatch.GraphWidget({ title, left, width: 8, height: 6, ...extra });
    const perPlanTotals = [
      ...METRICS.planNames.map((plan) =>
        sum(
          plan,
          ACCOUNT_VERDICTS.map((verdict) => decisions(plan, verdict)),
        ),
      ),
      sum(
        'No account (key missing, unknown or in the URL)',
        KEYLESS_VERDICTS.map((verdict) => decisions(NO_PLAN, verdict)),
      ),
    ];
    const refusalsByReason = (period?: Duration) => [
      ...REFUSAL_VERDICTS.map((verdict) =>
        sum(
          verdict,
          METRICS.planNames.map((plan) => decisions(plan, verdict)),
          period,
        ),
      ),
      ...KEYLESS_VERDICTS.map((verdict) => decisions(NO_PLAN, verdict).with({ label: verdict, period })),
    ];

    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      // Dashboards are global to the account (not regional), so the name carries the region beside the stage.
      dashboardName: accountUniqueName(this, 'operations'),
      defaultInterval: Duration.days(1),
    });
    this.dashboard.addWidgets(
      new cloudwatch.TextWidget({
        markdown: [
          '# fxrates',
          'Requests and refusals come from the authorizer (one count per decision, by plan and verdict). The account',
          'graphs are Contributor Insights rules over its decision lines; a share of a monthly limit counts the limit',
          'an account is refused at (its quota plus any overflow). Snapshot age is the age of the newest ingested rates.',
        ].join(' '),
        width: 24,
        height: 2,
      }),
    );
    this.dashboard.addWidgets(
      graph('Requests per plan', perPlanTotals, { stacked: true }),
      graph('Refusals by reason', refusalsByReason(), { stacked: true }),
      new cloudwatch.SingleValueWidget({
        title: 'Refusals by reason (dashboard range)',
        metrics: refusalsByReason(Duration.days(1)),
        setPeriodToTimeRange: true,
        width: 8,
        height: 6,
      }),
    );
    const topAccounts: [string, cloudwatch.CfnInsightRule, 'Sum' | 'Maximum', Duration][] = [
      ['Top accounts by requests', this.insightRules.requests, 'Sum', fiveMinutes],
      ['Top accounts by refusals (and why)', this.insightRules.refusals, 'Sum', fiveMinutes],
      ['Accounts by share of their monthly limit (%)', this.insightRules.quota, 'Maximum', Duration.minutes(1)],
    ];
    this.dashboard.addWidgets(
      ...topAccounts.map(
        ([title, rule, orderBy, period]) =>
          new ContributorInsightsWidget({
            title,
            ruleName: rule.attrRuleName,
            region: stack.region,
            orderBy,
            period,
            width: 8,
            height: 8,
          }),
      ),
    );
    this.dashboard.addWidgets(
      new cloudwatch.LogQueryWidget({
        title: 'Accounts nearest their monthly limit',
        logGroupNames: [authorizerLogs.logGroupName],
        queryLines: [...NEAREST_LIMIT_QUERY],
        view: cloudwatch.LogQueryVisualizationType.TABLE,
        width: 12,
        height: 8,
      }),
      graph(
        'API latency',
        [
          api.restApi.metricLatency({ period: fiveMinutes, statistic: 'p50', label: 'p50' }),
          p99Latency.with({ label: 'p99' }),
        ],
        {
          width: 6,
          height: 8,
          leftYAxis: { label: 'ms', showUnits: false },
          leftAnnotations: [{ value: ALARM_THRESHOLDS.p99LatencyMs, label: 'p99 alarm' }],
        },
      ),
      graph('API 4xx and 5xx', [api.restApi.metricClientError({ period: fiveMinutes, label: '4xx' }), serverErrors], {
        width: 6,
        height: 8,
        right: [requestCount],
      }),
    );
    this.dashboard.addWidgets(
      graph('Lambda errors', lambdaMetric('errors')),
      graph('Lambda throttles', lambdaMetric('throttles')),
      graph('Lambda duration p99', lambdaMetric('p99'), { leftYAxis: { label: 'ms', showUnits: false } }),
    );
    this.dashboard.addWidgets(
      graph('DynamoDB throttles', tableThrottles),
      graph('Snapshot age (seconds)', [snapshotAge], {
        right: [currenciesServed],
        leftAnnotations: [{ value: figures.staleAfterHours * 3600, label: 'stale' }],
        rightAnnotations: [{ value: figures.minCurrencies, label: 'too few currencies' }],
      }),
      graph(
        'Ingestion',
        [
          successfulRuns,
          custom(INGEST_METRICS.daysWritten).with({ label: 'Days written', period: Duration.hours(1) }),
          custom(INGEST_METRICS.rejections).with({ label: 'Snapshots rejected', period: Duration.hours(1) }),
          ...config.sources.map(sourceFailures),
        ],
        {
          right: [
            deadLetters,
            ingestion.deadLetterQueue.metricApproximateNumberOfMessagesVisible({
              period: fiveMinutes,
              statistic: 'Maximum',
              label: 'Dead letters waiting',
            }),
          ],
        },
      ),
    );
    const dashboardRestApi = props.dashboardApi.restApi;
    this.dashboard.addWidgets(
      graph(
        'Account dashboard API',
        [
          dashboardRestApi.metricClientError({ period: fiveMinutes, label: '4xx' }),
          dashboardRestApi.metricServerError({ period: fiveMinutes, label: '5xx' }),
        ],
        { right: [dashboardRestApi.metricCount({ period: fiveMinutes, statistic: 'Sum', label: 'Requests' })] },
      ),
      graph(
        'Web ACL',
        waf
          ? [waf.allowed.with({ label: 'Allowed' }), waf.blocked.with({ label: 'Blocked' })]
          : [requestCount.with({ label: 'Requests (no web ACL: waf=false)' })],
        { stacked: true },
      ),
      new cloudwatch.AlarmStatusWidget({
        title: 'Alarms',
        alarms: Object.values(this.alarms),
        width: 8,
        height: 6,
      }),
    );
  }

  /** The service's own topic, encrypted with a key CloudWatch may use; the alarm e-mail subscribes to it. */
  private alarmTopic(config: DeployConfig): sns.Topic {
    const stack = Stack.of(this);
    // CloudWatch can publish to an encrypted topic only with a customer managed key whose policy lets it.
    const key = new kms.Key(this, 'AlarmTopicKey', {
      description: 'fxrates alarm notifications',
      enableKeyRotation: true,
      // It encrypts only notifications in flight, which are gone with the topic: deleting the stack schedules its
      // deletion (the shortest wait KMS allows, during which it can be cancelled) instead of leaving it billed.
      removalPolicy: RemovalPolicy.DESTROY,
      pendingWindow: ALARM_TOPIC_KEY_PENDING_WINDOW,
    });
    const cloudwatchPrincipal = new iam.ServicePrincipal('cloudwatch.amazonaws.com');
    key.addToResourcePolicy(
      new iam.PolicyStatement({
        principals: [cloudwatchPrincipal],
        actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        resources: ['*'],
        conditions: { StringEquals: { 'aws:SourceAccount': stack.account } },
      }),
    );
    const topic = new sns.Topic(this, 'AlarmTopic', {
      displayName: 'fxrates alarms',
      masterKey: key,
      enforceSSL: true,
    });
    // The topic policy replaces SNS's default one, so the alarms' publisher must be allowed explicitly.
    topic.addToResourcePolicy(
      new iam.PolicyStatement({
        principals: [cloudwatchPrincipal],
        actions: ['sns:Publish'],
        resources: [topic.topicArn],
        conditions: {
          StringEquals: { 'aws:SourceAccount': stack.account },
          ArnLike: { 'aws:SourceArn': `arn:${stack.partition}:cloudwatch:${stack.region}:${stack.account}:alarm:*` },
        },
      }),
    );
    if (config.alarmEmail) topic.addSubscription(new subscriptions.EmailSubscription(config.alarmEmail));
    return topic;
  }
}

/**
 * The web ACL's totals (`Rule` = `ALL`) in AWS/WAFV2, whose `WebACL` dimension is the metric name of the ACL's
 * visibility config.
 */
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
