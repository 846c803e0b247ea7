/**
 * The operators' alarms, Contributor Insights rules, dashboard and access log fields, asserted on the synthesized
 * templates: each alarm's metric, statistic, period, threshold, comparison, missing-data treatment and actions, and
 * each rule's log group, keys and filters, evaluated here against the lines the authorizer's observer really writes.
 * How CloudWatch then behaves on a real account (missing data, the rule's metrics) is for the checks in docs/operating.md.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Match } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { AuthorizerOutcome } from '../../lambdas/core/auth/authorizer';
import { createAuthorizerObserver } from '../../lambdas/core/auth/observe';
import { CENTRAL_BANK_IDS } from '../../lambdas/core/domain/publishers';
import { AGGREGATOR, SOURCE_IDS } from '../../lambdas/core/domain/rates';
import { encodeAccess } from '../../lambdas/core/http/authorizer-context';
import { Logger, Metrics } from '../../lambdas/core/observability';
import { ACCESS_LOG_FIELDS } from '../../lib/access-log';
import { FUNCTION_NAMES } from '../../lib/bundling';
import { scheduleIntervalHours } from '../../lib/monitoring';
import { alarmStates, type Datapoint, type MathAlarm } from '../support/cloudwatch-alarm';
import { logicalIdOf, propsOf, renderJoin, resourcesOf, SKIP_BUNDLING, type Synthesized, synthesize } from './synth';

type Dimension = { Name: string; Value: unknown };
interface MetricStat {
  Metric: { MetricName: string; Namespace: string; Dimensions?: Dimension[] };
  Period: number;
  Stat: string;
}
interface Query {
  Id: string;
  Expression?: unknown;
  MetricStat?: MetricStat;
  Period?: number;
  ReturnData?: boolean;
}
interface AlarmProps {
  AlarmName: string;
  AlarmActions?: unknown[];
  OKActions?: unknown[];
  ComparisonOperator: string;
  Threshold: number;
  EvaluationPeriods: number;
  DatapointsToAlarm?: number;
  TreatMissingData?: string;
  EvaluateLowSampleCountPercentile?: string;
  Metrics: Query[];
}

const STACK = 'FxratesService';
const HOUR = 3600;

/** The alarms of the Monitoring construct (other constructs, such as the releases' rollback alarms, have their own). */
function alarmsOf(s: Synthesized): AlarmProps[] {
  const resources = resourcesOf(s.service, 'AWS::CloudWatch::Alarm');
  return Object.values(s.fx.service.monitoring.alarms).map(
    (a) => propsOf(resources[logicalIdOf(a)]) as unknown as AlarmProps,
  );
}

function alarm(s: Synthesized, name: string): AlarmProps {
  const found = alarmsOf(s).find((a) => a.AlarmName === `${STACK}-${name}`);
  if (!found) throw new Error(`no alarm named ${STACK}-${name}`);
  return found;
}

/** The one metric a single-metric alarm watches. */
function watched(a: AlarmProps): MetricStat {
  const [query, ...more] = a.Metrics;
  if (!query?.MetricStat || more.length > 0) throw new Error(`${a.AlarmName} is not a single-metric alarm`);
  expect(query.ReturnData).toBe(true);
  return query.MetricStat;
}

/** The expression a metric-math alarm watches, rendered, with the metrics it reads by id. */
function expressionOf(a: AlarmProps): { expression: string; period?: number; metrics: Map<string, MetricStat> } {
  const returned = a.Metrics.filter((q) => q.ReturnData !== false);
  expect(returned).toHaveLength(1);
  const [result] = returned;
  if (result?.Expression === undefined) throw new Error(`${a.AlarmName} watches no expression`);
  const metrics = new Map(a.Metrics.flatMap((q) => (q.MetricStat ? [[q.Id, q.MetricStat] as const] : [])));
  return {
    expression: renderJoin(result.Expression),
    ...(result.Period === undefined ? {} : { period: result.Period }),
    metrics,
  };
}

const dims = (stat: MetricStat) => Object.fromEntries((stat.Metric.Dimensions ?? []).map((d) => [d.Name, d.Value]));

let s: Synthesized;
let topic: { Ref: string };
beforeAll(() => {
  s = synthesize(SKIP_BUNDLING);
  topic = { Ref: logicalIdOf(s.fx.service.monitoring.topic) };
}, 120_000);
afterAll(() => s?.dispose());

