/**
 * Releases that roll back on what clients see, on the synthesized template: each released function's alarm divides
 * the 5xx answers and function errors of the version being released by that version's invocations, CodeDeploy
 * watches it, and the alarm's math, evaluated here as CloudWatch evaluates it, breaches for a release that answers
 * 5xx and not for a healthy one's stray error. Also the guides' figures for these alarms, and what a `cdk destroy`
 * does with the alarm topic's key.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DASHBOARD_ROUTES } from '../../lambdas/core/http/dashboard-routes';
import { ROUTES } from '../../lambdas/core/http/routes';
import { countServerError } from '../../lambdas/core/http/server-errors';
import { METRIC_NAMESPACE, RELEASE_METRICS, SERVICE_NAME } from '../../lambdas/core/metric-names';
import { Metrics } from '../../lambdas/core/observability';
import type { FxratesFunction } from '../../lib/fxrates-function';
import { ALARM_TOPIC_KEY_PENDING_WINDOW } from '../../lib/monitoring';
import { ALARM_METRIC_MONTHLY_USD, LIVE_ALIAS, RELEASE_ALARM, releaseAlarmFigures } from '../../lib/release';
import { type AlarmQuery, alarmSeries, alarmStates, type Datapoint, type MathAlarm } from '../support/cloudwatch-alarm';
import * as synth from './synth';

type Dimension = { Name: string; Value: unknown };
type Query = AlarmQuery & {
  MetricStat?: AlarmQuery['MetricStat'] & { Metric: { Dimensions?: Dimension[] } };
};
type AlarmProps = MathAlarm & { AlarmName: string; Metrics: Query[] };

let s: synth.Synthesized;
beforeAll(() => {
  s = synth.synthesize(synth.SKIP_BUNDLING);
}, 120_000);
afterAll(() => s?.dispose());

function releaseAlarm(fn: FxratesFunction): AlarmProps {
  if (!fn.release) throw new Error(`${fn.node.path} is not released`);
  return synth.propsOf(
    synth.resourcesOf(s.service, 'AWS::CloudWatch::Alarm')[synth.logicalIdOf(fn.release.alarm)],
  ) as unknown as AlarmProps;
}

/** The alarm's metric queries by metric name, each dimension rendered (`<Ref:X>`, `<X.Version>`). */
function metricsOf(
  alarm: AlarmProps,
): Map<string, { namespace: string; stat: string; period: number; dims: Record<string, string> }> {
  const metrics = new Map();
  for (const query of alarm.Metrics) {
    if (!query.MetricStat) continue;
    const { Metric, Stat, Period } = query.MetricStat;
    const dims = Object.fromEntries((Metric.Dimensions ?? []).map((d) => [d.Name, synth.renderJoin(d.Value)]));
    metrics.set(Metric.MetricName, { namespace: Metric.Namespace, stat: Stat, period: Period, dims });
  }
  return metrics;
}

