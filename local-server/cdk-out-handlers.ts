/**
 * The local gateway's second source of handlers: what a synthesized cloud assembly (`cdk.out`) would deploy, rather
 * than the TypeScript sources. Everything is read from the templates: for each route of the public API, the Lambda
 * function its method integrates (through the alias `live`), that function's built asset, handler, environment and
 * timeout; the REQUEST authorizer's identity source and function; the DynamoDB tables of the data stack with their
 * key schema and indexes. Each function runs in execution environments of its own (lambda-sandbox.ts) with exactly
 * the template's variables plus what Lambda sets, against tables created in DynamoDB Local from the template. So a
 * bundle that lacks a module, a handler name or an environment variable the code reads but the template does not
 * set fails here, before a deploy does.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import {
  CreateTableCommand,
  type CreateTableCommandInput,
  DeleteTableCommand,
  DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayAuthorizerResult, APIGatewayProxyResult } from 'aws-lambda';
import { ROUTES, type RouteId } from '../lambdas/core/http/routes';
import { DYNAMODB_ENDPOINT_ENV, LOCAL_ENDPOINT_CREDENTIALS } from '../lambdas/core/store/clients';
import { STACK_IDS } from '../lib/app';
import { enableTimeToLive } from './create-tables';
import { type AuthorizerHandler, FunctionError, type ProxyHandler } from './gateway';
import { LambdaInvokeError, LambdaSandbox, type SandboxFunction, type SandboxOptions } from './lambda-sandbox';

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
  /** The CloudFormation stack name. */
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

/** Reads a cloud assembly directory: its manifest, every stack's template, and the asset manifests' staged paths. */
function readCloudAssembly(dir: string): CloudAssemblyFiles {
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

interface TemplateTable {
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

function resourcesOf(stack: AssemblyStack): Record<string, CfnResource> {
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

/**
 * The AWS::Lambda::Function an integration or authorizer URI invokes: through an alias (`live`, moved by
 * CodeDeploy) or a version to its function, or the function itself.
 */
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

/**
 * Finds in the assembly what the public API deploys: the RestApi whose methods are exactly the routes of the
 * registry, each method's function, and its REQUEST authorizer. Anything the local gateway could not serve as
 * API Gateway would (a route without a method, a method of no route, another integration type, an identity source
 * other than one header, a cached authorizer) is refused here, naming it.
 */
function describeCdkOutApi(assembly: CloudAssemblyFiles, ids: StackIds = STACK_IDS): CdkOutApi {
  const service = stackOf(assembly, ids.service, 'service');
  const data = stackOf(assembly, ids.data, 'data');
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

  const authorizer = authorizerId === undefined ? undefined : resources[authorizerId];
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
  const authorizerFunction = invokedFunction(service, authProps.AuthorizerUri, what);

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
      function: templateFunction(assembly, service, authorizerFunction, 'authorizer'),
      identityHeader: identity[1],
    },
    tables,
  };
}

/** Where the template's values are resolved: the local account and region, and the tables made for its tables. */
interface ResolveContext {
  assembly: CloudAssemblyFiles;
  region: string;
  accountId: string;
  /** Physical table names by `<stack id>/<logical id>`. */
  tableNames: ReadonlyMap<string, string>;
}

class UnresolvableValue extends Error {}

const PSEUDO_PARAMETERS: Record<string, (ctx: ResolveContext, stack: AssemblyStack) => string> = {
  'AWS::Region': (ctx) => ctx.region,
  'AWS::AccountId': (ctx) => ctx.accountId,
  'AWS::Partition': () => 'aws',
  'AWS::URLSuffix': () => 'amazonaws.com',
  'AWS::StackName': (_, stack) => stack.stackName,
};

function resolveRef(id: string, attribute: string | undefined, stack: AssemblyStack, ctx: ResolveContext): string {
  if (attribute === undefined) {
    const pseudo = PSEUDO_PARAMETERS[id];
    if (pseudo) return pseudo(ctx, stack);
  }
  const resource = resourcesOf(stack)[id];
  const table = resource?.Type === 'AWS::DynamoDB::Table' ? ctx.tableNames.get(`${stack.id}/${id}`) : undefined;
  if (table !== undefined && attribute === undefined) return table;
  if (table !== undefined && attribute === 'Arn')
    return `arn:aws:dynamodb:${ctx.region}:${ctx.accountId}:table/${table}`;
  throw new UnresolvableValue();
}

/** A template value as CloudFormation would resolve it here; what the local gateway cannot know is refused. */
function resolveValue(value: unknown, stack: AssemblyStack, ctx: ResolveContext): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new UnresolvableValue();
  const entries = Object.entries(value);
  const [fn, arg] = entries[0] ?? [];
  if (entries.length !== 1) throw new UnresolvableValue();
  if (fn === 'Ref' && typeof arg === 'string') return resolveRef(arg, undefined, stack, ctx);
  if (fn === 'Fn::GetAtt' && Array.isArray(arg) && typeof arg[0] === 'string' && typeof arg[1] === 'string') {
    return resolveRef(arg[0], arg[1], stack, ctx);
  }
  if (fn === 'Fn::Join' && Array.isArray(arg) && typeof arg[0] === 'string' && Array.isArray(arg[1])) {
    return arg[1].map((part) => resolveValue(part, stack, ctx)).join(arg[0]);
  }
  if (fn === 'Fn::ImportValue') return resolveImport(resolveValue(arg, stack, ctx), ctx);
  throw new UnresolvableValue();
}

