/**
 * Synthesizes the real app (the one `bin/fxrates.ts` builds) for the infra tests, with the context of cdk.json
 * so the tests see what `npm run synth` produces. Each test file synthesizes once and shares the result.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { App, type CfnElement, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { CloudAssembly } from 'aws-cdk-lib/cx-api';
import type { IConstruct } from 'constructs';
import { buildApp, type FxratesApp } from '../../lib/app';
import { pathWithFastNpx } from '../../lib/fast-npx';
import type { FxratesFunction } from '../../lib/fxrates-function';

export interface Synthesized {
  app: App;
  fx: FxratesApp;
  assembly: CloudAssembly;
  outdir: string;
  data: Template;
  service: Template;
  dispose(): void;
}

export function cdkJsonContext(): Record<string, unknown> {
  const cdkJson = JSON.parse(readFileSync(join(__dirname, '..', '..', 'cdk.json'), 'utf8')) as {
    context?: Record<string, unknown>;
  };
  return cdkJson.context ?? {};
}

/**
 * The app refuses to synthesize without an alarm target; the tests say explicitly that they deploy none (a test
 * that wants one passes alarmEmail or alarmTopicArn, which take effect whatever this says).
 */
export const NO_ALARM_TARGET = { alarmNotifications: 'none' } as const;

/** Context that makes CDK skip every asset bundling step, for tests that only read templates. */
export const SKIP_BUNDLING = { 'aws:cdk:bundling-stacks': [] } as const;

/**
 * Whether a synthesis runs CDK's built-in CloudFormation Validate. `npm run synth` and `cdk deploy` always do, and
 * cdk.json makes its findings fail the synthesis. In the tests it costs about 4 s per test file (the rule engine
 * is WebAssembly, set up again in each file) and 0.7 s per synthesis after that, so it runs only where it is the
 * subject: cloudformation-validate.test.ts synthesizes each shape of the app with it, once.
 */
export interface SynthOptions {
  cloudFormationValidate?: boolean;
}

/**
 * An App whose cloud assembly goes to a directory of its own, which `dispose` removes. Without an outdir, CDK
 * writes each App's assembly to a fresh temporary directory and leaves it behind.
 */
function scratchApp(
  context?: Record<string, unknown>,
  options: SynthOptions = {},
): { app: App; outdir: string; dispose(): void } {
  const outdir = mkdtempSync(join(tmpdir(), 'fxrates-synth-'));
  return {
    app: new App({
      outdir,
      builtinCloudFormationValidation: options.cloudFormationValidate ?? false,
      ...(context ? { context } : {}),
    }),
    outdir,
    dispose: () => rmSync(outdir, { recursive: true, force: true }),
  };
}

/** Builds and checks an App in a scratch directory that is removed afterwards, whatever `use` does. */
export function withScratchApp<T>(
  context: Record<string, unknown> | undefined,
  use: (app: App) => T,
  options: SynthOptions = {},
): T {
  const { app, dispose } = scratchApp(context, options);
  try {
    return use(app);
  } finally {
    dispose();
  }
}

/** Runs a synthesis as bin/fxrates.ts runs one, with lib/npx-bin first on the PATH, which is as it was afterwards. */
export function withFastNpx<T>(run: () => T): T {
  const path = process.env.PATH;
  process.env.PATH = pathWithFastNpx(path);
  try {
    return run();
  } finally {
    if (path === undefined) delete process.env.PATH;
    else process.env.PATH = path;
  }
}

export function synthesize(context: Record<string, unknown> = {}, options: SynthOptions = {}): Synthesized {
  const { app, outdir, dispose } = scratchApp({ ...cdkJsonContext(), ...NO_ALARM_TARGET, ...context }, options);
  // CDK bundles each function's asset as the construct is made, in buildApp, not in synth().
  const { fx, assembly } = withFastNpx(() => {
    const built = buildApp(app);
    return { fx: built, assembly: app.synth() };
  });
  return {
    app,
    fx,
    assembly,
    outdir,
    data: Template.fromStack(fx.data),
    service: Template.fromStack(fx.service),
    dispose,
  };
}

/** The CloudFormation logical id of a construct's main resource (or of the resource itself). */
export function logicalIdOf(construct: IConstruct): string {
  const element = (construct.node.defaultChild ?? construct) as CfnElement;
  return Stack.of(construct).getLogicalId(element);
}

export type Resources = Record<string, { Type: string; Properties?: Record<string, unknown>; [k: string]: unknown }>;

export function resourcesOf(template: Template, type: string): Resources {
  return template.findResources(type) as Resources;
}