describe('the release alarms', () => {
  it('exist once per released function: the authorizer and every route of both APIs', () => {
    expect(synth.answeringFunctions(s).size).toBe(1 + ROUTES.length + DASHBOARD_ROUTES.length);
    expect(s.fx.service.releases.releases).toHaveLength(synth.answeringFunctions(s).size);
  });

  it("divide the 5xx answers and errors of the function's version being released by that version's invocations", () => {
    for (const [name, fn] of synth.answeringFunctions(s)) {
      const alarm = releaseAlarm(fn);
      const alias = synth.propsOf(
        synth.resourcesOf(s.service, 'AWS::Lambda::Alias')[synth.logicalIdOf(fn.release?.alias ?? fn)],
      );
      // The version the alias moves to is the one the alarm watches: both read the same AWS::Lambda::Version.
      const [versionId] = (alias.FunctionVersion as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'];
      expect(synth.resourcesOf(s.service, 'AWS::Lambda::Version')[versionId]?.Properties?.FunctionName).toEqual({
        Ref: synth.logicalIdOf(fn.function),
      });
      const functionName = `<Ref:${synth.logicalIdOf(fn.function)}>`;
      const version = `<${versionId}.Version>`;
      const byVersion = {
        FunctionName: functionName,
        Resource: `${functionName}:${LIVE_ALIAS}`,
        ExecutedVersion: version,
      };
      const period = RELEASE_ALARM.period.toSeconds();
      expect([name, Object.fromEntries(metricsOf(alarm))]).toEqual([
        name,
        {
          Invocations: { namespace: 'AWS/Lambda', stat: 'Sum', period, dims: byVersion },
          Errors: { namespace: 'AWS/Lambda', stat: 'Sum', period, dims: byVersion },
          [RELEASE_METRICS.serverErrors]: {
            namespace: METRIC_NAMESPACE,
            stat: 'Sum',
            period,
            dims: { service: SERVICE_NAME, function: functionName, version },
          },
        },
      ]);
      expect([name, alarm]).toEqual([
        name,
        expect.objectContaining({
          AlarmName: `FxratesService-release-${name.replace(/^dashboard /, '')}`,
          Threshold: RELEASE_ALARM.serverErrorShare,
          ComparisonOperator: 'GreaterThanOrEqualToThreshold',
          EvaluationPeriods: RELEASE_ALARM.evaluationPeriods,
          DatapointsToAlarm: RELEASE_ALARM.datapointsToAlarm,
          TreatMissingData: 'notBreaching',
        }),
      ]);
    }
  });

  it('read the very dimensions a 5xx answer writes, with the values Lambda gives the function', () => {
    for (const fn of synth.answeringFunctions(s).values()) {
      const serverErrors = metricsOf(releaseAlarm(fn)).get(RELEASE_METRICS.serverErrors);
      const lines: string[] = [];
      // In Lambda, AWS_LAMBDA_FUNCTION_NAME is the function's name (its Ref) and AWS_LAMBDA_FUNCTION_VERSION the
      // version running (the Version resource's Version attribute).
      countServerError(
        { functionName: serverErrors?.dims.function ?? '', version: serverErrors?.dims.version ?? '' },
        new Metrics({ write: (line) => lines.push(line), disabled: false }),
      );
      expect(lines).toHaveLength(1);
      const line = JSON.parse(lines[0] ?? '{}') as Record<string, unknown> & {
        _aws: { CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string }[] }[] };
      };
      const [directive] = line._aws.CloudWatchMetrics;
      expect(directive?.Namespace).toBe(serverErrors?.namespace);
      expect(directive?.Metrics.map((m) => m.Name)).toEqual([RELEASE_METRICS.serverErrors]);
      const written = Object.fromEntries((directive?.Dimensions[0] ?? []).map((d) => [d, line[d]]));
      expect(written).toEqual(serverErrors?.dims);
    }
  });

  it('are what each deployment group rolls back on, and are updated before the alias starts a deployment', () => {
    const groups = synth.resourcesOf(s.service, 'AWS::CodeDeploy::DeploymentGroup');
    const aliases = synth.resourcesOf(s.service, 'AWS::Lambda::Alias');
    for (const [name, fn] of synth.answeringFunctions(s)) {
      const release = fn.release;
      if (!release) throw new Error(`${name} is not released`);
      expect([name, synth.propsOf(groups[synth.logicalIdOf(release.group)]).AlarmConfiguration]).toEqual([
        name,
        { Enabled: true, Alarms: [{ Name: { Ref: synth.logicalIdOf(release.alarm) } }] },
      ]);
      expect([name, aliases[synth.logicalIdOf(release.alias)]?.DependsOn]).toEqual([
        name,
        expect.arrayContaining([synth.logicalIdOf(release.alarm), synth.logicalIdOf(release.group)]),
      ]);
    }
  });
});

/**
 * Minute-by-minute datapoints of the new version, as CloudWatch would return them for the alarm's queries: Lambda
 * publishes Invocations for a version only in minutes it ran, and the functions write ServerErrors only for a 5xx
 * (https://docs.aws.amazon.com/lambda/latest/dg/monitoring-metrics-types.html), so both are missing otherwise.
 */
function minutes(rows: { answers: number; serverErrors?: number; errors?: number }[]): Record<string, Datapoint[]> {
  const present = (n: number | undefined) => (n ? n : undefined);
  return {
    Invocations: rows.map((r) => present(r.answers)),
    Errors: rows.map((r) => (r.answers ? (r.errors ?? 0) : undefined)),
    [RELEASE_METRICS.serverErrors]: rows.map((r) => present(r.serverErrors)),
  };
}

const repeat = <T>(n: number, row: T): T[] => Array.from({ length: n }, () => row);