/** An import is the value of the stack output exported under that name, resolved in its own stack. */
function resolveImport(name: string, ctx: ResolveContext): string {
  for (const exporter of ctx.assembly.stacks.values()) {
    for (const output of Object.values(exporter.template.Outputs ?? {})) {
      if (output.Export?.Name === undefined) continue;
      if (resolveValue(output.Export.Name, exporter, ctx) === name) return resolveValue(output.Value, exporter, ctx);
    }
  }
  throw new UnresolvableValue();
}

/**
 * Variables Lambda sets itself and refuses in a function's configuration; one in the template would fail the
 * deploy. https://docs.aws.amazon.com/lambda/latest/dg/configuration-envvars.html#configuration-envvars-runtime
 */
const LAMBDA_RESERVED_VARIABLES = [
  '_HANDLER',
  '_X_AMZN_TRACE_ID',
  'AWS_DEFAULT_REGION',
  'AWS_REGION',
  'AWS_EXECUTION_ENV',
  'AWS_LAMBDA_FUNCTION_NAME',
  'AWS_LAMBDA_FUNCTION_MEMORY_SIZE',
  'AWS_LAMBDA_FUNCTION_VERSION',
  'AWS_LAMBDA_INITIALIZATION_TYPE',
  'AWS_LAMBDA_LOG_GROUP_NAME',
  'AWS_LAMBDA_LOG_STREAM_NAME',
  'AWS_ACCESS_KEY',
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'AWS_LAMBDA_RUNTIME_API',
  'LAMBDA_TASK_ROOT',
  'LAMBDA_RUNTIME_DIR',
] as const;

/** The template's environment of a function, every value resolved; one that cannot be fails, naming the variable. */
function resolveEnvironment(fn: TemplateFunction, ctx: ResolveContext): Record<string, string> {
  const resolved: Record<string, string> = {};
  for (const [name, value] of Object.entries(fn.environment)) {
    if ((LAMBDA_RESERVED_VARIABLES as readonly string[]).includes(name)) {
      throw new CdkOutError(`${fn.label}: environment variable ${name} is reserved by Lambda, which refuses it`);
    }
    if (name === DYNAMODB_ENDPOINT_ENV) {
      throw new CdkOutError(
        `${fn.label}: the template sets ${name}, which would point the deployed function away from DynamoDB`,
      );
    }
    try {
      resolved[name] = resolveValue(value, fn.stack, ctx);
    } catch (error) {
      if (!(error instanceof UnresolvableValue)) throw error;
      throw new CdkOutError(
        `${fn.label}: environment variable ${name} cannot be resolved locally: ${JSON.stringify(value)}`,
      );
    }
  }
  return resolved;
}

/** A function's physical name, as CloudFormation makes one for a function the template does not name. */
function functionName(fn: TemplateFunction): string {
  return `${fn.stack.stackName}-${fn.logicalId}`.slice(0, 64);
}

/**
 * The execution environment Lambda gives a function: the template's variables, then Lambda's own (which the
 * template cannot set, see LAMBDA_RESERVED_VARIABLES), credentials as the execution role's would be, and the
 * DynamoDB endpoint override, the local stand-in for the network between the function and DynamoDB.
 * https://docs.aws.amazon.com/lambda/latest/dg/configuration-envvars.html#configuration-envvars-runtime
 */