/** A resource's properties, failing the test when there are none. */
export function propsOf(resource: { Properties?: Record<string, unknown> } | undefined): Record<string, unknown> {
  if (!resource?.Properties) throw new Error('the resource is missing or has no properties');
  return resource.Properties;
}

/**
 * Renders an `Fn::Join` (as CDK emits for dashboard bodies) to one string, with every intrinsic replaced by a
 * readable marker: `{Ref:X}` becomes `<Ref:X>`, `{Fn::GetAtt:[X,Y]}` becomes `<X.Y>`, an import `<Import:name>`.
 */
export function renderJoin(value: unknown): string {
  if (typeof value === 'string') return value;
  const join = (value as { 'Fn::Join'?: [string, unknown[]] })['Fn::Join'];
  if (!join) return marker(value);
  return join[1].map((part) => (typeof part === 'string' ? part : marker(part))).join(join[0]);
}

function marker(value: unknown): string {
  const v = value as Record<string, unknown>;
  if (typeof v.Ref === 'string') return `<Ref:${v.Ref}>`;
  const getAtt = v['Fn::GetAtt'];
  if (Array.isArray(getAtt)) return `<${getAtt.join('.')}>`;
  const imported = v['Fn::ImportValue'];
  if (typeof imported === 'string') return `<Import:${imported}>`;
  return '<intrinsic>';
}

/** One statement of a role's policies, its action and resource lists normalised to arrays. */
export interface PolicyStatement {
  Effect: string;
  Action: string[];
  Resource: unknown[];
  /** The statement's conditions, when it has any (e.g. dynamodb:LeadingKeys). */
  Condition?: Record<string, unknown>;
}

/** Every statement of the policies attached to one role in the template. */
export function policyStatementsOf(template: Template, role: IConstruct): PolicyStatement[] {
  const roleId = logicalIdOf(role);
  return Object.values(resourcesOf(template, 'AWS::IAM::Policy'))
    .filter((p) => JSON.stringify(p.Properties?.Roles) === JSON.stringify([{ Ref: roleId }]))
    .flatMap((p) => (propsOf(p).PolicyDocument as { Statement: Record<string, unknown>[] }).Statement)
    .map((st) => ({
      Effect: String(st.Effect),
      Action: ([] as string[]).concat(st.Action as string | string[]),
      Resource: ([] as unknown[]).concat(st.Resource),
      ...(st.Condition === undefined ? {} : { Condition: st.Condition as Record<string, unknown> }),
    }));
}

export interface DeployedFile {
  content: string;
  /** Deploy-time values: BucketDeployment replaces each marker in `content` with what CloudFormation resolves. */
  markers: Record<string, unknown>;
}

/**
 * The files one BucketDeployment of the service stack uploads, by their key in the bucket, read from the staged
 * assets of the cloud assembly.
 */
export function deployedFiles(s: Synthesized, deploymentLogicalId: string): Map<string, DeployedFile> {
  const deployment = resourcesOf(s.service, 'Custom::CDKBucketDeployment')[deploymentLogicalId];
  const props = propsOf(deployment) as { SourceObjectKeys: string[]; SourceMarkers?: Record<string, unknown>[] };
  const manifest = JSON.parse(
    readFileSync(join(s.assembly.directory, `${s.fx.service.artifactId}.assets.json`), 'utf8'),
  ) as { files: Record<string, { source: { path: string } }> };
  const files = new Map<string, DeployedFile>();
  props.SourceObjectKeys.forEach((key, i) => {
    const path = manifest.files[key.replace(/\.zip$/, '')]?.source.path;
    if (path === undefined) throw new Error(`no staged asset for ${key}`);
    const dir = join(s.assembly.directory, path);
    for (const name of readdirSync(dir, { recursive: true, withFileTypes: true })) {
      if (!name.isFile()) continue;
      const full = join(name.parentPath, name.name);
      files.set(relative(dir, full), { content: readFileSync(full, 'utf8'), markers: props.SourceMarkers?.[i] ?? {} });
    }
  });
  return files;
}

/** The functions that answer requests: the authorizer and one per route of both APIs. */
export function answeringFunctions(s: Synthesized): Map<string, FxratesFunction> {
  const { api, dashboardApi } = s.fx.service;
  const map = new Map<string, FxratesFunction>([['authorizer', api.authorizerFunction]]);
  for (const [id, fn] of api.routeFunctions) map.set(id, fn);
  for (const [id, fn] of dashboardApi.routeFunctions) map.set(`dashboard ${id}`, fn);
  return map;
}
