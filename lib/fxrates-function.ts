import { type Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { SERVICE_NAME } from '../lambdas/core/metric-names';
import { TRACING_ENV, tracingSetting } from '../lambdas/core/tracing';
import { BUNDLE_OPTIONS, type FunctionName, functionAliases, functionEntry, PROJECT_ROOT } from './bundling';
import { contextSetting } from './config';
import type { Release, Releases } from './release';
import { metricNamespace, stageOf } from './stage';

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
  /** Publish versions behind the alias `live`, moved by CodeDeploy (lib/release.ts). Callers then invoke `target`. */
  releases?: Releases;
  /** Unset: the function draws on the account's unreserved pool. */
  reservedConcurrency?: number;
}

/** Settings every function shares; one place, so no function drifts from the others. */
export const FUNCTION_DEFAULTS = {
  // Pinned, so a CDK upgrade cannot move the functions to another Node.js: nodejs22.x, the Lambda runtime nearest
  // the Node.js 20 the tests run on (package.json engines); the bundles target the same version (lib/bundling.ts).
  runtime: lambda.Runtime.NODEJS_22_X,
  architecture: lambda.Architecture.ARM_64,
  tracing: lambda.Tracing.DISABLED,
  logRetention: logs.RetentionDays.ONE_MONTH,
  // Lambda allots CPU in proportion to memory, and a cold start is CPU-bound script parsing; at the few
  // milliseconds a warm request takes, 512 MB costs cents per million requests more than 128 MB.
  memorySize: 512,
  environment: {
    POWERTOOLS_SERVICE_NAME: SERVICE_NAME,
    // Stack traces name the TypeScript source, at a cost to every cold start.
    // Why: docs/clever-parts.md#measured-and-left-alone
    NODE_OPTIONS: '--enable-source-maps',
  },
} as const;

/** Its role can only write its log group: every data permission is an explicit grant by whoever wires it. */
export class FxratesFunction extends Construct {
  readonly function: NodejsFunction;
  readonly role: iam.Role;
  readonly logGroup: logs.LogGroup;
  readonly entry: string;
  /** Whether X-Ray traces this function (context flag `tracing`). */
  readonly tracing: boolean;
  /** The alias and deployment group, when the function is released through CodeDeploy. */
  readonly release: Release | undefined;
  /** What callers invoke: the alias `live` of a released function, the function itself otherwise. */
  readonly target: lambda.IFunction;

  constructor(scope: Construct, id: string, props: FxratesFunctionProps) {
    super(scope, id);
    this.entry = functionEntry(props.name);
    this.tracing = contextSetting(this, 'tracing');
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
      tracing: this.tracing ? lambda.Tracing.ACTIVE : FUNCTION_DEFAULTS.tracing,
      role: this.role,
      logGroup: this.logGroup,
      environment: {
        ...FUNCTION_DEFAULTS.environment,
        POWERTOOLS_METRICS_NAMESPACE: metricNamespace(stageOf(this)),
        [TRACING_ENV]: tracingSetting(this.tracing),
        ...props.environment,
      },
      reservedConcurrentExecutions: props.reservedConcurrency,
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
        // Why: docs/clever-parts.md#x-ray-sdk-outside-the-bundles. Without tracing the option must be absent, not
        // empty: CDK installs for any array it is given, shipping the project's lock file in every function's asset.
        ...(this.tracing ? { nodeModules: ['aws-xray-sdk-core'] } : {}),
        forceDockerBundling: false,
      },
    });
    Validations.of(this.function).acknowledge({
      id: 'AwsSolutions-L1',
      reason:
        'The runtime is pinned on purpose (FUNCTION_DEFAULTS.runtime, nodejs22.x, still supported): the bundles are compiled for it and the tests ran on the Node.js line nearest it, so a CDK upgrade must not move them; moving is a reviewed change of the pin and the esbuild target together.',
    });
    if (this.tracing) {
      Validations.of(this.role).acknowledge({
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason:
          'Active tracing needs xray:PutTraceSegments and xray:PutTelemetryRecords, which support no resource-level permissions; no other statement uses a wildcard (checked by the infra tests).',
      });
    }
    this.release = props.releases?.release(this, this.function, props.name);
    this.target = this.release?.alias ?? this.function;
  }
}