function lambdaEnvironment(
  fn: TemplateFunction,
  templateEnvironment: Readonly<Record<string, string>>,
  local: { region: string; dynamoEndpoint: string; version: string },
): Record<string, string> {
  const name = functionName(fn);
  const day = new Date().toISOString().slice(0, 10).replaceAll('-', '/');
  return {
    ...templateEnvironment,
    _HANDLER: fn.handler,
    AWS_REGION: local.region,
    AWS_DEFAULT_REGION: local.region,
    AWS_EXECUTION_ENV: `AWS_Lambda_${fn.runtime}`,
    AWS_LAMBDA_FUNCTION_NAME: name,
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(fn.memorySize),
    AWS_LAMBDA_FUNCTION_VERSION: local.version,
    AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
    AWS_LAMBDA_LOG_GROUP_NAME: `/aws/lambda/${name}`,
    AWS_LAMBDA_LOG_STREAM_NAME: `${day}/[${local.version}]local`,
    AWS_ACCESS_KEY_ID: LOCAL_ENDPOINT_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_ENDPOINT_CREDENTIALS.secretAccessKey,
    AWS_SESSION_TOKEN: 'local-session-token',
    LAMBDA_TASK_ROOT: fn.codeDir,
    LANG: 'en_US.UTF-8',
    TZ: ':UTC',
    PATH: '/usr/local/bin:/usr/bin/:/bin:/opt/bin',
    [DYNAMODB_ENDPOINT_ENV]: local.dynamoEndpoint,
    // Lambda runs the template's runtime (nodejs22.x); the SDK would warn on every start under this older Node.js.
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  };
}

/** CreateTable input for a table of the template: its keys, attributes and indexes as declared, named `name`. */
function createTableInput(table: TemplateTable, name: string): CreateTableCommandInput {
  const p = table.properties;
  const input: CreateTableCommandInput = {
    TableName: name,
    KeySchema: p.KeySchema as CreateTableCommandInput['KeySchema'],
    AttributeDefinitions: p.AttributeDefinitions as CreateTableCommandInput['AttributeDefinitions'],
    BillingMode: p.BillingMode === 'PROVISIONED' ? 'PROVISIONED' : 'PAY_PER_REQUEST',
  };
  if (p.ProvisionedThroughput) {
    input.ProvisionedThroughput = p.ProvisionedThroughput as CreateTableCommandInput['ProvisionedThroughput'];
  }
  if (p.GlobalSecondaryIndexes) {
    input.GlobalSecondaryIndexes = p.GlobalSecondaryIndexes as CreateTableCommandInput['GlobalSecondaryIndexes'];
  }
  if (p.LocalSecondaryIndexes) {
    input.LocalSecondaryIndexes = p.LocalSecondaryIndexes as CreateTableCommandInput['LocalSecondaryIndexes'];
  }
  return input;
}

export interface CdkOutHandlersOptions {
  /** The cloud assembly directory (`cdk.out`), synthesized with bundling. */
  assemblyDir: string;
  /** DynamoDB Local's endpoint: the template's tables are created there. */
  dynamoEndpoint: string;
  /** AWS_REGION of the functions, and the region DynamoDB Local keeps their tables under (default us-east-1). */
  region?: string;
  accountId?: string;
  /** The stacks to read (default lib/app.ts STACK_IDS). */
  stacks?: StackIds;
  /** Ends every table name; unique by default, so runs against one DynamoDB Local never share tables. */
  tableSuffix?: string;
  /** Each function's output lines (its CloudWatch log on Lambda); default: printed with the function's label. */
  onLog?: SandboxOptions['onLog'];
  /** Execution environments one function may run at once (default 2). */
  maxEnvironments?: number;
}

interface CdkOutFunctionInfo {
  label: string;
  codeDir: string;
  handler: string;
  timeoutSeconds: number;
  /** The whole environment its process gets. */
  environment: Readonly<Record<string, string>>;
}

export interface CdkOutHandlers {
  handlers: Readonly<Record<RouteId, ProxyHandler>>;
  authorizer: AuthorizerHandler;
  identityHeader: string;
  stage: string;
  region: string;
  accountId: string;
  /** A client of the functions' DynamoDB Local database (same region and key), to seed and inspect the tables. */
  client: DynamoDBDocumentClient;
  /** The table made for each table of the data stack, by its logical id. */
  tableNames: ReadonlyMap<string, string>;
  functions: { routes: ReadonlyMap<RouteId, CdkOutFunctionInfo>; authorizer: CdkOutFunctionInfo };
  close(): Promise<void>;
}

