import { Duration, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type { Construct } from 'constructs';
import { AGGREGATOR } from '../../lambdas/core/domain/rates';
import {
  ACCOUNT_VERDICTS,
  DECISION_FIELDS,
  INGEST_METRICS,
  KEYLESS_VERDICTS,
  NO_PLAN,
  REFUSAL_VERDICTS,
} from '../../lambdas/core/metric-names';
import { accountUniqueName } from '../stage';
import { ContributorInsightsWidget, type InsightRules } from './contributor-insights';
import { METRICS, type MonitoringMetrics, type MonitoringProps } from './metrics';
import { ALARM_THRESHOLDS } from './thresholds';

/** Logs Insights over the authorizer's decision lines: accounts ordered by how much of their month they used. */
export const NEAREST_LIMIT_QUERY = [
  `fields ${DECISION_FIELDS.accountId}, ${DECISION_FIELDS.plan}, ${DECISION_FIELDS.percentUsed}, ${DECISION_FIELDS.monthUsed}, ${DECISION_FIELDS.monthLimit}`,
  `filter ispresent(${DECISION_FIELDS.percentUsed})`,
  `stats max(${DECISION_FIELDS.percentUsed}) as percent, max(${DECISION_FIELDS.monthUsed}) as used, max(${DECISION_FIELDS.monthLimit}) as monthlyLimit by ${DECISION_FIELDS.accountId}, ${DECISION_FIELDS.plan}`,
  'sort percent desc',
  'limit 25',
] as const;

const graph = (title: string, left: cloudwatch.IMetric[], extra: Partial<cloudwatch.GraphWidgetProps> = {}) =>
  new cloudwatch.GraphWidget({ title, left, width: 8, height: 6, ...extra });

/** The operators' dashboard: one row per concern, top to bottom from the clients' requests to the alarms. */
export function createDashboard(
  scope: Construct,
  props: MonitoringProps,
  m: MonitoringMetrics,
  insightRules: InsightRules,
  alarms: Readonly<Record<string, cloudwatch.Alarm>>,
): cloudwatch.Dashboard {
  const dashboard = new cloudwatch.Dashboard(scope, 'Dashboard', {
    // Dashboards are global to the account (not regional), so the name carries the region beside the stage.
    dashboardName: accountUniqueName(scope, 'operations'),
    defaultInterval: Duration.days(1),
  });
  dashboard.addWidgets(
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
  dashboard.addWidgets(...decisionWidgets(m));
  dashboard.addWidgets(...topAccountWidgets(m, insightRules, Stack.of(scope).region));
  dashboard.addWidgets(...publicApiWidgets(m, props));
  dashboard.addWidgets(
    graph('Lambda errors', lambdaMetrics(m, 'errors')),
    graph('Lambda throttles', lambdaMetrics(m, 'throttles')),
    graph('Lambda duration p99', lambdaMetrics(m, 'p99'), { leftYAxis: { label: 'ms', showUnits: false } }),
  );
  dashboard.addWidgets(...dataWidgets(m, props));
  dashboard.addWidgets(...edgeWidgets(m, props, alarms));
  return dashboard;
}

/** The authorizer's decisions: requests per plan and refusals by reason. */
function decisionWidgets(m: MonitoringMetrics): cloudwatch.IWidget[] {
  const perPlanTotals = [
    ...METRICS.planNames.map((plan) =>
      m.sum(
        plan,
        ACCOUNT_VERDICTS.map((verdict) => m.decisions(plan, verdict)),
      ),
    ),
    m.sum(
      'No account (key missing, unknown or in the URL)',
      KEYLESS_VERDICTS.map((verdict) => m.decisions(NO_PLAN, verdict)),
    ),
  ];
  const refusalsByReason = (period?: Duration) => [
    ...REFUSAL_VERDICTS.map((verdict) =>
      m.sum(
        verdict,
        METRICS.planNames.map((plan) => m.decisions(plan, verdict)),
        period,
      ),
    ),
    ...KEYLESS_VERDICTS.map((verdict) => m.decisions(NO_PLAN, verdict).with({ label: verdict, period })),
  ];
  return [
    graph('Requests per plan', perPlanTotals, { stacked: true }),
    graph('Refusals by reason', refusalsByReason(), { stacked: true }),
    new cloudwatch.SingleValueWidget({
      title: 'Refusals by reason (dashboard range)',
      metrics: refusalsByReason(Duration.days(1)),
      setPeriodToTimeRange: true,
      width: 8,
      height: 6,
    }),
  ];
}

function topAccountWidgets(m: MonitoringMetrics, insightRules: InsightRules, region: string): cloudwatch.IWidget[] {
  const topAccounts: [string, cloudwatch.CfnInsightRule, 'Sum' | 'Maximum', Duration][] = [
    ['Top accounts by requests', insightRules.requests, 'Sum', m.fiveMinutes],
    ['Top accounts by refusals (and why)', insightRules.refusals, 'Sum', m.fiveMinutes],
    ['Accounts by share of their monthly limit (%)', insightRules.quota, 'Maximum', Duration.minutes(1)],
  ];
  return topAccounts.map(
    ([title, rule, orderBy, period]) =>
      new ContributorInsightsWidget({
        title,
        ruleName: rule.attrRuleName,
        region,
        orderBy,
        period,
        width: 8,
        height: 8,
      }),
  );
}

function publicApiWidgets(m: MonitoringMetrics, { api }: MonitoringProps): cloudwatch.IWidget[] {
  const fiveMinutes = m.fiveMinutes;
  return [
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
        m.p99Latency.with({ label: 'p99' }),
      ],
      {
        width: 6,
        height: 8,
        leftYAxis: { label: 'ms', showUnits: false },
        leftAnnotations: [{ value: ALARM_THRESHOLDS.p99LatencyMs, label: 'p99 alarm' }],
      },
    ),
    answersGraph('API 4xx and 5xx', api.restApi, fiveMinutes, { width: 6, height: 8 }),
  ];
}