describe('alarms that fire', () => {
  it('has the alarms an operator expects, each named after the stack', () => {
    expect(
      alarmsOf(s)
        .map((a) => a.AlarmName.replace(`${STACK}-`, ''))
        .sort(),
    ).toEqual(
      [
        'account-near-quota',
        'api-5xx-rate',
        'api-p99-latency',
        'authorizer-error-rate',
        'currencies-served',
        'dashboard-api-5xx-rate',
        'dynamodb-throttles',
        'ingestion-dead-letters',
        'ingestion-heartbeat',
        'lambda-throttles-account-dashboard',
        'lambda-throttles-public-api',
        // One per configured source: by default the ECB, the twelve central banks and currency-api.
        ...SOURCE_IDS.map((source) => `source-failing-${source}`),
        // One per configured source the cross-check compares: all of them but the aggregator.
        ...SOURCE_IDS.filter((source) => source !== AGGREGATOR).map((source) => `cross-check-${source}`),
        'stale-rates',
        'waf-blocked-share',
      ].sort(),
    );
  });

  it('notifies one SNS topic, encrypted with a rotated key CloudWatch may use, with no subscription by default', () => {
    s.service.resourceCountIs('AWS::SNS::Topic', 1);
    s.service.hasResourceProperties('AWS::SNS::Topic', {
      KmsMasterKeyId: { 'Fn::GetAtt': [Match.stringLikeRegexp('AlarmTopicKey'), 'Arn'] },
    });
    s.service.hasResourceProperties('AWS::KMS::Key', { EnableKeyRotation: true });
    s.service.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Action: 'sns:Publish', Principal: { Service: 'cloudwatch.amazonaws.com' } }),
        ]),
      },
    });
    s.service.resourceCountIs('AWS::SNS::Subscription', 0);
  });

  it('notifies the topic of every alarm, and of the return to OK where that is news', () => {
    const eventLike = ['ingestion-dead-letters', 'account-near-quota', 'lambda-throttles'];
    for (const a of alarmsOf(s)) {
      expect(a.AlarmActions).toEqual([topic]);
      if (eventLike.some((name) => a.AlarmName.startsWith(`${STACK}-${name}`))) expect(a.OKActions).toBeUndefined();
      else expect(a.OKActions).toEqual([topic]);
    }
  });

  // The single-metric alarms: the metric, statistic and period each watches, and when it alarms ("3 of 3": datapoints
  // to alarm of evaluation periods).
  const singleMetricAlarms: {
    title: string;
    name: string;
    stat: Record<string, unknown>;
    dimensions?: Record<string, unknown>;
    alarm: Partial<AlarmProps>;
    datapoints: string;
  }[] = [
    {
      title: 'heartbeat: no successful ingestion run for 3 hours, and an hour without any report counts as none',
      name: 'ingestion-heartbeat',
      stat: { Metric: { MetricName: 'SuccessfulRuns', Namespace: 'fxrates' }, Stat: 'Sum', Period: HOUR },
      dimensions: { service: 'fxrates' },
      alarm: { ComparisonOperator: 'LessThanThreshold', Threshold: 1, TreatMissingData: 'breaching' },
      datapoints: '3 of 3',
    },
    {
      title: 'staleness: the raw snapshot age above 48 hours with currency-api, missing data breaching',
      name: 'stale-rates',
      stat: { Metric: { MetricName: 'SnapshotAgeSeconds', Namespace: 'fxrates' }, Stat: 'Maximum', Period: HOUR },
      alarm: { ComparisonOperator: 'GreaterThanThreshold', Threshold: 48 * HOUR, TreatMissingData: 'breaching' },
      datapoints: '3 of 3',
    },
    {
      title: 'currencies: fewer than 100 currencies served in two runs in a row',
      name: 'currencies-served',
      stat: { Metric: { MetricName: 'CurrenciesServed' }, Stat: 'Maximum', Period: HOUR },
      alarm: { ComparisonOperator: 'LessThanThreshold', Threshold: 100, TreatMissingData: 'notBreaching' },
      datapoints: '2 of 2',
    },
    // A central bank is fetched once a weekday, after its publication window (lib/ingestion.ts).
    ...CENTRAL_BANK_IDS.map((source) => ({
      title: `central bank ${source}: failed on each of 3 daily runs in a row`,
      name: `source-failing-${source}`,
      stat: { Metric: { MetricName: 'SourceFailures' }, Stat: 'Minimum', Period: 24 * HOUR },
      dimensions: { service: 'fxrates', source },
      alarm: { Threshold: 1, TreatMissingData: 'notBreaching' },
      datapoints: '3 of 3',
    })),
    ...['ecb', 'currency-api'].map((source) => ({
      title: `source ${source}: failed on each of 3 runs in a row`,
      name: `source-failing-${source}`,
      stat: { Metric: { MetricName: 'SourceFailures' }, Stat: 'Minimum', Period: HOUR },
      dimensions: { service: 'fxrates', source },
      alarm: { ComparisonOperator: 'GreaterThanOrEqualToThreshold', Threshold: 1, TreatMissingData: 'notBreaching' },
      datapoints: '3 of 3',
    })),
    // The day's highest count: a central bank reports once a weekday, the ECB once a run.
    ...SOURCE_IDS.filter((source) => source !== AGGREGATOR).map((source) => ({
      title: `cross-check ${source}: a day with an over-tolerance quote not exempt, on 2 of the last 4 days`,
      name: `cross-check-${source}`,
      stat: {
        Metric: { MetricName: 'CrossCheckOverTolerance', Namespace: 'fxrates' },
        Stat: 'Maximum',
        Period: 24 * HOUR,
      },
      dimensions: { service: 'fxrates', source },
      alarm: { ComparisonOperator: 'GreaterThanOrEqualToThreshold', Threshold: 1, TreatMissingData: 'notBreaching' },
      datapoints: '2 of 4',
    })),
  ];

  it.each(singleMetricAlarms)('$title', ({ name, stat, dimensions, alarm: expected, datapoints }) => {
    const a = alarm(s, name);
    const metric = watched(a);
    expect(metric).toMatchObject(stat);
    if (dimensions) expect(dims(metric)).toEqual(dimensions);
    expect(a).toMatchObject(expected);
    expect(`${a.DatapointsToAlarm} of ${a.EvaluationPeriods}`).toBe(datapoints);
  });

  it('staleness: no metric math, whose IF() or DAY() would hide missing data behind values that never breach', () => {
    for (const other of alarmsOf(s)) {
      expect(JSON.stringify(other.Metrics)).not.toMatch(/DAY\(|FILL\(/);
    }
  });

  it('dead letters: any message sent to the queue in five minutes, so each new one notifies again', () => {
    const a = alarm(s, 'ingestion-dead-letters');
    const stat = watched(a);
    expect(stat).toMatchObject({
      Metric: { MetricName: 'NumberOfMessagesSent', Namespace: 'AWS/SQS' },
      Stat: 'Sum',
      Period: 300,
    });
    expect(dims(stat)).toEqual({
      QueueName: { 'Fn::GetAtt': [logicalIdOf(s.fx.service.ingestion.deadLetterQueue), 'QueueName'] },
    });
    expect(a).toMatchObject({
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      Threshold: 1,
      EvaluationPeriods: 1,
      TreatMissingData: 'notBreaching',
    });
  });

  it.each([
    ['api-5xx-rate', 'fxrates'],
    ['dashboard-api-5xx-rate', 'fxrates-dashboard'],
  ])('%s: more than 5%% of requests answered 5xx, from 20 requests in five minutes', (name, apiName) => {
    const a = alarm(s, name);
    const { expression, metrics } = expressionOf(a);
    expect(expression).toBe('IF(requests >= 20, errors / requests, 0)');
    expect(metrics.get('requests')).toMatchObject({ Metric: { MetricName: 'Count' }, Stat: 'Sum', Period: 300 });
    expect(metrics.get('errors')).toMatchObject({ Metric: { MetricName: '5XXError' }, Stat: 'Sum', Period: 300 });
    for (const stat of metrics.values()) expect(dims(stat)).toEqual({ ApiName: apiName });
    expect(a).toMatchObject({
      ComparisonOperator: 'GreaterThanThreshold',
      Threshold: 0.05,
      EvaluationPeriods: 3,
      DatapointsToAlarm: 2,
      TreatMissingData: 'notBreaching',
    });
  });

  it('authorizer: an error rate over 2% from 50 invocations, not a single error', () => {
    const a = alarm(s, 'authorizer-error-rate');
    const { expression, metrics } = expressionOf(a);
    expect(expression).toBe('IF(invocations >= 50, errors / invocations, 0)');
    const fn = { Ref: logicalIdOf(s.fx.service.api.authorizerFunction.function) };
    expect(metrics.get('errors')).toMatchObject({ Metric: { MetricName: 'Errors', Namespace: 'AWS/Lambda' } });
    expect(metrics.get('invocations')).toMatchObject({ Metric: { MetricName: 'Invocations' }, Stat: 'Sum' });
    for (const stat of metrics.values()) expect(dims(stat)).toEqual({ FunctionName: fn });
    expect(a).toMatchObject({ ComparisonOperator: 'GreaterThanThreshold', Threshold: 0.02, DatapointsToAlarm: 2 });
  });

  it('latency: the public API’s p99 above 2500 ms for 15 minutes, ignoring too few requests', () => {
    const a = alarm(s, 'api-p99-latency');
    expect(watched(a)).toMatchObject({ Metric: { MetricName: 'Latency', Namespace: 'AWS/ApiGateway' }, Stat: 'p99' });
    expect(a).toMatchObject({
      ComparisonOperator: 'GreaterThanThreshold',
      Threshold: 2500,
      EvaluationPeriods: 3,
      DatapointsToAlarm: 3,
      EvaluateLowSampleCountPercentile: 'ignore',
      TreatMissingData: 'notBreaching',
    });
  });

  it('Lambda throttles: every function but ingestion, whose reserved 1 throttles on purpose, in alarms of at most 10 metrics', () => {
    const throttleAlarms = alarmsOf(s).filter((a) => a.AlarmName.startsWith(`${STACK}-lambda-throttles`));
    const watchedFunctions: unknown[] = [];
    for (const a of throttleAlarms) {
      const { expression, metrics } = expressionOf(a);
      expect(expression).toMatch(/^SUM\(\[m\d+(, m\d+)*\]\)$/);
      expect(metrics.size).toBeLessThanOrEqual(10);
      for (const stat of metrics.values()) {
        expect(stat).toMatchObject({ Metric: { MetricName: 'Throttles', Namespace: 'AWS/Lambda' }, Stat: 'Sum' });
        watchedFunctions.push(dims(stat).FunctionName);
      }
      expect(a).toMatchObject({ ComparisonOperator: 'GreaterThanOrEqualToThreshold', Threshold: 1 });
    }
    const { api, dashboardApi, ingestion } = s.fx.service;
    const all = [api.authorizerFunction, ...api.routeFunctions.values(), ...dashboardApi.routeFunctions.values()].map(
      (fn) => ({ Ref: logicalIdOf(fn.function) }),
    );
    expect(all).toHaveLength(FUNCTION_NAMES.length - 1);
    expect(watchedFunctions).toHaveLength(all.length);
    expect(watchedFunctions).toEqual(expect.arrayContaining(all));
    expect(watchedFunctions).not.toContainEqual({ Ref: logicalIdOf(ingestion.function.function) });
  });

  it('DynamoDB throttles: reads and writes of both tables and of the accounts table’s indexes', () => {
    const a = alarm(s, 'dynamodb-throttles');
    const { metrics } = expressionOf(a);
    const seen = [...metrics.values()].map((stat) => {
      const d = dims(stat);
      return `${stat.Metric.MetricName} ${JSON.stringify(d.TableName)} ${String(d.GlobalSecondaryIndexName ?? '-')}`;
    });
    const tables = new Set([...metrics.values()].map((stat) => JSON.stringify(dims(stat).TableName)));
    expect(tables.size).toBe(2);
    for (const table of tables) {
      for (const name of ['ReadThrottleEvents', 'WriteThrottleEvents']) expect(seen).toContain(`${name} ${table} -`);
    }
    expect(seen.filter((line) => / keys-by-(account|id)$/.test(line))).toHaveLength(4);
    expect(a).toMatchObject({
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      Threshold: 1,
      DatapointsToAlarm: 2,
    });
  });

  it('WAF: the web ACL blocking more than 10% of at least 100 requests for 15 minutes', () => {
    const a = alarm(s, 'waf-blocked-share');
    const { expression, metrics } = expressionOf(a);
    expect(expression).toBe('IF(allowed + blocked >= 100, blocked / (allowed + blocked), 0)');
    const webAcl = s.fx.service.api.webAcl;
    if (!webAcl) throw new Error('the default context has a web ACL');
    const acl = propsOf(resourcesOf(s.service, 'AWS::WAFv2::WebACL')[logicalIdOf(webAcl.acl)]);
    const aclMetricName = (acl.VisibilityConfig as { MetricName: string }).MetricName;
    for (const [id, name] of [
      ['allowed', 'AllowedRequests'],
      ['blocked', 'BlockedRequests'],
    ] as const) {
      const stat = metrics.get(id);
      expect(stat).toMatchObject({ Metric: { MetricName: name, Namespace: 'AWS/WAFV2' }, Stat: 'Sum', Period: 300 });
      expect(stat && dims(stat)).toEqual({ WebACL: aclMetricName, Rule: 'ALL', Region: { Ref: 'AWS::Region' } });
    }
    expect(a).toMatchObject({ Threshold: 0.1, EvaluationPeriods: 3, DatapointsToAlarm: 3 });
  });

  it('quota: the highest quota sample of the hour at or past quotaAlarmPercent (90 by default)', () => {
    const a = alarm(s, 'account-near-quota');
    const { expression, period, metrics } = expressionOf(a);
    const rule = logicalIdOf(s.fx.service.monitoring.insightRules.quota);
    expect(expression).toBe(`INSIGHT_RULE_METRIC('<${rule}.RuleName>', 'Maximum')`);
    expect(metrics.size).toBe(0);
    expect(period).toBe(HOUR);
    expect(a).toMatchObject({
      ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      Threshold: 90,
      EvaluationPeriods: 1,
      TreatMissingData: 'missing',
    });
  });

  it('stays within what CloudWatch accepts: 10 metrics per alarm, and 1 day (7 days from hourly periods)', () => {
    for (const a of alarmsOf(s)) {
      expect(a.Metrics.filter((q) => q.MetricStat).length).toBeLessThanOrEqual(10);
      const periods = a.Metrics.map((q) => q.MetricStat?.Period ?? q.Period).filter(
        (p): p is number => p !== undefined,
      );
      const period = Math.max(...periods);
      expect(period % 60).toBe(0);
      expect(period * a.EvaluationPeriods).toBeLessThanOrEqual(period < HOUR ? 86_400 : 604_800);
      expect(a.DatapointsToAlarm ?? a.EvaluationPeriods).toBeLessThanOrEqual(a.EvaluationPeriods);
    }
  });
});

