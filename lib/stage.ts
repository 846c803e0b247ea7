/**
 * Names that let several copies (stages) of the service share one account: explicit regional names carry the stage,
 * account-global ones (CloudFront's, dashboards) the region too. The default stage keeps the first release's names.
 */
import { Stack } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import { METRIC_NAMESPACE, SERVICE_NAME } from '../lambdas/core/metric-names';
import { contextSetting } from './config';

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
