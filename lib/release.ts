/**
 * Safe releases: API Gateway calls each answering function's alias `live`, and CodeDeploy moves it to each new
 * version (10 % for 5 minutes by default), rolling back when that version's share of 5xx answers breaches. The
 * endpoints answer their own failures 500/503, which Lambda's `Errors` never counts, so they write a `ServerErrors`
 * count per version (lambdas/core/http/server-errors.ts); a share, not a count, judges busy and quiet minutes alike.
 */
import { Duration, Stack, Validations } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as codedeploy from 'aws-cdk-lib/aws-codedeploy';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { METRIC_DIMENSIONS, RELEASE_METRICS, SERVICE_NAME } from '../lambdas/core/metric-names';
import { metricNamespace, stageOf } from './stage';

/** The alias API Gateway invokes. */
export const LIVE_ALIAS = 'live';

/**
 * 5 % is far below a broken release (a failing route answers 100 %) and far above a healthy background (one stray
 * 5xx in 1,000 is 0.1 %). Under 10 answers a minute the share is noise, so such a minute does not breach. 2 of 3
 * minutes: one unlucky minute does not roll back; a failing version does, within the canary's 5 minutes.
 */
export const RELEASE_ALARM = {
  period: Duration.minutes(1),
  serverErrorShare: 0.05,
  minAnswers: 10,
  evaluationPeriods: 3,
  datapointsToAlarm: 2,
} as const;

/** CloudWatch's list price (us-east-1) per metric a standard alarm reads, per month (math pays per metric). */
export const ALARM_METRIC_MONTHLY_USD = 0.1;

/** What the release alarms of an app amount to, for the figures in docs/deploying.md and docs/operating.md. */
export interface ReleaseAlarmFigures {
  alarms: number;
  metricsPerAlarm: number;
  monthlyUsd: number;
}

export function releaseAlarmFigures(releases: Releases): ReleaseAlarmFigures {
  const perAlarm = releases.releases.map(({ alarm }) => {
    const math = alarm.metric.toMetricConfig().mathExpression;
    return math ? Object.keys(math.usingMetrics).length : 1;
  });
  const metricsPerAlarm = perAlarm[0] ?? 0;
  if (perAlarm.some((n) => n !== metricsPerAlarm))
    throw new Error('the release alarms read different numbers of metrics');
  const metrics = perAlarm.reduce((sum, n) => sum + n, 0);
  return {
    alarms: perAlarm.length,
    metricsPerAlarm,
    monthlyUsd: Math.round(metrics * ALARM_METRIC_MONTHLY_USD * 100) / 100,
  };
}

/** Lambda publishes alias invocations by FunctionName, Resource (`<function>:<alias>`) and ExecutedVersion. */
export function serverErrorShare(fn: lambda.IFunction, version: string): cloudwatch.MathExpression {
  const { period } = RELEASE_ALARM;
  const byVersion = {
    FunctionName: fn.functionName,
    Resource: `${fn.functionName}:${LIVE_ALIAS}`,
    ExecutedVersion: version,
  };
  const lambdaMetric = (metricName: string) =>
    new cloudwatch.Metric({
      namespace: 'AWS/Lambda',
      metricName,
      dimensionsMap: byVersion,
      statistic: cloudwatch.Stats.SUM,
      period,
    });
  return new cloudwatch.MathExpression({
    // Both counts are written only when there is something to count: FILL makes a minute without them 0.
    expression: `IF(invocations >= ${RELEASE_ALARM.minAnswers}, (FILL(serverErrors, 0) + FILL(errors, 0)) / invocations, 0)`,
    usingMetrics: {
      invocations: lambdaMetric('Invocations'),
      errors: lambdaMetric('Errors'),
      serverErrors: new cloudwatch.Metric({
        namespace: metricNamespace(stageOf(fn)),
        metricName: RELEASE_METRICS.serverErrors,
        dimensionsMap: {
          [METRIC_DIMENSIONS.service]: SERVICE_NAME,
          [METRIC_DIMENSIONS.function]: fn.functionName,
          [METRIC_DIMENSIONS.version]: version,
        },
        statistic: cloudwatch.Stats.SUM,
        period,
      }),
    },
    label: 'Share of 5xx answers of the released version',
    period,
  });
}

export interface ReleasesProps {
  /** Canary (10 % for 5 minutes) when true, all at once when false; both roll back on the alarm. */
  canary: boolean;
}

/** One function's release: its alias, the alarm that rolls it back, and the CodeDeploy deployment group. */
export interface Release {
  alias: lambda.Alias;
  alarm: cloudwatch.Alarm;
  group: codedeploy.LambdaDeploymentGroup;
}

/** The CodeDeploy application and role every release shares; deployment groups live beside their functions. */
export class Releases extends Construct {
  readonly application: codedeploy.LambdaApplication;
  readonly role: iam.Role;
  readonly deploymentConfig: codedeploy.ILambdaDeploymentConfig;
  private readonly all: Release[] = [];

  constructor(scope: Construct, id: string, props: ReleasesProps) {
    super(scope, id);
    this.application = new codedeploy.LambdaApplication(this, 'Application');
    this.deploymentConfig = props.canary
      ? codedeploy.LambdaDeploymentConfig.CANARY_10PERCENT_5MINUTES
      : codedeploy.LambdaDeploymentConfig.ALL_AT_ONCE;
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('codedeploy.amazonaws.com'),
      description: 'fxrates releases: CodeDeploy moves the live aliases and reads their alarms',
    });
    Validations.of(this.role).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSCodeDeployRoleForLambdaLimited]',
      reason:
        'CDK attaches the AWS managed CodeDeploy policy for Lambda to every Lambda deployment group role: updating the aliases, reading the rollback alarms and invoking only CodeDeployHook_* functions; AWS maintains it for that purpose.',
    });
  }

  get releases(): readonly Release[] {
    return this.all;
  }

  /** Created in the function's own scope, so each function keeps its resources together. */
  release(scope: Construct, fn: lambda.Function, name: string): Release {
    const version = fn.currentVersion;
    const alias = new lambda.Alias(scope, 'Live', { aliasName: LIVE_ALIAS, version });
    const alarm = new cloudwatch.Alarm(scope, 'LiveErrors', {
      alarmName: `${Stack.of(scope).stackName}-release-${name}`,
      alarmDescription: `fxrates ${name}: share of 5xx answers of the version being released; CodeDeploy rolls the release back on it`,
      // The version number is known at deploy time only: each deploy points the alarm at the version it publishes.
      metric: serverErrorShare(fn, version.version),
      threshold: RELEASE_ALARM.serverErrorShare,
      evaluationPeriods: RELEASE_ALARM.evaluationPeriods,
      datapointsToAlarm: RELEASE_ALARM.datapointsToAlarm,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      // A minute without invocations has no share: an idle function must not block or roll back a release.
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    const group = new codedeploy.LambdaDeploymentGroup(scope, 'Release', {
      application: this.application,
      alias,
      deploymentConfig: this.deploymentConfig,
      role: this.role,
      alarms: [alarm],
      autoRollback: { failedDeployment: true, stoppedDeployment: true, deploymentInAlarm: true },
    });
    // The alias's update starts the deployment, which must watch the new version from its first request: the alarm
    // (and the group that names it) are updated first.
    alias.node.addDependency(alarm, group);
    const release = { alias, alarm, group };
    this.all.push(release);
    return release;
  }
}
