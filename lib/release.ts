/**
 * Safe releases of the functions that answer requests: each publishes a version on every change, API Gateway calls
 * the alias `live`, and CodeDeploy moves `live` to the new version (by default 10 % of the traffic for 5 minutes,
 * then all of it), rolling back when the new version's release alarm fires. CloudFormation starts that deployment
 * itself when the alias's version changes (the alias's CodeDeployLambdaAliasUpdate policy), so `cdk deploy` waits
 * for it.
 *
 * The alarm judges the version being released by what its clients get: its share of 5xx answers. The endpoints
 * catch their failures and answer 500 or 503, which Lambda's `Errors` never counts, so each 5xx answer writes a
 * `ServerErrors` count with the function and version as dimensions (lambdas/core/http/server-errors.ts); Lambda's
 * own `Errors` (timeouts, crashes, the authorizer's thrown 500s) and `Invocations` of that version, by the alias
 * dimension `ExecutedVersion`, complete the share. The old version's stray errors are not in it, and a share, not a
 * count, is what a busy minute and a quiet one can be judged by alike.
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
 * How a release is judged, minute by minute: the new version's share of 5xx answers (its counted 5xx and its
 * function errors over its invocations) breaches at `serverErrorShare`, once it gave at least `minAnswers` answers
 * in the minute; `datapointsToAlarm` breaching minutes out of the last `evaluationPeriods` roll it back.
 *
 * - 5 % is far below what a broken release gives (a route that fails answers 100 %, one case in five 20 %) and far
 *   above a healthy version's background (a throttled read answered 503 now and then): one stray 5xx among 1,000
 *   answers is 0.1 %.
 * - Under 10 answers a minute the share is noise (one failure of 3 answers is 33 %), so such a minute counts as
 *   not breaching, as does a minute without invocations (missing data). A release that gets fewer answers than
 *   that in the canary's minutes is not judged by this alarm; the monitoring alarms still see its 5xx.
 * - 2 of 3 minutes: one unlucky minute (two stray errors among 10 answers) does not roll back, a version that
 *   keeps failing does, 2 to 3 minutes after its first answers plus CloudWatch's delay, within the canary's 5.
 */
export const RELEASE_ALARM = {
  period: Duration.minutes(1),
  serverErrorShare: 0.05,
  minAnswers: 10,
  evaluationPeriods: 3,
  datapointsToAlarm: 2,
} as const;

/**
 * CloudWatch's list price (us-east-1) of a standard-resolution alarm, per metric it reads, per month: an alarm on a
 * math expression pays for each metric of the expression.
 */
export const ALARM_METRIC_MONTHLY_USD = 0.1;

/** What the release alarms of an app amount to, for the figures in docs/deploying.md and docs/operating.md. */
export interface ReleaseAlarmFigures {
  alarms: number;
  metricsPerAlarm: number;
  monthlyUsd: number;
}

/** Counts the release alarms and the metrics they read, and prices them at ALARM_METRIC_MONTHLY_USD per metric. */
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

/**
 * The share of 5xx answers of the version `version` of `fn` when invoked through the alias `live`. Lambda publishes
 * alias invocations with the dimensions FunctionName, Resource (`<function>:<alias>`) and ExecutedVersion (the
 * version that ran); the function writes its own count with function and version.
 */
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

/**
 * The CodeDeploy application and service role that every released function shares, and the releases themselves.
 * The deployment groups live beside their functions (see `release`).
 */
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

  /** Every release so far, in creation order. */
  get releases(): readonly Release[] {
    return this.all;
  }

  /**
   * Publishes `fn` behind the alias `live` and lets CodeDeploy shift traffic to each new version. Created in the
   * function's own scope (`scope`), so each function keeps its resources together.
   */
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
