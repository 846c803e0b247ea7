/**
 * Handlers from a synthesized cloud assembly (`cdk.out`) rather than the sources, each function in environments of
 * its own with exactly the template's variables, so a bundle that lacks a module, a handler or a variable fails
 * here, before a deploy does.
 */
import { randomBytes } from 'node:crypto';
import {
  CreateTableCommand,
  type CreateTableCommandInput,
  DeleteTableCommand,
  DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayAuthorizerResult, APIGatewayProxyResult } from 'aws-lambda';
import type { RouteId } from '../lambdas/core/http/routes';
import { DYNAMODB_ENDPOINT_ENV, LOCAL_ENDPOINT_CREDENTIALS } from '../lambdas/core/store/clients';
import {
  type AssemblyStack,
  CdkOutError,
  type CloudAssemblyFiles,
  describeCdkOutApi,
  readCloudAssembly,
  resourcesOf,
  type StackIds,
  type TemplateFunction,
  type TemplateTable,
} from './cdk-out-assembly';
import { enableTimeToLive } from './create-tables';
import { type AuthorizerHandler, FunctionError, type ProxyHandler } from './gateway';
import { LambdaInvokeError, LambdaSandbox, type SandboxFunction, type SandboxOptions } from './lambda-sandbox';
import type { IngestSettings } from './serve-env';

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

/** Lambda refuses these in a function's configuration: one in the template would fail the deploy. */
const LAMBDA_RESERVED_VARIABLES = new Set(
  `_HANDLER _X_AMZN_TRACE_ID AWS_DEFAULT_REGION AWS_REGION AWS_EXECUTION_ENV AWS_LAMBDA_FUNCTION_NAME
  AWS_LAMBDA_FUNCTION_MEMORY_SIZE AWS_LAMBDA_FUNCTION_VERSION AWS_LAMBDA_INITIALIZATION_TYPE AWS_LAMBDA_LOG_GROUP_NAME
  AWS_LAMBDA_LOG_STREAM_NAME AWS_ACCESS_KEY AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY AWS_SESSION_TOKEN
  AWS_LAMBDA_RUNTIME_API LAMBDA_TASK_ROOT LAMBDA_RUNTIME_DIR`.split(/\s+/),
);