/** A REST API's 4xx and 5xx answers, and its requests on the right axis. */
function answersGraph(
  title: string,
  restApi: MonitoringProps['api']['restApi'],
  period: Duration,
  extra: Partial<cloudwatch.GraphWidgetProps> = {},
): cloudwatch.GraphWidget {
  return graph(
    title,
    [restApi.metricClientError({ period, label: '4xx' }), restApi.metricServerError({ period, label: '5xx' })],
    { right: [requestCount(restApi, period)], ...extra },
  );
}

function requestCount(restApi: MonitoringProps['api']['restApi'], period: Duration): cloudwatch.Metric {
  return restApi.metricCount({ period, statistic: 'Sum', label: 'Requests' });
}

function lambdaMetrics(m: MonitoringMetrics, name: 'errors' | 'throttles' | 'p99'): cloudwatch.IMetric[] {
  return m.functions.map(([, label, fn]) => {
    const f = fn.function;
    if (name === 'errors') return f.metricErrors({ period: m.fiveMinutes, label });
    if (name === 'throttles') return f.metricThrottles({ period: m.fiveMinutes, label });
    return f.metricDuration({ period: m.fiveMinutes, statistic: name, label: `${label} ${name}` });
  });
}

/** The tables and the ingestion that fills them. */
function dataWidgets(m: MonitoringMetrics, { ingestion, config }: MonitoringProps): cloudwatch.IWidget[] {
  return [
    graph('DynamoDB throttles', m.tableThrottles),
    graph('Snapshot age (seconds)', [m.snapshotAge], {
      right: [m.currenciesServed],
      leftAnnotations: [{ value: m.figures.staleAfterHours * 3600, label: 'stale' }],
      rightAnnotations: [{ value: m.figures.minCurrencies, label: 'too few currencies' }],
    }),
    graph(
      'Ingestion',
      [
        m.successfulRuns,
        m.custom(INGEST_METRICS.daysWritten).with({ label: 'Days written', period: Duration.hours(1) }),
        m.custom(INGEST_METRICS.rejections).with({ label: 'Snapshots rejected', period: Duration.hours(1) }),
        ...config.sources.map(m.sourceFailures),
      ],
      {
        right: [
          m.deadLetters,
          ingestion.deadLetterQueue.metricApproximateNumberOfMessagesVisible({
            period: m.fiveMinutes,
            statistic: 'Maximum',
            label: 'Dead letters waiting',
          }),
        ],
      },
    ),
    // The aggregator is never cross-checked, so it emits no such figure.
    graph(
      'Cross-check: quotes over tolerance',
      config.sources.filter((source) => source !== AGGREGATOR).map(m.crossCheckOverTolerance),
    ),
  ];
}

/** The account dashboard's API, the web ACL in front of the public one, and the state of every alarm. */
function edgeWidgets(
  m: MonitoringMetrics,
  props: MonitoringProps,
  alarms: Readonly<Record<string, cloudwatch.Alarm>>,
): cloudwatch.IWidget[] {
  return [
    answersGraph('Account dashboard API', props.dashboardApi.restApi, m.fiveMinutes),
    graph(
      'Web ACL',
      m.waf
        ? [m.waf.allowed.with({ label: 'Allowed' }), m.waf.blocked.with({ label: 'Blocked' })]
        : [requestCount(props.api.restApi, m.fiveMinutes).with({ label: 'Requests (no web ACL: waf=false)' })],
      { stacked: true },
    ),
    new cloudwatch.AlarmStatusWidget({
      title: 'Alarms',
      alarms: Object.values(alarms),
      width: 8,
      height: 6,
    }),
  ];
}
