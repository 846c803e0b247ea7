/** The environment Lambda would give a function of the assembly, its template values resolved locally. */
import { DYNAMODB_ENDPOINT_ENV, LOCAL_ENDPOINT_CREDENTIALS } from '../lambdas/core/store/clients';
import {
  type AssemblyStack,
  CdkOutError,
  type CloudAssemblyFiles,
  resourcesOf,
  type TemplateFunction,
} from './cdk-out-assembly';

/** Where the template's values are resolved: the local account and region, and the tables made for its tables. */
export interface ResolveContext {
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
const LAMBDA_RESERVED_VARIABLES = new Set(
  `_HANDLER _X_AMZN_TRACE_ID AWS_DEFAULT_REGION AWS_REGION AWS_EXECUTION_ENV AWS_LAMBDA_FUNCTION_NAME
  AWS_LAMBDA_FUNCTION_MEMORY_SIZE AWS_LAMBDA_FUNCTION_VERSION AWS_LAMBDA_INITIALIZATION_TYPE AWS_LAMBDA_LOG_GROUP_NAME
  AWS_LAMBDA_LOG_STREAM_NAME AWS_ACCESS_KEY AWS_ACCESS_KEY_ID AWS_SECRET_ACCESS_KEY AWS_SESSION_TOKEN
  AWS_LAMBDA_RUNTIME_API LAMBDA_TASK_ROOT LAMBDA_RUNTIME_DIR`.split(/\s+/),
);

/** The template's environment of a function, every value resolved; one that cannot be fails, naming the variable. */
export function resolveEnvironment(fn: TemplateFunction, ctx: ResolveContext): Record<string, string> {
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
 * The execution environment Lambda gives a function: the template's variables, then Lambda's own (which the
 * template cannot set, see LAMBDA_RESERVED_VARIABLES), credentials as the execution role's would be, and the
 * DynamoDB endpoint override, the local stand-in for the network between the function and DynamoDB.
 * https://docs.aws.amazon.com/lambda/latest/dg/configuration-envvars.html#configuration-envvars-runtime
 */
export function lambdaEnvironment(
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
