/**
 * Names that let several copies of the service share one account: each copy is a stage (context `stage`), in any
 * region. CloudFormation names a stack's resources after the stack, so only names given explicitly need care:
 * regional ones carry the stage (through the stack name, or `stagePrefix`), and account-global ones (CloudFront's,
 * CloudWatch dashboards) also carry the region. The default stage keeps the names of the first release.
 */
import { Stack } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import { METRIC_NAMESPACE, SERVICE_NAME } from '../lambdas/core/metric-names';
import { contextSetting } from './config';

/** The stack ids (which are the stack names) of the default stage. */
export const STACK_IDS = { data: 'FxratesData', service: 'FxratesService' } as const;

/** The stack ids of a stage: the default stage keeps STACK_IDS, so an existing deployment is updated in place. */
export function stackIds(stage: string | undefined): { data: string; service: string } {
  return stage === undefined
    ? { ...STACK_IDS }
    : { data: `${STACK_IDS.data}-${stage}`, service: `${STACK_IDS.service}-${stage}` };
}

/** `fxrates`, or `fxrates-<stage>`: the prefix of the regional names that are not built from the stack name. */
export function stagePrefix(stage: string | undefined): string {
  return stage === undefined ? SERVICE_NAME : `${SERVICE_NAME}-${stage}`;
}

/** The CloudWatch namespace of a stage's custom metrics: two stages in one region must not add up each other's. */
export function metricNamespace(stage: string | undefined): string {
  return stage === undefined ? METRIC_NAMESPACE : `${METRIC_NAMESPACE}-${stage}`;
}

/** The stage of the app a construct belongs to. */
export function stageOf(scope: IConstruct): string | undefined {
  return contextSetting(scope, 'stage');
}

/**
 * A name unique in the whole account: the stack's name (which carries the stage), its region (a reference to
 * AWS::Region in an environment-agnostic stack) and what the resource is.
 */
export function accountUniqueName(scope: IConstruct, what: string): string {
  const stack = Stack.of(scope);
  return `${stack.stackName}-${stack.region}-${what}`;
}