describe("the release alarm's math, evaluated as CloudWatch does", () => {
  // Each function's alarm, as synthesized: the expression is read from the template, not from RELEASE_ALARM.
  const judge = (data: Record<string, Datapoint[]>) =>
    [...synth.answeringFunctions(s).values()].map((fn) => {
      const alarm = releaseAlarm(fn);
      return alarmStates(alarm, alarmSeries(alarm, data));
    });
  const everyAlarm = (data: Record<string, Datapoint[]>) => {
    const states = judge(data);
    expect(new Set(states.map((s) => s.join(',')))).toHaveProperty('size', 1);
    return states[0] ?? [];
  };

  it('rolls back a canary whose version answers every request 5xx, within its first minutes', () => {
    // 300 requests a minute, 10 % of them to the new version, which answers each one 500 (caught, so no Errors).
    const states = everyAlarm(minutes(repeat(5, { answers: 30, serverErrors: 30 })));
    expect(states.slice(0, 2)).toEqual(['OK', 'ALARM']);
    expect(states.every((state, i) => i < 1 || state === 'ALARM')).toBe(true);
  });

  it('rolls back a version whose invocations fail (timeouts, crashes, the authorizer’s thrown 500s)', () => {
    expect(everyAlarm(minutes(repeat(3, { answers: 20, errors: 20 })))).toEqual(['OK', 'ALARM', 'ALARM']);
  });

  it('rolls back a version that fails one request in five', () => {
    expect(everyAlarm(minutes(repeat(3, { answers: 50, serverErrors: 10 })))).toContain('ALARM');
  });

  it('keeps a healthy release whose busy minutes carry a stray 5xx', () => {
    const rows = [
      { answers: 1000 },
      { answers: 1000, serverErrors: 1 },
      { answers: 1000, serverErrors: 1 },
      { answers: 1000, errors: 1 },
      { answers: 1000 },
    ];
    expect(everyAlarm(minutes(rows))).toEqual(repeat(5, 'OK'));
  });

  it('keeps a release through one unlucky minute (2 of 10 answers failed), which 2 breaching minutes of 3 need', () => {
    const rows = [{ answers: 10, serverErrors: 2 }, { answers: 10 }, { answers: 10 }, { answers: 10, serverErrors: 2 }];
    expect(everyAlarm(minutes(rows))).toEqual(repeat(4, 'OK'));
  });

  it('does not judge near-idle minutes: one request that fails says nothing about a share', () => {
    // Under RELEASE_ALARM.minAnswers answers a minute the share is noise: a lone failed request would be 100 %, and
    // rolling back on it is what made the old alarm fire on a healthy release's stray error. A release that fails
    // at this traffic is not caught by the canary; the monitoring alarms' 5xx share over 5 minutes still sees it.
    expect(everyAlarm(minutes(repeat(5, { answers: 1, serverErrors: 1 })))).toEqual(repeat(5, 'OK'));
    expect(everyAlarm(minutes(repeat(5, { answers: RELEASE_ALARM.minAnswers - 1, errors: 9 })))).toEqual(
      repeat(5, 'OK'),
    );
  });

  it('treats minutes without invocations as not breaching: an idle function neither blocks nor rolls back', () => {
    expect(everyAlarm(minutes(repeat(4, { answers: 0 })))).toEqual(repeat(4, 'OK'));
  });
});

// --- the guides ------------------------------------------------------------------------------------------------------

/**
 * The operators' guides (docs/deploying.md holds Releases, docs/operating.md the costs and what a destroy leaves) with
 * their wrapped lines joined (not table rows or headings): a sentence reads the same however it wraps.
 */
const guides = () =>
  ['deploying.md', 'operating.md']
    .map((file) => readFileSync(join(__dirname, '..', '..', 'docs', file), 'utf8'))
    .join('\n')
    .replace(/[ \t]*\n[ \t]*(?![|#])/g, ' ');

describe("the guides' release-alarm figures", () => {
  it('are derived from the app: one alarm per released function, each metric at the alarm list price', () => {
    const figures = releaseAlarmFigures(s.fx.service.releases);
    const alarms = Object.values(synth.resourcesOf(s.service, 'AWS::CodeDeploy::DeploymentGroup'));
    const queries = releaseAlarm(s.fx.service.api.authorizerFunction).Metrics.filter((q) => q.MetricStat);
    expect(figures).toEqual({
      alarms: alarms.length,
      metricsPerAlarm: queries.length,
      monthlyUsd: Math.round(alarms.length * queries.length * ALARM_METRIC_MONTHLY_USD * 100) / 100,
    });
    expect(figures.alarms).toBe(synth.answeringFunctions(s).size);
  });

  it('states those figures in the Releases section and the cost table', () => {
    const { alarms, metricsPerAlarm, monthlyUsd } = releaseAlarmFigures(s.fx.service.releases);
    const text = guides();
    const cost = `$${monthlyUsd.toFixed(2)}`;
    const releases = text.slice(text.indexOf('## Releases'), text.indexOf('\n## ', text.indexOf('## Releases') + 1));
    expect(releases).toContain(
      `the ${alarms} release alarms read ${alarms * metricsPerAlarm} metrics and cost ${cost} a month`,
    );
    expect(text).toContain(
      `| ${alarms} release alarms reading ${alarms * metricsPerAlarm} metrics, one per released function | ${cost} |`,
    );
  });
});

// --- what cdk destroy leaves --------------------------------------------------------------------------------------------

describe("the alarm topic's key", () => {
  it('is scheduled for deletion with the stack, after the shortest wait KMS allows', () => {
    const keys = Object.values(synth.resourcesOf(s.service, 'AWS::KMS::Key'));
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({
      DeletionPolicy: 'Delete',
      UpdateReplacePolicy: 'Delete',
      Properties: { PendingWindowInDays: ALARM_TOPIC_KEY_PENDING_WINDOW.toDays() },
    });
    // https://docs.aws.amazon.com/kms/latest/APIReference/API_ScheduleKeyDeletion.html: 7 to 30 days.
    expect(ALARM_TOPIC_KEY_PENDING_WINDOW.toDays()).toBe(7);
  });

  it('is named in the operating guide as deleted by a destroy, with its wait', () => {
    expect(guides()).toContain(
      `the alarm topic's KMS key is scheduled for deletion and deleted after ${ALARM_TOPIC_KEY_PENDING_WINDOW.toDays()} days`,
    );
  });
});