/** The version the alias `live` points at in a fresh deployment: the first one published. */
const LIVE_VERSION = '1';

/**
 * API Gateway's check of a proxy integration's answer: a status code, string headers and a string body, or the
 * request fails with 502. https://docs.aws.amazon.com/apigateway/latest/developerguide/set-up-lambda-proxy-integrations.html
 */
function proxyResult(payload: unknown, label: string): APIGatewayProxyResult {
  const result = payload as Partial<APIGatewayProxyResult> | null;
  const statusCode = result?.statusCode;
  const malformed = (why: string) => new FunctionError(`${label}: malformed Lambda proxy response: ${why}`);
  if (typeof statusCode !== 'number' || !Number.isInteger(statusCode) || statusCode < 100 || statusCode > 599) {
    throw malformed(`statusCode ${JSON.stringify(statusCode)}`);
  }
  if (result?.body !== undefined && result.body !== null && typeof result.body !== 'string') {
    throw malformed('the body is not a string');
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(result?.headers ?? {})) headers[name] = String(value);
  for (const [name, values] of Object.entries(result?.multiValueHeaders ?? {})) {
    headers[name] = [headers[name], ...values.map(String)].filter((v) => v !== undefined).join(', ');
  }
  const body = result?.body ?? '';
  return {
    statusCode,
    headers,
    body: result?.isBase64Encoded ? Buffer.from(body, 'base64').toString('utf8') : body,
  };
}

/**
 * API Gateway's check of a REQUEST authorizer's answer: a principal, a policy, and a context of strings, numbers and
 * booleans only; anything else fails the request with 500 (AUTHORIZER_CONFIGURATION_ERROR), as a throw does.
 * https://docs.aws.amazon.com/apigateway/latest/developerguide/api-gateway-lambda-authorizer-output.html
 */
function authorizerResult(payload: unknown, label: string): APIGatewayAuthorizerResult {
  const result = payload as Partial<APIGatewayAuthorizerResult> | null;
  if (typeof result?.principalId !== 'string' || typeof result.policyDocument !== 'object') {
    throw new CdkOutError(`${label}: its answer has no principalId or policyDocument`);
  }
  for (const [key, value] of Object.entries(result.context ?? {})) {
    if (value !== null && typeof value === 'object') {
      throw new CdkOutError(
        `${label}: context value ${key} is an object; API Gateway accepts strings, numbers, booleans`,
      );
    }
  }
  return result as APIGatewayAuthorizerResult;
}

/**
 * Reads the assembly, creates its tables in DynamoDB Local, and starts one execution environment of every function
 * (the authorizer and each route's), so that a function that cannot start (a missing bundle or module, a handler
 * that is not exported, an environment variable its init needs) fails start-up with a CdkOutError naming it and
 * Lambda's error. Later failures are answered as API Gateway answers them: an endpoint's with 502 (FunctionError),
 * the authorizer's with 500.
 */
