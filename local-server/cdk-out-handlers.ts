/**
 * The local gateway's second source of handlers: what a synthesized cloud assembly (`cdk.out`) would deploy
 * (cdk-out-assembly.ts), rather than the TypeScript sources. Each function runs in execution environments of its own
 * (lambda-sandbox.ts) with exactly the template's variables plus what Lambda sets, against tables created in
 * DynamoDB Local from the template. So a bundle that lacks a module, a handler name or an environment variable the
 * code reads but the template does not set fails here, before a deploy does.
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
import { LOCAL_ENDPOINT_CREDENTIALS } from '../lambdas/core/store/clients';
import {
  CdkOutError,
  describeCdkOutApi,
  readCloudAssembly,
  type StackIds,
  type TemplateFunction,
  type TemplateTable,
} from './cdk-out-assembly';
import { lambdaEnvironment, type ResolveContext, resolveEnvironment } from './cdk-out-environment';
import { enableTimeToLive } from './create-tables';
import { type AuthorizerHandler, FunctionError, type ProxyHandler } from './gateway';
import { LambdaInvokeError, LambdaSandbox, type SandboxFunction, type SandboxOptions } from './lambda-sandbox';

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

/** Starts one environment of every function; those that cannot start fail together, each with Lambda's error. */
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