/** The template's environment of a function, every value resolved; one that cannot be fails, naming the variable. */
function resolveEnvironment(fn: TemplateFunction, ctx: ResolveContext): Record<string, string> {
  const resolved: Record<string, string> = {};
  for (const [name, value] of Object.entries(fn.environment)) {
    if (LAMBDA_RESERVED_VARIABLES.has(name)) {
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
 * What Lambda sets for the X-Ray SDK in every function, traced or not, and lets a function's own variables replace:
 * its context-missing strategy, and the daemon's address (here the daemon's own default, on this machine).
 * https://docs.aws.amazon.com/lambda/latest/dg/configuration-envvars.html#configuration-envvars-runtime
 */
export const LAMBDA_XRAY_VARIABLES = {
  AWS_XRAY_CONTEXT_MISSING: 'LOG_ERROR',
  AWS_XRAY_DAEMON_ADDRESS: '127.0.0.1:2000',
} as const;

/** Lambda's X-Ray defaults, the template's variables, then Lambda's own, role-like credentials, the local endpoint. */
function lambdaEnvironment(
  fn: TemplateFunction,
  templateEnvironment: Readonly<Record<string, string>>,
  local: { region: string; dynamoEndpoint: string; version: string },
): Record<string, string> {
  const name = functionName(fn);
  const day = new Date().toISOString().slice(0, 10).replaceAll('-', '/');
  return {
    ...LAMBDA_XRAY_VARIABLES,
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
  const input: Record<string, unknown> = {
    TableName: name,
    KeySchema: p.KeySchema,
    AttributeDefinitions: p.AttributeDefinitions,
    BillingMode: p.BillingMode === 'PROVISIONED' ? 'PROVISIONED' : 'PAY_PER_REQUEST',
  };
  for (const optional of ['ProvisionedThroughput', 'GlobalSecondaryIndexes', 'LocalSecondaryIndexes']) {
    if (p[optional]) input[optional] = p[optional];
  }
  return input as unknown as CreateTableCommandInput;
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
  /** The sources and cross-check the template's ingestion runs with, for loading the tables as it would. */
  ingestSettings: IngestSettings;
  close(): Promise<void>;
}

/** The version the alias `live` points at in a fresh deployment: the first one published. */
const LIVE_VERSION = '1';

/** API Gateway's check of a proxy integration's answer; anything else fails the request with 502. */
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

/** API Gateway's check of an authorizer's answer; anything else is a 500 (AUTHORIZER_CONFIGURATION_ERROR). */
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
 * Starts one environment of every function, so one that cannot start fails start-up with a CdkOutError naming it.
 * Later failures are answered as API Gateway answers them: an endpoint's with 502, the authorizer's with 500.
 */
export async function startCdkOutHandlers(options: CdkOutHandlersOptions): Promise<CdkOutHandlers> {
  const api = describeCdkOutApi(readCloudAssembly(options.assemblyDir), options.stacks);
  const region = options.region ?? 'us-east-1';
  const accountId = options.accountId ?? '000000000000';
  const tableNames = tableNamesOf(api.tables, options.tableSuffix ?? randomBytes(4).toString('hex'));
  const ctx: ResolveContext = { assembly: api.assembly, region, accountId, tableNames };
  // Every environment is resolved before anything is created, so a template fault leaves nothing behind.
  const authorizerSandbox = sandboxOf(api.authorizer.function, ctx, options);
  const routeSandboxes = new Map([...api.routes].map(([route, fn]) => [route, sandboxOf(fn, ctx, options)] as const));
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
      await createTable(client, table, name);
      created.push(name);
    }
    await warmAll(sandboxes, options.assemblyDir);
  } catch (error) {
    await close();
    throw error;
  }

  const handlers = Object.fromEntries(
    [...routeSandboxes].map(([route, sandbox]): [RouteId, ProxyHandler] => [route, routeHandler(sandbox)]),
  ) as Record<RouteId, ProxyHandler>;
  return {
    handlers,
    authorizer: authorizerHandler(authorizerSandbox),
    identityHeader: api.authorizer.identityHeader,
    stage: api.stage,
    region,
    accountId,
    client,
    tableNames: new Map([...tableNames].map(([key, name]) => [key.slice(key.indexOf('/') + 1), name])),
    functions: {
      routes: new Map([...routeSandboxes].map(([route, sandbox]) => [route, functionInfo(sandbox)])),
      authorizer: functionInfo(authorizerSandbox),
    },
    ingestSettings: api.ingestSettings,
    close,
  };
}

/** The table made for each table of the template, by `<stack id>/<logical id>`: its declared name, else a new one. */
function tableNamesOf(tables: readonly TemplateTable[], suffix: string): Map<string, string> {
  const names = new Map<string, string>();
  for (const table of tables) {
    const declared = table.properties.TableName;
    names.set(
      `${table.stack.id}/${table.logicalId}`,
      typeof declared === 'string' ? declared : `${table.stack.stackName}-${table.logicalId}-${suffix}`,
    );
  }
  return names;
}

async function createTable(client: DynamoDBDocumentClient, table: TemplateTable, name: string): Promise<void> {
  await client.send(new CreateTableCommand(createTableInput(table, name)));
  const ttl = table.properties.TimeToLiveSpecification as { AttributeName?: string; Enabled?: boolean } | undefined;
  if (ttl?.Enabled && ttl.AttributeName) await enableTimeToLive(client, name, ttl.AttributeName);
}

/** The execution environments of one function of the template, as its live alias runs it. */
function sandboxOf(fn: TemplateFunction, ctx: ResolveContext, options: CdkOutHandlersOptions): LambdaSandbox {
  const { region, accountId } = ctx;
  const local = { region, dynamoEndpoint: options.dynamoEndpoint, version: LIVE_VERSION };
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
}

async function warmAll(sandboxes: readonly LambdaSandbox[], assemblyDir: string): Promise<void> {
  const failures = (await Promise.allSettled(sandboxes.map((sandbox) => sandbox.warm()))).flatMap((outcome) =>
    outcome.status === 'rejected' ? [(outcome.reason as Error).message] : [],
  );
  if (failures.length > 0) {
    throw new CdkOutError(
      `${failures.length} function${failures.length === 1 ? '' : 's'} of ${assemblyDir} cannot start:\n  ${failures.join('\n  ')}`,
    );
  }
}

function routeHandler(sandbox: LambdaSandbox): ProxyHandler {
  return async (event, context) => {
    let payload: unknown;
    try {
      payload = await sandbox.invoke(event, context.awsRequestId);
    } catch (error) {
      throw new FunctionError((error as Error).message, { cause: error });
    }
    return proxyResult(payload, sandbox.fn.label);
  };
}

function authorizerHandler(sandbox: LambdaSandbox): AuthorizerHandler {
  return async (event, context) => {
    try {
      return authorizerResult(await sandbox.invoke(event, context.awsRequestId), sandbox.fn.label);
    } catch (error) {
      // A Lambda authorizer denies a request by failing with exactly this message: API Gateway answers 401.
      if (error instanceof LambdaInvokeError && error.errorMessage === 'Unauthorized') throw new Error('Unauthorized');
      throw error;
    }
  };
}

function functionInfo(sandbox: LambdaSandbox): CdkOutFunctionInfo {
  const { label, codeDir, timeoutSeconds, environment } = sandbox.fn;
  return { label, codeDir, handler: environment._HANDLER ?? '', timeoutSeconds, environment };
}