// --- Contributor Insights ---------------------------------------------------------------------------------------------

interface RuleFilter {
  Match: string;
  In?: string[];
  EqualTo?: number;
  IsPresent?: boolean;
}
interface RuleBody {
  Schema: { Name: string; Version: number };
  LogGroupNames: string[];
  LogFormat: string;
  Contribution: { Keys: string[]; ValueOf?: string; Filters: RuleFilter[] };
  AggregateOn: 'Count' | 'Sum';
}

function ruleBody(s: Synthesized, rule: keyof Synthesized['fx']['service']['monitoring']['insightRules']): RuleBody {
  const props = propsOf(
    resourcesOf(s.service, 'AWS::CloudWatch::InsightRule')[logicalIdOf(s.fx.service.monitoring.insightRules[rule])],
  );
  expect(props.RuleState).toBe('ENABLED');
  return JSON.parse(renderJoin(props.RuleBody)) as RuleBody;
}

/** What a rule makes of log lines, as Contributor Insights evaluates them: contributor (keys joined by |) → value. */
function contributions(rule: RuleBody, lines: Record<string, unknown>[]): Map<string, number> {
  const get = (line: Record<string, unknown>, path: string) => line[path.replace(/^\$\./, '')];
  const passes = (line: Record<string, unknown>, f: RuleFilter) => {
    const value = get(line, f.Match);
    if (f.IsPresent !== undefined) return (value !== undefined) === f.IsPresent;
    if (f.In) return value !== undefined && f.In.includes(String(value));
    if (f.EqualTo !== undefined) return Number(value) === f.EqualTo;
    throw new Error(`unsupported filter ${JSON.stringify(f)}`);
  };
  const out = new Map<string, number>();
  for (const line of lines) {
    if (!rule.Contribution.Filters.every((f) => passes(line, f))) continue;
    const keys = rule.Contribution.Keys.map((k) => get(line, k));
    if (keys.some((k) => k === undefined)) continue;
    const value = rule.AggregateOn === 'Count' ? 1 : Number(get(line, rule.Contribution.ValueOf ?? ''));
    const key = keys.join('|');
    out.set(key, (out.get(key) ?? 0) + value);
  }
  return out;
}

