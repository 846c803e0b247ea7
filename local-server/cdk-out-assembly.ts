/**
 * What a synthesized cloud assembly (`cdk.out`) deploys: each public route's function (through the alias `live`),
 * the REQUEST authorizer, the data stack's tables, and the settings its ingestion runs with.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { SOURCES_ENV } from '../lambdas/core/domain/rates';
import { ROUTES, type RouteId } from '../lambdas/core/http/routes';
import { INGEST_ENV } from '../lambdas/core/ingest/fetchers';
import { STACK_IDS } from '../lib/app';
import { type IngestSettings, readIngestSettings } from './serve-env';

/** A cloud assembly that cannot be served as it is: the message names the stack, resource or function at fault. */
export class CdkOutError extends Error {
  override readonly name = 'CdkOutError';
}

type Json = Record<string, unknown>;

interface CfnResource {
  Type: string;
  Properties?: Json;
}

interface CfnTemplate {
  Resources?: Record<string, CfnResource>;
  Outputs?: Record<string, { Value?: unknown; Export?: { Name?: unknown } }>;
}

export interface AssemblyStack {
  /** The artifact id (lib/app.ts STACK_IDS). */
  id: string;
  stackName: string;
  template: CfnTemplate;
}

export interface CloudAssemblyFiles {
  dir: string;
  stacks: ReadonlyMap<string, AssemblyStack>;
  /** Staged file assets by the object key the templates name (`<hash>.zip`): the directory or file in `dir`. */
  assets: ReadonlyMap<string, { path: string; packaging: string }>;
}

function readJson(path: string, what: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new CdkOutError(`${what} cannot be read (${path}): ${(error as Error).message}`);
  }
}

export function readCloudAssembly(dir: string): CloudAssemblyFiles {
  const manifest = readJson(join(dir, 'manifest.json'), 'the cloud assembly manifest') as {
    artifacts?: Record<string, { type?: string; properties?: Json }>;
  };
  const stacks = new Map<string, AssemblyStack>();
  const assets = new Map<string, { path: string; packaging: string }>();
  for (const [id, artifact] of Object.entries(manifest.artifacts ?? {})) {
    const file = artifact.properties?.templateFile ?? artifact.properties?.file;
    if (typeof file !== 'string') continue;
    if (artifact.type === 'aws:cloudformation:stack') {
      const stackName = artifact.properties?.stackName;
      stacks.set(id, {
        id,
        stackName: typeof stackName === 'string' ? stackName : id,
        template: readJson(join(dir, file), `the template of stack ${id}`) as CfnTemplate,
      });
    } else if (artifact.type === 'cdk:asset-manifest') {
      const assetManifest = readJson(join(dir, file), `the asset manifest ${file}`) as {
        files?: Record<
          string,
          { source?: { path?: string; packaging?: string }; destinations?: Record<string, { objectKey?: string }> }
        >;
      };
      for (const entry of Object.values(assetManifest.files ?? {})) {
        if (entry.source?.path === undefined) continue;
        for (const destination of Object.values(entry.destinations ?? {})) {
          if (destination.objectKey === undefined) continue;
          assets.set(destination.objectKey, {
            path: join(dir, entry.source.path),
            packaging: entry.source.packaging ?? 'file',
          });
        }
      }
    }
  }
  return { dir, stacks, assets };
}

/** A Lambda function as the template declares it, with its environment still as template values. */
export interface TemplateFunction {
  logicalId: string;
  /** What messages call it: the logical id and what it serves (`route latest`, `authorizer`). */
  label: string;
  stack: AssemblyStack;
  /** The unzipped asset (LAMBDA_TASK_ROOT). */
  codeDir: string;
  handler: string;
  runtime: string;
  memorySize: number;
  timeoutSeconds: number;
  environment: Readonly<Record<string, unknown>>;
}

export interface TemplateTable {
  stack: AssemblyStack;
  logicalId: string;
  properties: Json;
}

/** What the gateway needs from the assembly: one function per route, the authorizer, the tables. */
export interface CdkOutApi {
  assembly: CloudAssemblyFiles;
  service: AssemblyStack;
  data: AssemblyStack;
  /** The public API's stage: the first segment of every path (`v1`). */
  stage: string;
  routes: ReadonlyMap<RouteId, TemplateFunction>;
  authorizer: { function: TemplateFunction; identityHeader: string };
  tables: readonly TemplateTable[];
  /**
   * What the function that the service stack's schedule invokes ingests and how it merges and cross-checks, read from
   * its environment as it reads them; the ingest function's defaults when no rule invokes a function.
   */
  ingestSettings: IngestSettings;
}

