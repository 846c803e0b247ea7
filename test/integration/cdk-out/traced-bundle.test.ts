/**
 * What `cdk deploy -c tracing=true` ships, run as Lambda runs it: one function synthesized with its bundle and the
 * X-Ray SDK that CDK installs beside it (lib/fxrates-function.ts), started in the local Lambda sandbox with the
 * variables Lambda sets for active tracing, its DynamoDB calls answered by DynamoDB Local, and the X-Ray daemon's UDP
 * port played by a socket of the test. Lambda's variables for tracing:
 * https://docs.aws.amazon.com/lambda/latest/dg/configuration-envvars.html#configuration-envvars-runtime
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createSocket, type Socket } from 'node:dgram';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { App, Duration, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { matchRoute } from '../../../lambdas/core/http/routes';
import { AccountsStore } from '../../../lambdas/core/store/accounts-store';
import { DYNAMODB_ENDPOINT_ENV } from '../../../lambdas/core/store/clients';
import { ACCOUNTS_TABLE } from '../../../lambdas/core/store/tables';
import { XRAY_SDK_PACKAGE } from '../../../lambdas/core/store/xray';
import { TRACING_ENV } from '../../../lambdas/core/tracing';
import { PROJECT_ROOT } from '../../../lib/bundling';
import { FxratesFunction } from '../../../lib/fxrates-function';
import { LAMBDA_XRAY_VARIABLES } from '../../../local-server/cdk-out-handlers';
import { describeRequest } from '../../../local-server/gateway-events';
import { LambdaSandbox } from '../../../local-server/lambda-sandbox';
import { logicalIdOf, propsOf, withFastNpx } from '../../infra/synth';
import { backends, freshTables, type TestTables } from '../../support/backends';
import { until } from '../../support/until';

type Json = Record<string, unknown>;

/** A trace header as Lambda passes it for a sampled request: the root trace and the function's segment. */
const TRACE = { root: '1-67a1b2c3-0123456789abcdef01234567', parent: '53995c3f42cd8ad8' } as const;
const sampled = (trace: { root: string; parent: string }) => `Root=${trace.root};Parent=${trace.parent};Sampled=1`;
const NOT_LOADED = 'the X-Ray SDK could not be loaded';
/** What the X-Ray SDK logs for a call made without an invocation's tracing header. */
const MISSING_TRACE = 'Missing AWS Lambda trace data';

interface Synthesized {
  outdir: string;
  codeDir: string;
  handler: string;
  environment: Record<string, string>;
}

/** One authorizer function, traced, in an app of its own, with bundling as `cdk deploy` runs it. */
function synthesizeTracedAuthorizer(): Synthesized {
  const outdir = mkdtempSync(join(tmpdir(), 'fxrates-traced-'));
  const app = new App({ outdir, context: { tracing: 'true' } });
  const stack = new Stack(app, 'Traced');
  // The asset is bundled as the construct is made.
  const fn = withFastNpx(
    () =>
      new FxratesFunction(stack, 'Authorizer', {
        name: 'authorizer',
        description: 'traced authorizer',
        timeout: Duration.seconds(5),
      }),
  );
  app.synth();
  const props = propsOf(Template.fromStack(stack).toJSON().Resources[logicalIdOf(fn.function)]);
  const s3Key = (props.Code as { S3Key: string }).S3Key;
  return {
    outdir,
    codeDir: join(outdir, `asset.${s3Key.replace(/\.zip$/, '')}`),
    handler: props.Handler as string,
    environment: (props.Environment as { Variables: Record<string, string> }).Variables,
  };
}