export async function startCdkOutHandlers(options: CdkOutHandlersOptions): Promise<CdkOutHandlers> {
  const api = describeCdkOutApi(readCloudAssembly(options.assemblyDir), options.stacks);
  const region = options.region ?? 'us-east-1';
  const accountId = options.accountId ?? '000000000000';
  const suffix = options.tableSuffix ?? randomBytes(4).toString('hex');
  const tableNames = new Map<string, string>();
  for (const table of api.tables) {
    const declared = table.properties.TableName;
    tableNames.set(
      `${table.stack.id}/${table.logicalId}`,
      typeof declared === 'string' ? declared : `${table.stack.stackName}-${table.logicalId}-${suffix}`,
    );
  }
  const ctx: ResolveContext = { assembly: api.assembly, region, accountId, tableNames };
  const local = { region, dynamoEndpoint: options.dynamoEndpoint, version: LIVE_VERSION };
  const sandboxOf = (fn: TemplateFunction) => {
    const environment = lambdaEnvironment(fn, resolveEnvironment(fn, ctx), local);
    const name = environment.AWS_LAMBDA_FUNCTION_NAME ?? fn.logicalId;
    const sandboxFunction: SandboxFunction = {
      label: fn.label,
      name,
      version: LIVE_VERSION,
      codeDir: fn.codeDir,
      timeoutSeconds: fn.timeoutSeconds,
      memorySize: fn.memorySize,
      environment,
      invokedFunctionArn: `arn:aws:lambda:${region}:${accountId}:function:${name}:live`,
      logGroupName: `/aws/lambda/${name}`,
    };
    return new LambdaSandbox(sandboxFunction, {
      ...(options.onLog ? { onLog: options.onLog } : {}),
      ...(options.maxEnvironments ? { maxEnvironments: options.maxEnvironments } : {}),
    });
  };
  // Every environment is resolved before anything is created, so a template fault leaves nothing behind.
  const authorizerSandbox = sandboxOf(api.authorizer.function);
  const routeSandboxes = new Map([...api.routes].map(([route, fn]) => [route, sandboxOf(fn)] as const));
  const sandboxes = [authorizerSandbox, ...routeSandboxes.values()];

  const low = new DynamoDBClient({
    endpoint: options.dynamoEndpoint,
    region,
    credentials: { ...LOCAL_ENDPOINT_CREDENTIALS },
  });
  const client = DynamoDBDocumentClient.from(low, { marshallOptions: { removeUndefinedValues: true } });
  const created: string[] = [];
  const close = async () => {
    await Promise.all(sandboxes.map((sandbox) => sandbox.close()));
    for (const name of created) await client.send(new DeleteTableCommand({ TableName: name })).catch(() => undefined);
    client.destroy();
  };
  try {
    for (const table of api.tables) {
      const name = tableNames.get(`${table.stack.id}/${table.logicalId}`) as string;
      await client.send(new CreateTableCommand(createTableInput(table, name)));
      created.push(name);
      const ttl = table.properties.TimeToLiveSpecification as { AttributeName?: string; Enabled?: boolean } | undefined;
      if (ttl?.Enabled && ttl.AttributeName) await enableTimeToLive(client, name, ttl.AttributeName);
    }
    const failures = (await Promise.allSettled(sandboxes.map((sandbox) => sandbox.warm()))).flatMap((outcome) =>
      outcome.status === 'rejected' ? [(outcome.reason as Error).message] : [],
    );
    if (failures.length > 0) {
      throw new CdkOutError(
        `${failures.length} function${failures.length === 1 ? '' : 's'} of ${options.assemblyDir} cannot start:\n  ${failures.join('\n  ')}`,
      );
    }
  } catch (error) {
    await close();
    throw error;
  }

  const handlers = Object.fromEntries(
    [...routeSandboxes].map(([route, sandbox]): [RouteId, ProxyHandler] => [
      route,
      async (event, context) => {
        let payload: unknown;
        try {
          payload = await sandbox.invoke(event, context.awsRequestId);
        } catch (error) {
          throw new FunctionError((error as Error).message, { cause: error });
        }
        return proxyResult(payload, sandbox.fn.label);
      },
    ]),
  ) as Record<RouteId, ProxyHandler>;

  const authorizer: AuthorizerHandler = async (event, context) => {
    try {
      return authorizerResult(await authorizerSandbox.invoke(event, context.awsRequestId), authorizerSandbox.fn.label);
    } catch (error) {
      // A Lambda authorizer denies a request by failing with exactly this message: API Gateway answers 401.
      if (error instanceof LambdaInvokeError && error.errorMessage === 'Unauthorized') throw new Error('Unauthorized');
      throw error;
    }
  };

  const info = (sandbox: LambdaSandbox): CdkOutFunctionInfo => ({
    label: sandbox.fn.label,
    codeDir: sandbox.fn.codeDir,
    handler: sandbox.fn.environment._HANDLER ?? '',
    timeoutSeconds: sandbox.fn.timeoutSeconds,
    environment: sandbox.fn.environment,
  });
  return {
    handlers,
    authorizer,
    identityHeader: api.authorizer.identityHeader,
    stage: api.stage,
    region,
    accountId,
    client,
    tableNames: new Map([...tableNames].map(([key, name]) => [key.slice(key.indexOf('/') + 1), name])),
    functions: {
      routes: new Map([...routeSandboxes].map(([route, sandbox]) => [route, info(sandbox)])),
      authorizer: info(authorizerSandbox),
    },
    close,
  };
}