export interface StackIds {
  data: string;
  service: string;
}

function stackOf(assembly: CloudAssemblyFiles, id: string, role: string): AssemblyStack {
  const stack = assembly.stacks.get(id);
  if (!stack) {
    throw new CdkOutError(
      `the cloud assembly ${assembly.dir} has no ${role} stack ${id} (its stacks: ${[...assembly.stacks.keys()].join(', ') || 'none'})`,
    );
  }
  return stack;
}

export function resourcesOf(stack: AssemblyStack): Record<string, CfnResource> {
  return stack.template.Resources ?? {};
}

function refOf(value: unknown): string | undefined {
  const ref = (value as { Ref?: unknown } | null)?.Ref;
  return typeof ref === 'string' ? ref : undefined;
}

/** Every `Ref` and `Fn::GetAtt` target inside a template value, in order. */
function referencedIds(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(referencedIds);
  if (value === null || typeof value !== 'object') return [];
  const ref = refOf(value);
  if (ref !== undefined) return [ref];
  const getAtt = (value as Json)['Fn::GetAtt'];
  if (Array.isArray(getAtt) && typeof getAtt[0] === 'string') return [getAtt[0]];
  return Object.values(value).flatMap(referencedIds);
}

/** Through an alias (`live`) or a version to its function, or the function itself. */
function invokedFunction(stack: AssemblyStack, uri: unknown, what: string): string {
  const resources = resourcesOf(stack);
  const functions = new Set<string>();
  for (const id of referencedIds(uri)) {
    const resource = resources[id];
    if (resource?.Type === 'AWS::Lambda::Function') functions.add(id);
    else if (resource?.Type === 'AWS::Lambda::Alias' || resource?.Type === 'AWS::Lambda::Version') {
      const target = referencedIds(resource.Properties?.FunctionName).find(
        (ref) => resources[ref]?.Type === 'AWS::Lambda::Function',
      );
      if (target === undefined) throw new CdkOutError(`${what}: ${id} names no AWS::Lambda::Function of the stack`);
      functions.add(target);
    }
  }
  if (functions.size !== 1) {
    throw new CdkOutError(`${what}: its URI invokes ${functions.size} Lambda functions of the stack, not one`);
  }
  return [...functions][0] as string;
}

/** The resource path of an AWS::ApiGateway::Resource (or the API's root), built from its parents' path parts. */
function resourcePath(resources: Record<string, CfnResource>, resourceId: unknown): string {
  const parts: string[] = [];
  let current = resourceId;
  for (let depth = 0; depth < 64; depth++) {
    const getAtt = (current as Json | null)?.['Fn::GetAtt'];
    if (Array.isArray(getAtt) && getAtt[1] === 'RootResourceId') return `/${parts.reverse().join('/')}`;
    const id = refOf(current);
    const resource = id === undefined ? undefined : resources[id];
    if (resource?.Type !== 'AWS::ApiGateway::Resource') break;
    parts.push(String(resource.Properties?.PathPart));
    current = resource.Properties?.ParentId;
  }
  throw new CdkOutError(
    `an API Gateway method's resource ${JSON.stringify(resourceId)} does not lead to its API's root`,
  );
}

function templateFunction(
  assembly: CloudAssemblyFiles,
  stack: AssemblyStack,
  logicalId: string,
  serves: string,
): TemplateFunction {
  const label = `function ${logicalId} (${serves})`;
  const props = resourcesOf(stack)[logicalId]?.Properties ?? {};
  const code = (props.Code ?? {}) as Json;
  if (props.PackageType === 'Image' || typeof code.S3Key !== 'string') {
    throw new CdkOutError(`${label}: its code is not a staged asset (Code ${JSON.stringify(code)})`);
  }
  const asset = assembly.assets.get(code.S3Key);
  if (!asset) throw new CdkOutError(`${label}: no asset manifest of the assembly stages ${code.S3Key}`);
  if (!existsSync(asset.path) || !statSync(asset.path).isDirectory()) {
    throw new CdkOutError(
      `${label}: its asset ${asset.path} is missing or not a directory (synthesize with bundling: the asset is the unzipped bundle)`,
    );
  }
  if (typeof props.Handler !== 'string') throw new CdkOutError(`${label}: the template gives it no Handler`);
  const environment = ((props.Environment as Json | undefined)?.Variables ?? {}) as Record<string, unknown>;
  return {
    logicalId,
    label,
    stack,
    codeDir: asset.path,
    handler: props.Handler,
    runtime: String(props.Runtime ?? ''),
    // Lambda's defaults when the template leaves them out.
    memorySize: Number(props.MemorySize ?? 128),
    timeoutSeconds: Number(props.Timeout ?? 3),
    environment,
  };
}

