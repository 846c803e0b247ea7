import type { ServiceStack } from './stacks';

/** Acknowledges the cdk-nag findings that are deliberate, each with its reason. */
export function acknowledgeFindings(_service: ServiceStack): void {}
