import { Duration, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import { PLAN_IDS, PLANS } from '../lambdas/core/domain/plans';
import { SOURCE_IDS } from '../lambdas/core/domain/rates';
import {
  AUTHORIZER_METRICS,
  INGEST_METRICS,
  METRIC_DIMENSIONS,
  METRIC_NAMESPACE,
  NO_PLAN,
  SERVICE_NAME,
} from '../lambdas/core/metric-names';
import type { Api } from './api';
import type { DeployConfig } from './config';
import type { DashboardApi } from './dashboard-api';
import type { FxratesFunction } from './fxrates-function';
import type { Ingestion } from './ingestion';

/** What the dashboard and alarms read, by the names the functions publish (lambdas/core/metric-names.ts). */
export const METRICS = {
  namespace: METRIC_NAMESPACE,
  service: SERVICE_NAME,
  planNames: PLAN_IDS.map((id) => PLANS[id].name),
  sources: SOURCE_IDS,
} as const;

/** Alarm thresholds, named so the README and tests refer to the same figures. */
export const ALARM_THRESHOLDS = {
  /** Snapshot age in hours on a business day (a Monday does not count the weekend). */
  snapshotAgeHours: 30,
  /** Share of requests answered 5xx over five minutes, once at least `minRequests` arrived. */
  serverErrorRate: 0.05,
  minRequests: 20,
  authorizerErrors: 1,
  deadLetterMessages: 1,
} as const;

/** Logs Insights over the authorizer's `usage` lines: accounts ordered by how much of their month they used. */
export const NEAREST_LIMIT_QUERY = [
  'fields @timestamp, accountId, plan, monthUsed, monthLimit',
  'filter message = "usage" and monthLimit > 0',
  'fields monthUsed * 100 / monthLimit as percentUsed',
  'stats max(percentUsed) as percent, max(monthUsed) as used, max(monthLimit) as monthlyLimit by accountId, plan',
  'sort percent desc',
  'limit 25',
] as const;

export interface MonitoringProps {
  api: Api;
  dashboardApi: DashboardApi;
  ingestion: Ingestion;
  tables: { rates: ITable; accounts: ITable };
  config: DeployConfig;
}

/** The operators' dashboard and the alarms that page them. */
export class Monitoring extends Construct {
  readonly dashboard: cloudwatch.Dashboard;
  readonly topic: sns.Topic;
  readonly alarms: {
    deadLetterQueue: cloudwatch.Alarm;
    staleSnapshot: cloudwatch.Alarm;
    serverErrors: cloudwatch.Alarm;
    authorizerErrors: cloudwatch.Alarm;
  };

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    const { api, ingestion, tables } = props;
    const stack = Stack.of(this);

    // CloudWatch can publish to an encrypted topic only with a customer managed key whose policy lets it.
    const key = new kms.Key(this, 'AlarmTopicKey', {
      description: 'fxrates alarm notifications',
      enableKeyRotation: true,
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
    this.topic = new sns.Topic(this, 'AlarmTopic', {
      displayName: 'fxrates alarms',
      masterKey: key,
      enforceSSL: true,
    });
    // The topic policy replaces SNS's default one, so the alarms' publisher must be allowed explicitly.
    this.topic.addToResourcePolicy(
      new iam.PolicyStatement({
        principals: [cloudwatchPrincipal],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: {
          StringEquals: { 'aws:SourceAccount': stack.account },
          ArnLike: { 'aws:SourceArn': `arn:${stack.partition}:cloudwatch:${stack.region}:${stack.account}:alarm:*` },
        },
      }),
    );
    if (props.config.alarmEmail) {
      this.topic.addSubscription(new subscriptions.EmailSubscription(props.config.alarmEmail));
    }

    const fiveMinutes = Duration.minutes(5);
    const custom = (metricName: string, dimensions: Record<string, string> = {}, statistic = 'Sum') =>
      new cloudwatch.Metric({
        namespace: METRICS.namespace,
        metricName,
        dimensionsMap: { [METRIC_DIMENSIONS.service]: METRICS.service, ...dimensions },
        statistic,
        period: fiveMinutes,
      });
    const perPlan = (metricName: string) =>
      METRICS.planNames.map((plan) =>
        custom(metricName, { [METRIC_DIMENSIONS.plan]: plan }).with({ label: `${metricName} ${plan}` }),
      );

    const snapshotAge = custom(INGEST_METRICS.snapshotAgeSeconds, {}, 'Maximum').with({ period: Duration.hours(1) });
    const snapshotAgeHours = new cloudwatch.MathExpression({
      expression: 'age / 3600',
      usingMetrics: { age: snapshotAge },
      label: 'Snapshot age (hours)',
      period: Duration.hours(1),
    });
    // DAY() is 1 (Monday) to 7 (Sunday) per datapoint: weekends never alarm, Mondays discount the weekend.
    const businessSnapshotAgeHours = new cloudwatch.MathExpression({
      expression: 'IF(DAY(age) == 1, (age - 172800) / 3600, IF(DAY(age) < 6, age / 3600, 0))',
      usingMetrics: { age: snapshotAge },
      label: 'Snapshot age on business days (hours)',
      period: Duration.hours(1),
    });

    const functions: [string, FxratesFunction][] = [
      ['authorizer', api.authorizerFunction],
      ...[...api.routeFunctions].map(([routeId, fn]): [string, FxratesFunction] => [routeId, fn]),
      ...[...props.dashboardApi.routeFunctions].map(([routeId, fn]): [string, FxratesFunction] => [
        `dashboard ${routeId}`,
        fn,
      ]),
      ['ingest', ingestion.function],
    ];
    const lambdaMetric = (name: 'errors' | 'throttles' | 'p99' | 'p50') =>
      functions.map(([label, fn]) => {
        const f = fn.function;
        if (name === 'errors') return f.metricErrors({ period: fiveMinutes, label });
        if (name === 'throttles') return f.metricThrottles({ period: fiveMinutes, label });
        return f.metricDuration({ period: fiveMinutes, statistic: name, label: `${label} ${name}` });
      });

    const requestCount = api.restApi.metricCount({ period: fiveMinutes, statistic: 'Sum', label: 'Requests' });
    const serverErrors = api.restApi.metricServerError({ period: fiveMinutes, label: '5xx' });
    const serverErrorRate = new cloudwatch.MathExpression({
      expression: `IF(requests >= ${ALARM_THRESHOLDS.minRequests}, errors / requests, 0)`,
      usingMetrics: { requests: requestCount, errors: serverErrors },
      label: '5xx share',
      period: fiveMinutes,
    });

    const dlqDepth = ingestion.deadLetterQueue.metricApproximateNumberOfMessagesVisible({
      period: fiveMinutes,
      statistic: 'Maximum',
      label: 'Dead-letter messages',
    });

    const alarmAction = new actions.SnsAction(this.topic);
    const alarm = (id: string, props: cloudwatch.AlarmProps): cloudwatch.Alarm => {
      const created = new cloudwatch.Alarm(this, id, props);
      created.addAlarmAction(alarmAction);
      created.addOkAction(alarmAction);
      return created;
    };
    this.alarms = {
      deadLetterQueue: alarm('DeadLetterQueueAlarm', {
        alarmDescription: 'An ingestion run failed after its retries, or its schedule could not invoke it.',
        metric: dlqDepth,
        threshold: ALARM_THRESHOLDS.deadLetterMessages,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
      staleSnapshot: alarm('StaleSnapshotAlarm', {
        alarmDescription: `The latest rates are older than ${ALARM_THRESHOLDS.snapshotAgeHours} hours on a business day, or ingestion stopped reporting.`,
        metric: businessSnapshotAgeHours,
        threshold: ALARM_THRESHOLDS.snapshotAgeHours,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 3,
        datapointsToAlarm: 2,
        // Ingestion reports the age on every run; hours without a report mean it is not running.
        treatMissingData: cloudwatch.TreatMissingData.BREACHING,
      }),
      serverErrors: alarm('ServerErrorRateAlarm', {
        alarmDescription: `More than ${ALARM_THRESHOLDS.serverErrorRate * 100}% of API requests answered 5xx.`,
        metric: serverErrorRate,
        threshold: ALARM_THRESHOLDS.serverErrorRate,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 3,
        datapointsToAlarm: 2,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
      authorizerErrors: alarm('AuthorizerErrorsAlarm', {
        alarmDescription: 'The authorizer failed; callers received 500 responses.',
        metric: api.authorizerFunction.function.metricErrors({ period: fiveMinutes }),
        threshold: ALARM_THRESHOLDS.authorizerErrors,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      }),
    };

    const tableThrottles = Object.entries(tables).flatMap(([name, table]) => [
      table.metric('ReadThrottleEvents', { statistic: 'Sum', period: fiveMinutes, label: `${name} read` }),
      table.metric('WriteThrottleEvents', { statistic: 'Sum', period: fiveMinutes, label: `${name} write` }),
    ]);

    const graph = (title: string, left: cloudwatch.IMetric[], extra: Partial<cloudwatch.GraphWidgetProps> = {}) =>
      new cloudwatch.GraphWidget({ title, left, width: 8, height: 6, ...extra });

    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      dashboardName: `${stack.stackName}-operations`,
      defaultInterval: Duration.days(1),
    });
    this.dashboard.addWidgets(
      new cloudwatch.TextWidget({
        markdown:
          '# fxrates\nRequests per plan come from the authorizer (one count per request); refusals are 429s and invalid keys. Snapshot age is the age of the newest ingested rates.',
        width: 24,
        height: 2,
      }),
    );
    this.dashboard.addWidgets(
      graph('Admitted requests per plan', perPlan(AUTHORIZER_METRICS.admitted), { stacked: true }),
      graph('Refused requests per plan', [
        ...perPlan(AUTHORIZER_METRICS.rateLimited),
        ...perPlan(AUTHORIZER_METRICS.quotaExceeded),
        custom(AUTHORIZER_METRICS.invalidKey, { [METRIC_DIMENSIONS.plan]: NO_PLAN }).with({
          label: AUTHORIZER_METRICS.invalidKey,
        }),
      ]),
      new cloudwatch.SingleValueWidget({
        title: 'Quota exceeded and rate limited (dashboard range)',
        metrics: [...perPlan(AUTHORIZER_METRICS.quotaExceeded), ...perPlan(AUTHORIZER_METRICS.rateLimited)],
        setPeriodToTimeRange: true,
        width: 8,
        height: 6,
      }),
    );
    this.dashboard.addWidgets(
      new cloudwatch.LogQueryWidget({
        title: 'Accounts nearest their monthly limit',
        logGroupNames: [api.authorizerFunction.logGroup.logGroupName],
        queryLines: [...NEAREST_LIMIT_QUERY],
        view: cloudwatch.LogQueryVisualizationType.TABLE,
        width: 12,
        height: 8,
      }),
      graph(
        'API latency',
        [
          api.restApi.metricLatency({ period: fiveMinutes, statistic: 'p50', label: 'p50' }),
          api.restApi.metricLatency({ period: fiveMinutes, statistic: 'p99', label: 'p99' }),
        ],
        { width: 6, height: 8, leftYAxis: { label: 'ms', showUnits: false } },
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
      graph('Snapshot age (hours)', [snapshotAgeHours], {
        right: [
          custom(INGEST_METRICS.currenciesServed, {}, 'Minimum').with({
            label: 'Currencies served',
            period: Duration.hours(1),
          }),
        ],
        leftAnnotations: [{ value: ALARM_THRESHOLDS.snapshotAgeHours, label: 'alarm on business days' }],
      }),
      graph(
        'Ingestion',
        [
          custom(INGEST_METRICS.daysWritten).with({ label: 'Days written' }),
          custom(INGEST_METRICS.rejections).with({ label: 'Snapshots rejected' }),
          ...METRICS.sources.map((source) =>
            custom(INGEST_METRICS.sourceFailures, { [METRIC_DIMENSIONS.source]: source }).with({
              label: `${source} failures`,
            }),
          ),
        ],
        { right: [dlqDepth] },
      ),
    );
    this.dashboard.addWidgets(
      new cloudwatch.AlarmStatusWidget({
        title: 'Alarms',
        alarms: Object.values(this.alarms),
        width: 24,
        height: 3,
      }),
    );
  }
}