const IDENTITY_HEADER = /^method\.request\.header\.([!#$%&'*+\-.^_`|~0-9A-Za-z]+)$/;

/** Anything the local gateway could not serve as API Gateway would (a cached authorizer, say) is refused, named. */
export function describeCdkOutApi(assembly: CloudAssemblyFiles, ids: StackIds = STACK_IDS): CdkOutApi {
  const service = stackOf(assembly, ids.service, 'service');
  const data = stackOf(assembly, ids.data, 'data');
  const resources = resourcesOf(service);
  const { apiId, methods } = registryApi(service);
  let authorizerId: string | undefined;
  const routes = new Map<RouteId, TemplateFunction>();
  for (const route of ROUTES) {
    const method = methods.find((m) => m.key === `${route.method} ${route.path}`);
    if (!method) continue;
    const what = `method ${method.id} (${method.key})`;
    const integration = (method.props.Integration ?? {}) as Json;
    if (integration.Type !== 'AWS_PROXY') {
      throw new CdkOutError(`${what}: integration type ${String(integration.Type)}, not a Lambda proxy (AWS_PROXY)`);
    }
    const methodAuthorizer = refOf(method.props.AuthorizerId);
    if (method.props.AuthorizationType !== 'CUSTOM' || methodAuthorizer === undefined) {
      throw new CdkOutError(`${what}: not behind the REQUEST authorizer (AuthorizationType CUSTOM)`);
    }
    if (authorizerId !== undefined && authorizerId !== methodAuthorizer) {
      throw new CdkOutError(`${what}: behind authorizer ${methodAuthorizer}, the other routes behind ${authorizerId}`);
    }
    authorizerId = methodAuthorizer;
    const fn = invokedFunction(service, integration.Uri, what);
    routes.set(route.id, templateFunction(assembly, service, fn, `route ${route.id}`));
  }
  const authorizer = requestAuthorizer(service, authorizerId);

  const stage = Object.values(resources).find(
    (resource) => resource.Type === 'AWS::ApiGateway::Stage' && refOf(resource.Properties?.RestApiId) === apiId,
  )?.Properties?.StageName;
  if (typeof stage !== 'string') throw new CdkOutError(`the RestApi ${apiId} of stack ${service.id} has no stage`);

  const tables = Object.entries(resourcesOf(data))
    .filter(([, resource]) => resource.Type === 'AWS::DynamoDB::Table')
    .map(([logicalId, resource]) => ({ stack: data, logicalId, properties: resource.Properties ?? {} }));

  return {
    assembly,
    service,
    data,
    stage,
    routes,
    authorizer: {
      function: templateFunction(assembly, service, authorizer.functionId, 'authorizer'),
      identityHeader: authorizer.identityHeader,
    },
    tables,
    ingestSettings: ingestSettingsOf(service),
  };
}

/** The variables of the ingestion's settings, by the names its function reads. */
const INGEST_SETTING_NAMES = [SOURCES_ENV, INGEST_ENV.crossCheckTolerance, INGEST_ENV.crossCheckExempt] as const;

const variablesOf = (resource: CfnResource | undefined): Json =>
  ((resource?.Properties?.Environment as Json | undefined)?.Variables ?? {}) as Json;

/** The ingestion is the function that EventBridge rules invoke and that is told its SOURCES. */
function ingestSettingsOf(service: AssemblyStack): IngestSettings {
  const resources = resourcesOf(service);
  const ingestion = new Set<string>();
  for (const resource of Object.values(resources)) {
    if (resource.Type !== 'AWS::Events::Rule') continue;
    for (const id of referencedIds(resource.Properties?.Targets)) {
      const target = resources[id];
      if (target?.Type === 'AWS::Lambda::Function' && SOURCES_ENV in variablesOf(target)) ingestion.add(id);
    }
  }
  if (ingestion.size > 1) {
    const count = ingestion.size;
    throw new CdkOutError(`stack ${service.id}: its rules invoke ${count} functions given ${SOURCES_ENV}, not one`);
  }
  const [id] = ingestion;
  if (id === undefined) return readIngestSettings({});
  const label = `function ${id} (ingestion)`;
  const variables = variablesOf(resources[id]);
  const env: Record<string, string> = {};
  for (const name of INGEST_SETTING_NAMES) {
    const value = variables[name];
    if (value === undefined) continue;
    if (typeof value !== 'string') {
      throw new CdkOutError(`${label}: ${name} is ${JSON.stringify(value)}, not a value known before deployment`);
    }
    env[name] = value;
  }
  try {
    return readIngestSettings(env);
  } catch (error) {
    throw new CdkOutError(`${label}: ${(error as Error).message}`);
  }
}

/** The RestApi of the service stack whose methods are the registry's routes, each named `<METHOD> <path>`. */
function registryApi(service: AssemblyStack) {
  const resources = resourcesOf(service);
  const methodsByApi = new Map<string, { id: string; key: string; props: Json }[]>();
  for (const [id, resource] of Object.entries(resources)) {
    if (resource.Type !== 'AWS::ApiGateway::Method') continue;
    const props = resource.Properties ?? {};
    const api = refOf(props.RestApiId) ?? '';
    const key = `${String(props.HttpMethod)} ${resourcePath(resources, props.ResourceId)}`;
    methodsByApi.set(api, [...(methodsByApi.get(api) ?? []), { id, key, props }]);
  }
  const wanted = new Set(ROUTES.map((route) => `${route.method} ${route.path}`));
  const [apiId, methods] =
    [...methodsByApi].sort(
      ([, a], [, b]) => b.filter((m) => wanted.has(m.key)).length - a.filter((m) => wanted.has(m.key)).length,
    )[0] ?? [];
  if (apiId === undefined || methods === undefined) throw new CdkOutError(`stack ${service.id} has no API methods`);
  const found = new Set(methods.map((m) => m.key));
  const missing = [...wanted].filter((key) => !found.has(key));
  const extra = [...found].filter((key) => !wanted.has(key));
  if (missing.length > 0 || extra.length > 0) {
    throw new CdkOutError(
      `the RestApi ${apiId} of stack ${service.id} does not match the route registry: ` +
        `${missing.length > 0 ? `no method for ${missing.join(', ')}` : ''}${missing.length > 0 && extra.length > 0 ? '; ' : ''}` +
        `${extra.length > 0 ? `methods of no route: ${extra.join(', ')}` : ''}`,
    );
  }
  return { apiId, methods };
}

/** The REQUEST authorizer the routes are behind: its function, and the one header that is its identity source. */
function requestAuthorizer(service: AssemblyStack, authorizerId: string | undefined) {
  const authorizer = authorizerId === undefined ? undefined : resourcesOf(service)[authorizerId];
  if (authorizerId === undefined || authorizer?.Type !== 'AWS::ApiGateway::Authorizer') {
    throw new CdkOutError(`the routes' authorizer ${authorizerId} is not an AWS::ApiGateway::Authorizer of the stack`);
  }
  const authProps = authorizer.Properties ?? {};
  const what = `authorizer ${authorizerId}`;
  if (authProps.Type !== 'REQUEST') throw new CdkOutError(`${what}: type ${String(authProps.Type)}, not REQUEST`);
  const identity = IDENTITY_HEADER.exec(String(authProps.IdentitySource ?? ''));
  if (!identity?.[1]) {
    throw new CdkOutError(
      `${what}: identity source ${JSON.stringify(authProps.IdentitySource)} is not one request header, which is all the local gateway checks`,
    );
  }
  if (Number(authProps.AuthorizerResultTtlInSeconds ?? 300) !== 0) {
    throw new CdkOutError(`${what}: it caches its results, which the local gateway does not imitate`);
  }
  return { functionId: invokedFunction(service, authProps.AuthorizerUri, what), identityHeader: identity[1] };
}
