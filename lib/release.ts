/**
 * Safe releases of the functions that answer requests: each publishes a version on every change, API Gateway calls
 * the alias `live`, and CodeDeploy moves `live` to the new version (by default 10 % of the traffic for 5 minutes,
 * then all of it), rolling back when the alias's error alarm fires. CloudFormation starts that deployment itself
 * when the alias's version changes (the alias's CodeDeployLambdaAliasUpdate policy), so `cdk deploy` waits for it.
 */
import { Duration, Stack, Validations } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as codedeploy from 'aws-cdk-lib/aws-codedeploy';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';

/** The alias API Gateway invokes. */
export const LIVE_ALIAS = 'live';

/** How a release watches the alias: any function error in a minute rolls the release back. */
export const RELEASE_ALARM = { period: Duration.minutes(1), threshold: 1, evaluationPeriods: 1 } as const;

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
    const alias = new lambda.Alias(scope, 'Live', { aliasName: LIVE_ALIAS, version: fn.currentVersion });
    const alarm = new cloudwatch.Alarm(scope, 'LiveErrors', {
      alarmName: `${Stack.of(scope).stackName}-release-${name}`,
      alarmDescription: `fxrates ${name}: errors of the ${LIVE_ALIAS} alias; CodeDeploy rolls a release back on it`,
      metric: alias.metricErrors({ period: RELEASE_ALARM.period, statistic: cloudwatch.Stats.SUM }),
      threshold: RELEASE_ALARM.threshold,
      evaluationPeriods: RELEASE_ALARM.evaluationPeriods,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      // No invocations, no errors: an idle function must not block or roll back a release.
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
    const release = { alias, alarm, group };
    this.all.push(release);
    return release;
  }
}