/** The authorizer log group's lines for a morning of decisions: EMF decision lines and the refusal lines alike. */
function authorizerLogLines(): Record<string, unknown>[] {
  const lines: string[] = [];
  const write = (line: string) => lines.push(line);
  const observe = createAuthorizerObserver(() => 0, {
    metrics: new Metrics({ write, disabled: false }),
    logger: new Logger({ logLevel: 'INFO', write }),
  });
  const at = Date.parse('2026-11-20T09:00:10Z');
  const meter = (
    verdict: 'admitted' | 'rate-limit-exceeded' | 'quota-exceeded',
    minuteUsed: number,
    used: number,
    limit: number,
  ) => ({
    verdict,
    plan: 'x',
    minuteLimit: 60,
    minuteUsed,
    monthLimit: limit,
    monthUsed: used,
    at,
  });
  const outcomes: AuthorizerOutcome[] = [
    { kind: 'metered', accountId: 'acc-a', plan: 'pro', meter: meter('admitted', 1, 29_700, 33_000) },
    { kind: 'metered', accountId: 'acc-a', plan: 'pro', meter: meter('admitted', 2, 29_701, 33_000) },
    { kind: 'metered', accountId: 'acc-a', plan: 'pro', meter: meter('admitted', 3, 29_702, 33_000) },
    { kind: 'metered', accountId: 'acc-e', plan: 'business', meter: meter('admitted', 1, 10, 150_000) },
    { kind: 'metered', accountId: 'acc-b', plan: 'free', meter: meter('quota-exceeded', 0, 1500, 1500) },
    { kind: 'metered', accountId: 'acc-b', plan: 'free', meter: meter('quota-exceeded', 0, 1500, 1500) },
    { kind: 'account-inactive', accountId: 'acc-c', plan: 'business' },
    { kind: 'metered', accountId: 'acc-d', plan: 'pro', meter: meter('rate-limit-exceeded', 60, 5, 33_000) },
    { kind: 'missing-api-key' },
    { kind: 'invalid-api-key' },
    { kind: 'api-key-in-url' },
  ];
  for (const outcome of outcomes) observe(outcome);
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('Contributor Insights rules over the authorizer’s log group', () => {
  const authorizerLogGroup = () => `<Ref:${logicalIdOf(s.fx.service.api.authorizerFunction.logGroup)}>`;

  it('are three, each on the authorizer’s log group only, named after the stack', () => {
    const rules = Object.values(resourcesOf(s.service, 'AWS::CloudWatch::InsightRule')).map(propsOf);
    expect(rules.map((r) => r.RuleName).sort()).toEqual([
      `${STACK}-quota-used-by-account`,
      `${STACK}-refusals-by-account`,
      `${STACK}-requests-by-account`,
    ]);
    for (const name of ['requests', 'refusals', 'quota'] as const) {
      const body = ruleBody(s, name);
      expect(body.Schema).toEqual({ Name: 'CloudWatchLogRule', Version: 1 });
      expect(body.LogFormat).toBe('JSON');
      expect(body.LogGroupNames).toEqual([authorizerLogGroup()]);
    }
  });

  // The refusal lines beside the decision lines are not counted twice; three requests of acc-a in one minute give one
  // quota value: its share, not three times it.
  it.each([
    {
      title: 'top accounts by requests: every decision line naming an account, counted by account and plan',
      rule: 'requests',
      contribution: {
        Keys: ['$.accountId', '$.plan'],
        Filters: [
          { Match: '$.verdict', IsPresent: true },
          { Match: '$.accountId', IsPresent: true },
        ],
      },
      aggregateOn: 'Count',
      contributors: { 'acc-a|Pro': 3, 'acc-e|Business': 1, 'acc-b|Free': 2, 'acc-c|Business': 1, 'acc-d|Pro': 1 },
    },
    {
      title: 'top accounts by refusals: refusals of valid keys, by account and reason',
      rule: 'refusals',
      contribution: {
        Keys: ['$.accountId', '$.verdict'],
        Filters: [
          { Match: '$.verdict', In: ['rate-limit-exceeded', 'quota-exceeded', 'account-inactive'] },
          { Match: '$.accountId', IsPresent: true },
        ],
      },
      aggregateOn: 'Count',
      contributors: { 'acc-b|quota-exceeded': 2, 'acc-c|account-inactive': 1, 'acc-d|rate-limit-exceeded': 1 },
    },
    {
      title: 'accounts by share of quota: the percentage of one sample per account and minute',
      rule: 'quota',
      contribution: {
        Keys: ['$.accountId', '$.plan'],
        ValueOf: '$.percentUsed',
        Filters: [{ Match: '$.quotaSample', EqualTo: 1 }],
      },
      aggregateOn: 'Sum',
      contributors: { 'acc-a|Pro': 90, 'acc-e|Business': 0 },
    },
  ] as const)('$title', ({ rule, contribution, aggregateOn, contributors }) => {
    const body = ruleBody(s, rule);
    expect(body.Contribution).toEqual(contribution);
    expect(body.AggregateOn).toBe(aggregateOn);
    expect(Object.fromEntries(contributions(body, authorizerLogLines()))).toEqual(contributors);
  });

  it('accounts by share of quota: reaches the near-quota alarm’s threshold on this morning', () => {
    // The alarm's statistic is the highest single value.
    const shares = contributions(ruleBody(s, 'quota'), authorizerLogLines());
    expect(Math.max(...shares.values())).toBeGreaterThanOrEqual(alarm(s, 'account-near-quota').Threshold);
  });
});

// --- dashboard ----------------------------------------------------------------------------------------------------------

interface Widget {
  type: string;
  properties: {
    title?: string;
    metrics?: unknown[][];
    query?: string;
    alarms?: string[];
    period?: number;
    insightRule?: { ruleName: string; orderBy: string; maxContributorCount: number };
  };
}

function widgets(s: Synthesized): Widget[] {
  const [dashboard] = Object.values(resourcesOf(s.service, 'AWS::CloudWatch::Dashboard'));
  return (JSON.parse(renderJoin(dashboard?.Properties?.DashboardBody)) as { widgets: Widget[] }).widgets;
}

function widget(s: Synthesized, title: RegExp): Widget {
  const found = widgets(s).find((w) => title.test(w.properties.title ?? ''));
  if (!found) throw new Error(`no widget titled ${title}`);
  return found;
}

describe('the operations dashboard', () => {
  it('has one dashboard, named after the stack and its region (dashboards are global to the account)', () => {
    s.service.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
    s.service.hasResourceProperties('AWS::CloudWatch::Dashboard', {
      DashboardName: { 'Fn::Join': ['', [`${STACK}-`, { Ref: 'AWS::Region' }, '-operations']] },
    });
  });

  it.each([
    [/^Top accounts by requests$/, 'requests', 'Sum', 300],
    [/^Top accounts by refusals/, 'refusals', 'Sum', 300],
    [/^Accounts by share of their monthly limit/, 'quota', 'Maximum', 60],
  ] as const)('graphs %s from its rule, top 10 by %s', (title, rule, orderBy, period) => {
    const w = widget(s, title);
    expect(w.type).toBe('metric');
    expect(w.properties.insightRule).toEqual({
      ruleName: `<${logicalIdOf(s.fx.service.monitoring.insightRules[rule])}.RuleName>`,
      orderBy,
      maxContributorCount: 10,
    });
    expect(w.properties.period).toBe(period);
  });

  it('totals requests per plan and refusals by reason from the plan × verdict counts', () => {
    const perPlan = JSON.stringify(widget(s, /^Requests per plan$/).properties.metrics);
    for (const plan of ['Free', 'Pro', 'Business']) {
      for (const verdict of ['admitted', 'rate-limit-exceeded', 'quota-exceeded', 'account-inactive']) {
        expect(perPlan).toContain(`"Requests","plan","${plan}","service","fxrates","verdict","${verdict}"`);
      }
    }
    const byReason = widget(s, /^Refusals by reason$/).properties.metrics ?? [];
    const labels = byReason.map((row) => (row.at(-1) as { label?: string }).label).filter(Boolean);
    expect(labels).toEqual(
      expect.arrayContaining(['rate-limit-exceeded', 'quota-exceeded', 'account-inactive', 'invalid-api-key']),
    );
  });

  it('keeps the Logs Insights table of the accounts nearest their limit, over the decision lines', () => {
    const w = widget(s, /nearest their monthly limit/i);
    expect(w.type).toBe('log');
    expect(w.properties.query).toContain(`SOURCE '<Ref:${logicalIdOf(s.fx.service.api.authorizerFunction.logGroup)}>'`);
    expect(w.properties.query).toMatch(
      /filter ispresent\(percentUsed\)[\s\S]*max\(percentUsed\)[\s\S]*sort percent desc/,
    );
  });

  it('shows API latency p50/p99, 4xx/5xx, Lambda errors, throttles and durations, DynamoDB throttles, ingestion', () => {
    const metricNames = (w: Widget) =>
      (w.properties.metrics ?? []).filter((m) => typeof m[0] === 'string').map((m) => `${m[0]}/${m[1]}`);
    const latency = widget(s, /^API latency$/).properties.metrics ?? [];
    expect(latency.map((m) => (m.at(-1) as { stat: string }).stat).sort()).toEqual(['p50', 'p99']);
    expect(metricNames(widget(s, /^API 4xx and 5xx$/))).toEqual(
      expect.arrayContaining(['AWS/ApiGateway/4XXError', 'AWS/ApiGateway/5XXError']),
    );
    for (const [title, metric] of [
      [/^Lambda errors$/, 'AWS/Lambda/Errors'],
      [/^Lambda throttles$/, 'AWS/Lambda/Throttles'],
      [/^Lambda duration p99$/, 'AWS/Lambda/Duration'],
    ] as const) {
      expect(metricNames(widget(s, title))).toEqual(FUNCTION_NAMES.map(() => metric));
    }
    expect(metricNames(widget(s, /^DynamoDB throttles$/)).sort()).toEqual(
      [...Array(4)].flatMap(() => ['AWS/DynamoDB/ReadThrottleEvents', 'AWS/DynamoDB/WriteThrottleEvents']).sort(),
    );
    expect(metricNames(widget(s, /^Snapshot age/))).toEqual(['fxrates/SnapshotAgeSeconds', 'fxrates/CurrenciesServed']);
    expect(metricNames(widget(s, /^Ingestion$/))).toEqual(
      expect.arrayContaining(['fxrates/SuccessfulRuns', 'fxrates/SourceFailures', 'AWS/SQS/NumberOfMessagesSent']),
    );
    expect(metricNames(widget(s, /^Web ACL$/)).sort()).toEqual([
      'AWS/WAFV2/AllowedRequests',
      'AWS/WAFV2/BlockedRequests',
    ]);
  });

  it('shows every alarm in its alarm widget', () => {
    const ids = Object.values(s.fx.service.monitoring.alarms).map(logicalIdOf);
    // A failure alarm per source and a cross-check alarm per source but the aggregator.
    expect(ids).toHaveLength(13 + SOURCE_IDS.length + (SOURCE_IDS.length - 1));
    expect(widget(s, /^Alarms$/).properties.alarms?.sort()).toEqual(ids.map((id) => `<${id}.Arn>`).sort());
  });
});

// --- access log --------------------------------------------------------------------------------------------------------

describe('the public API’s access log', () => {
  const formatOf = (restApiId: string) => {
    const stage = Object.values(resourcesOf(s.service, 'AWS::ApiGateway::Stage')).find(
      (r) => JSON.stringify(r.Properties?.RestApiId) === JSON.stringify({ Ref: restApiId }),
    );
    return JSON.parse((propsOf(stage).AccessLogSetting as { Format: string }).Format) as Record<string, string>;
  };

  it('names the account, its plan and the authorizer’s verdict, from the keys the authorizer context has', () => {
    const format = formatOf(logicalIdOf(s.fx.service.api.restApi));
    const context = encodeAccess({ verdict: 'admitted', accountId: 'acc-1', plan: 'pro' });
    expect(Object.keys(context).sort()).toEqual(['accountId', 'plan', 'verdict']);
    for (const key of Object.keys(context)) expect(format[key]).toBe(`$context.authorizer.${key}`);
    expect(format).toEqual(ACCESS_LOG_FIELDS);
  });

  it('leaves them off the dashboard API’s line, whose authorizer is Cognito’s', () => {
    const format = formatOf(logicalIdOf(s.fx.service.dashboardApi.restApi));
    for (const key of ['accountId', 'plan', 'verdict', 'denyCode']) expect(format).not.toHaveProperty(key);
    expect(format.sub).toBe('$context.authorizer.claims.sub');
  });
});

// --- the operating guide ---------------------------------------------------------------------------------------------

describe('docs/operating.md: Operating it', () => {
  const section = () => {
    const guide = readFileSync(join(__dirname, '..', '..', 'docs', 'operating.md'), 'utf8');
    const end = guide.indexOf('\n## What it costs');
    expect(end).toBeGreaterThan(0);
    return guide.slice(0, end);
  };

  it('lists exactly the alarms of the stack in its table', () => {
    const rows = section()
      .split('\n')
      .filter((line) => line.startsWith('| `'));
    const documented = rows.flatMap((row) => [...(row.split('|')[1] ?? '').matchAll(/`([^`]+)`/g)].map((m) => m[1]));
    const expanded = documented.flatMap((name) =>
      name === 'source-failing-<source>'
        ? s.fx.config.sources.map((source) => `source-failing-${source}`)
        : name === 'cross-check-<source>'
          ? s.fx.config.sources.filter((source) => source !== AGGREGATOR).map((source) => `cross-check-${source}`)
          : [name],
    );
    expect(expanded.sort()).toEqual(
      alarmsOf(s)
        .map((a) => a.AlarmName.replace(`${STACK}-`, ''))
        .sort(),
    );
  });

  it('states the count of alarms, the metrics they read and their monthly cost as synthesized', () => {
    const all = alarmsOf(s);
    // CloudWatch bills an alarm per metric it reads ($0.10 a month each); one on a Contributor Insights rule reads one.
    const metrics = all.reduce((sum, a) => sum + Math.max(1, a.Metrics.filter((q) => q.MetricStat).length), 0);
    const cost = (metrics * 0.1).toFixed(2);
    const guide = readFileSync(join(__dirname, '..', '..', 'docs', 'operating.md'), 'utf8');
    expect(guide).toContain(`${all.length} alarms reading ${metrics} metrics, $${cost} a month`);
    expect(guide).toContain(
      `| ${all.length} monitoring alarms reading ${metrics} metrics ([Operating it](#operating-it)) | $${cost} |`,
    );
  });

  it('names the Contributor Insights rules as they are deployed', () => {
    const text = section();
    for (const rule of Object.values(resourcesOf(s.service, 'AWS::CloudWatch::InsightRule'))) {
      expect(text).toContain(`\`${String(propsOf(rule).RuleName)}\``);
    }
  });
});

// --- the cross-check alarm, evaluated -------------------------------------------------------------------------------

/**
 * CloudWatch's M-out-of-N evaluation of the synthesized alarm over one datapoint a day (the day's highest
 * CrossCheckOverTolerance), with missing days treated as the alarm says
 * (https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/alarm-evaluation.html).
 */
describe("a publisher's cross-check alarm, evaluated as CloudWatch does", () => {
  // Monday 2 March 2026 to Friday 13 March: a central bank reports on weekdays only; undefined is a day without data.
  const _ = undefined;
  const states = (source: string, days: readonly Datapoint[]) =>
    alarmStates(alarm(s, `cross-check-${source}`) as unknown as MathAlarm, days);

  it('stays OK while only an exempt currency disagrees (NBP’s Cuban peso every day counts 0)', () => {
    expect(states('nbp', [0, 0, 0, 0, 0, _, _, 0, 0, 0, 0, 0])).not.toContain('ALARM');
  });

  it('stays OK through one odd day, and through no cross-check at all', () => {
    expect(states('nbu', [0, 0, 0, 0, 0, _, _, 1, 0, 0, 0, 0])).not.toContain('ALARM');
    expect(
      states(
        'ecb',
        Array.from({ length: 12 }, () => _),
      ),
    ).not.toContain('ALARM');
  });

  it('alarms on the second weekday in a row, also across a weekend, and returns to OK after three clean days', () => {
    expect(states('boi', [0, 2, 1, 0, 0, _, _, 0, 0, 0, 0, 0]).join(' ')).toBe(
      'OK OK ALARM ALARM ALARM OK OK OK OK OK OK OK',
    );
    expect(states('cbr', [0, 0, 0, 0, 1, _, _, 1, 0, 0, 0, 0]).join(' ')).toBe(
      'OK OK OK OK OK OK OK ALARM OK OK OK OK',
    );
  });

  it('keeps alarming while the disagreement lasts', () => {
    expect(states('rba', [1, 1, 1, 1, 1, _, _, 1, 1, 1, 1, 1]).slice(1)).toEqual(Array(11).fill('ALARM'));
  });
});

// --- derived from the deploy configuration ------------------------------------------------------------------------------

describe('scheduleIntervalHours', () => {
  it.each([
    ['rate(1 hour)', 1],
    ['rate(15 minutes)', 1],
    ['rate(90 minutes)', 2],
    ['rate(6 hours)', 6],
    ['rate(1 day)', 24],
    ['rate(7 days)', 48],
    ['cron(15 * * * ? *)', 1],
    ['cron(0 */4 * * ? *)', 4],
    ['cron(0 6,18 * * ? *)', 12],
    ['cron(0 6 * * ? *)', 24],
    ['cron(0 6 ? * MON-FRI *)', 24],
  ])('reads %s as a run every %d hours', (expression, hours) => {
    expect(scheduleIntervalHours(expression)).toBe(hours);
  });
});

describe('with the ECB only, a daily run, no WAF, an e-mail, an existing topic and a quota alarm at 75%', () => {
  const existing = 'arn:aws:sns:eu-west-1:123456789012:ops-alarms';
  let v: Synthesized;
  beforeAll(() => {
    v = synthesize({
      ...SKIP_BUNDLING,
      sources: 'ecb',
      ingestSchedule: 'cron(0 6 * * ? *)',
      waf: 'false',
      alarmEmail: 'ops@example.com',
      alarmTopicArn: existing,
      quotaAlarmPercent: '75',
    });
  }, 120_000);
  afterAll(() => v?.dispose());

  it('waits out the ECB’s longest holiday gap (five days) and expects its 31 currencies', () => {
    expect(alarm(v, 'stale-rates').Threshold).toBe(124 * HOUR);
    expect(alarm(v, 'currencies-served').Threshold).toBe(25);
  });

  it('scales the heartbeat and the per-run alarms to one run a day', () => {
    expect(alarm(v, 'ingestion-heartbeat')).toMatchObject({ EvaluationPeriods: 72, DatapointsToAlarm: 72 });
    expect(watched(alarm(v, 'source-failing-ecb')).Period).toBe(24 * HOUR);
    expect(watched(alarm(v, 'currencies-served')).Period).toBe(24 * HOUR);
  });

  it('alarms on configured sources only, and has no WAF alarm without a web ACL', () => {
    const names = alarmsOf(v).map((a) => a.AlarmName);
    expect(names).toContain(`${STACK}-source-failing-ecb`);
    expect(names).not.toContain(`${STACK}-source-failing-currency-api`);
    expect(names).toContain(`${STACK}-cross-check-ecb`);
    expect(names.filter((name) => name.includes('cross-check-'))).toHaveLength(1);
    expect(names).not.toContain(`${STACK}-waf-blocked-share`);
  });

  it('notifies the stack’s topic and the existing one, and subscribes the e-mail', () => {
    const own = { Ref: logicalIdOf(v.fx.service.monitoring.topic) };
    for (const a of alarmsOf(v)) {
      expect(a.AlarmActions).toEqual([own, existing]);
      if (a.OKActions) expect(a.OKActions).toEqual([own, existing]);
    }
    v.service.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'ops@example.com',
      TopicArn: own,
    });
  });

  it('alarms on the quota at the configured share', () => {
    expect(alarm(v, 'account-near-quota').Threshold).toBe(75);
  });

  it('passes cdk-nag, as the default configuration does', () => {
    expect(new AwsSolutionsChecks().validateScope(v.app).violations.map((x) => x.ruleName)).toEqual([]);
    expect(new AwsSolutionsChecks().validateScope(s.app).violations.map((x) => x.ruleName)).toEqual([]);
  });
});
