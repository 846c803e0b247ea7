import { type Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { METRIC_NAMESPACE, SERVICE_NAME } from '../lambdas/core/metric-names';
import { BUNDLE_OPTIONS, type FunctionName, functionAliases, functionEntry, PROJECT_ROOT } from './bundling';

export interface FxratesFunctionProps {
  name: FunctionName;
  description: string;
  /** Defaults to FUNCTION_DEFAULTS.memorySize. */
  memorySize?: number;
  timeout: Duration;
  environment?: Record<string, string>;
  /** Asynchronous invocations only: retries after a function error, and where events go once they give up. */
  retryAttempts?: number;
  maxEventAge?: Duration;
  deadLetterQueue?: sqs.IQueue;
}

/** Settings every function shares; one place, so no function drifts from the others. */
export const FUNCTION_DEFAULTS = {
  runtime: lambda.Runtime.NODEJS_LATEST,
  architecture: lambda.Architecture.ARM_64,
  tracing: lambda.Tracing.ACTIVE,
  logRetention: logs.RetentionDays.ONE_MONTH,
  // Lambda allots CPU in proportion to memory, and a cold start is CPU-bound script parsing; at the few
  // milliseconds a warm request takes, 512 MB costs cents per million requests more than 128 MB.
  memorySize: 512,
  environment: {
    POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
    POWERTOOLS_METRICS_NAMESPACE: METRIC_NAMESPACE,
    NODE_OPTIONS: '--enable-source-maps',
  },
} as const;

/**
 * One Lambda function of the service: bundled from its entry (lib/bundling.ts) by the local esbuild (never Docker),
 * with its own role and log group. The role starts empty except for writing to that log group, so every data
 * permission is an explicit grant by the construct that wires the function.
 */
export class FxratesFunction extends Construct {
  readonly function: NodejsFunction;
  readonly role: iam.Role;
  readonly logGroup: logs.LogGroup;
  /** The bundled source file. */
  readonly entry: string;

  constructor(scope: Construct, id: string, props: FxratesFunctionProps) {
    super(scope, id);
    this.entry = functionEntry(props.name);
    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: FUNCTION_DEFAULTS.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    // A role of our own instead of the default one, which would attach the AWS managed basic-execution
    // policy (logs on every log group of the account).
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `fxrates ${props.name} function`,
    });
    this.logGroup.grantWrite(this.role);

    this.function = new NodejsFunction(this, 'Function', {
      entry: this.entry,
      handler: 'handler',
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: `${PROJECT_ROOT}/package-lock.json`,
      description: props.description,
      runtime: FUNCTION_DEFAULTS.runtime,
      architecture: FUNCTION_DEFAULTS.architecture,
      memorySize: props.memorySize ?? FUNCTION_DEFAULTS.memorySize,
      timeout: props.timeout,
      tracing: FUNCTION_DEFAULTS.tracing,
      role: this.role,
      logGroup: this.logGroup,
      environment: { ...FUNCTION_DEFAULTS.environment, ...props.environment },
      retryAttempts: props.retryAttempts,
      maxEventAge: props.maxEventAge,
      deadLetterQueue: props.deadLetterQueue,
      bundling: {
        minify: BUNDLE_OPTIONS.minify,
        sourceMap: BUNDLE_OPTIONS.sourceMap,
        sourcesContent: BUNDLE_OPTIONS.sourcesContent,
        target: BUNDLE_OPTIONS.target,
        format: BUNDLE_OPTIONS.format === 'cjs' ? OutputFormat.CJS : OutputFormat.ESM,
        externalModules: [...BUNDLE_OPTIONS.externalModules],
        mainFields: [...BUNDLE_OPTIONS.mainFields],
        esbuildArgs: { '--alias': Object.entries(functionAliases(props.name)).map(([from, to]) => `${from}=${to}`) },
        forceDockerBundling: false,
      },
    });
    Validations.of(this.role).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'Active tracing needs xray:PutTraceSegments and xray:PutTelemetryRecords, which support no resource-level permissions; no other statement uses a wildcard (checked by the infra tests).',
    });
  }
}