/** The daemon's side: every segment document sent to the port (each datagram is a header line, then the JSON). */
async function daemon(): Promise<{ socket: Socket; port: number; documents: Json[] }> {
  const socket = createSocket('udp4');
  const documents: Json[] = [];
  socket.on('message', (message) => {
    const [header, body] = message.toString('utf8').split('\n');
    if (header && JSON.parse(header).format === 'json' && body) documents.push(JSON.parse(body) as Json);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return { socket, port: socket.address().port, documents };
}

/** A REQUEST authorizer event for GET /v1/rates/latest, shaped as the local gateway shapes API Gateway's. */
function authorizerEvent(key: string): Json {
  const match = matchRoute('/rates/latest');
  if (!match) throw new Error('no latest route');
  const url = new URL('http://127.0.0.1/v1/rates/latest');
  const api = { accountId: '123456789012', apiId: 'traced', stage: 'v1', requestId: randomUUID() };
  const { event, requestContext } = describeRequest(
    { method: 'GET', url: url.pathname, headers: { 'x-api-key': key } },
    url,
    match,
    api,
  );
  const methodArn = `arn:aws:execute-api:us-east-1:${api.accountId}:${api.apiId}/${api.stage}/GET/rates/latest`;
  return { type: 'REQUEST', methodArn, requestContext, ...event };
}

describe('a function deployed with tracing on', () => {
  let synthesized: Synthesized;
  let tables: TestTables;
  let key: string;
  /** DynamoDB Local keeps a database per region: the function signs for the region the tables were made in. */
  let region: string;
  let endpoint: string;
  let xray: Awaited<ReturnType<typeof daemon>>;
  const scratch: string[] = [];

  beforeAll(async () => {
    synthesized = synthesizeTracedAuthorizer();
    scratch.push(synthesized.outdir);
    const backend = backends().find((b) => b.name === 'dynamodb-local');
    if (!backend) throw new Error('DynamoDB Local is not running');
    endpoint = backend.endpoint;
    tables = await freshTables(backend);
    region = await tables.client.config.region();
    const accounts = new AccountsStore(tables.client, tables.accountsTable, {
      clock: () => new Date(),
      randomBytes: (n) => randomBytes(n),
    });
    const account = await accounts.createAccount({ accountId: `traced-${randomUUID()}`, plan: 'pro', verified: true });
    key = (await accounts.createKey(account.accountId, 'traced test')).key;
    xray = await daemon();
  }, 120_000);

  afterAll(() => {
    xray?.socket.close();
    for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
  });

  /**
   * Invocations of the function from `codeDir`, one after another in one fresh execution environment, each with the
   * tracing header given (the sandbox's own where none is); their answers and the log lines. `settled` runs before
   * the environment is stopped: a subsegment is sent after the call it records has answered.
   */
  async function invokeFrom(
    codeDir: string,
    traceHeaders: (string | undefined)[],
    settled: () => Promise<void>,
  ): Promise<{ results: Json[]; logs: string[] }> {
    const logs: string[] = [];
    const sandbox = new LambdaSandbox(
      {
        label: 'traced authorizer',
        name: 'traced-authorizer',
        version: '$LATEST',
        codeDir,
        timeoutSeconds: 5,
        memorySize: 512,
        environment: {
          ...synthesized.environment,
          [ACCOUNTS_TABLE.envVar]: tables.accountsTable,
          _HANDLER: synthesized.handler,
          LAMBDA_TASK_ROOT: codeDir,
          AWS_REGION: region,
          AWS_ACCESS_KEY_ID: 'local',
          AWS_SECRET_ACCESS_KEY: 'local',
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          [DYNAMODB_ENDPOINT_ENV]: endpoint,
          AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
          ...LAMBDA_XRAY_VARIABLES,
          AWS_XRAY_DAEMON_ADDRESS: `127.0.0.1:${xray.port}`,
        },
        invokedFunctionArn: 'arn:aws:lambda:us-east-1:123456789012:function:traced-authorizer',
        logGroupName: '/aws/lambda/traced-authorizer',
      },
      { maxEnvironments: 1, onLog: (_label, line) => logs.push(line) },
    );
    try {
      const results: Json[] = [];
      for (const header of traceHeaders) {
        results.push((await sandbox.invoke(authorizerEvent(key), randomUUID(), header)) as Json);
      }
      await settled();
      return { results, logs };
    } finally {
      await sandbox.close();
    }
  }

  const dynamoSubsegments = () =>
    xray.documents.filter((d) => d.type === 'subsegment' && d.name === 'DynamoDB' && d.namespace === 'aws');
  const effect = (result: Json | undefined) =>
    (result?.policyDocument as { Statement: { Effect: string }[] } | undefined)?.Statement[0]?.Effect;

  it('ships the X-Ray SDK beside the bundle, at the locked version, and not inside it', () => {
    const lock = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { version?: string }>;
    };
    const installed = JSON.parse(
      readFileSync(join(synthesized.codeDir, 'node_modules', XRAY_SDK_PACKAGE, 'package.json'), 'utf8'),
    ) as { version: string };
    expect(installed.version).toBe(lock.packages[`node_modules/${XRAY_SDK_PACKAGE}`]?.version);
    const map = JSON.parse(readFileSync(join(synthesized.codeDir, 'index.js.map'), 'utf8')) as { sources: string[] };
    expect(map.sources.some((source) => source.includes('/lambdas/authorizer/handler.ts'))).toBe(true);
    expect(map.sources.filter((source) => source.includes(XRAY_SDK_PACKAGE))).toEqual([]);
    expect(synthesized.environment[TRACING_ENV]).toBe('true');
  });

  it("sends each DynamoDB call to the daemon as a subsegment of Lambda's trace, both clients' calls", async () => {
    xray.documents.length = 0;
    // The key's lookup reads; the admission writes through the metering client, whose stack is resolved once.
    const { results, logs } = await invokeFrom(synthesized.codeDir, [sampled(TRACE)], () =>
      until(
        'subsegments of two operations',
        () => new Set(dynamoSubsegments().map((d) => (d.aws as Json).operation)).size >= 2,
        5_000,
      ),
    );
    expect(effect(results[0])).toBe('Allow');
    const calls = dynamoSubsegments();
    const operations = new Set(calls.map((d) => (d.aws as Json).operation));
    expect(operations).toContain('GetItem');
    expect(operations).toContain('UpdateItem');
    for (const call of calls) {
      expect(call).toMatchObject({ trace_id: TRACE.root, parent_id: TRACE.parent });
      expect(call.aws).toMatchObject({ region, table_name: tables.accountsTable });
      expect((call.http as { response: { status: number } }).response.status).toBe(200);
      // The X-Ray SDK records the SDK's attempts under this name: 1 for a call answered at the first attempt.
      expect((call.aws as Json).retries).toBe(1);
    }
    expect(logs.filter((line) => line.includes(NOT_LOADED) || line.includes(MISSING_TRACE))).toEqual([]);
  });

  it("records each invocation's calls under that invocation's own trace, in one execution environment", async () => {
    xray.documents.length = 0;
    const second = { root: '1-67a1b2c4-89abcdef0123456789abcdef', parent: '0123456789abcdef' };
    const traces = () => new Set(dynamoSubsegments().map((d) => d.trace_id));
    const { results, logs } = await invokeFrom(synthesized.codeDir, [sampled(TRACE), sampled(second)], () =>
      until('subsegments of both traces', () => traces().size >= 2, 5_000),
    );
    expect(results.map(effect)).toEqual(['Allow', 'Allow']);
    expect([...traces()].sort()).toEqual([TRACE.root, second.root].sort());
    for (const call of dynamoSubsegments()) {
      expect(call.parent_id).toBe(call.trace_id === TRACE.root ? TRACE.parent : second.parent);
    }
    expect(logs.filter((line) => line.includes(MISSING_TRACE))).toEqual([]);
  });

  it('finds trace data on each call when the caller passes no header, unsampled, so nothing is sent', async () => {
    xray.documents.length = 0;
    // Long enough for a subsegment that would follow: the traced case's arrive within a few milliseconds.
    const { results, logs } = await invokeFrom(synthesized.codeDir, [undefined, undefined], () => delay(500));
    expect(results.map(effect)).toEqual(['Allow', 'Allow']);
    expect(logs.filter((line) => line.includes(MISSING_TRACE) || line.includes(NOT_LOADED))).toEqual([]);
    expect(dynamoSubsegments()).toEqual([]);
  });

  it('answers the same without the package, untraced, and says why once', async () => {
    const bare = mkdtempSync(join(tmpdir(), 'fxrates-untraced-'));
    scratch.push(bare);
    for (const file of ['index.js', 'index.js.map']) copyFileSync(join(synthesized.codeDir, file), join(bare, file));
    expect(existsSync(join(bare, 'node_modules'))).toBe(false);
    xray.documents.length = 0;
    const { results, logs } = await invokeFrom(bare, [sampled(TRACE)], () => delay(500));
    expect(effect(results[0])).toBe('Allow');
    expect(logs.filter((line) => line.includes(NOT_LOADED))).toHaveLength(1);
    expect(dynamoSubsegments()).toEqual([]);
  });
});
