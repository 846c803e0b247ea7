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
import { describeRequest } from '../../../local-server/gateway-events';
import { LambdaSandbox } from '../../../local-server/lambda-sandbox';
import { logicalIdOf, propsOf } from '../../infra/synth';
import { backends, freshTables, type TestTables } from '../../support/backends';
import { until } from '../../support/until';

type Json = Record<string, unknown>;

/** A trace header as Lambda passes it for a sampled request: the root trace and the function's segment. */
const TRACE = { root: '1-67a1b2c3-0123456789abcdef01234567', parent: '53995c3f42cd8ad8' } as const;
const NOT_LOADED = 'the X-Ray SDK could not be loaded';

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
  const fn = new FxratesFunction(stack, 'Authorizer', {
    name: 'authorizer',
    description: 'traced authorizer',
    timeout: Duration.seconds(5),
  });
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
   * One invocation of the function from `codeDir`, in a fresh execution environment; its answer and log lines.
   * `settled` runs before the environment is stopped: a subsegment is sent after the call it records has answered.
   */
  async function invokeFrom(codeDir: string, settled: () => Promise<void>): Promise<{ result: Json; logs: string[] }> {
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
          _X_AMZN_TRACE_ID: `Root=${TRACE.root};Parent=${TRACE.parent};Sampled=1`,
          AWS_XRAY_CONTEXT_MISSING: 'LOG_ERROR',
          AWS_XRAY_DAEMON_ADDRESS: `127.0.0.1:${xray.port}`,
        },
        invokedFunctionArn: 'arn:aws:lambda:us-east-1:123456789012:function:traced-authorizer',
        logGroupName: '/aws/lambda/traced-authorizer',
      },
      { maxEnvironments: 1, onLog: (_label, line) => logs.push(line) },
    );
    try {
      const result = (await sandbox.invoke(authorizerEvent(key), randomUUID())) as Json;
      await settled();
      return { result, logs };
    } finally {
      await sandbox.close();
    }
  }

  const dynamoSubsegments = () =>
    xray.documents.filter((d) => d.type === 'subsegment' && d.name === 'DynamoDB' && d.namespace === 'aws');

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
    const { result, logs } = await invokeFrom(synthesized.codeDir, () =>
      until(
        'subsegments of two operations',
        () => new Set(dynamoSubsegments().map((d) => (d.aws as Json).operation)).size >= 2,
        5_000,
      ),
    );
    expect((result.policyDocument as { Statement: { Effect: string }[] }).Statement[0]?.Effect).toBe('Allow');
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
    expect(logs.filter((line) => line.includes(NOT_LOADED))).toEqual([]);
  });

  it('answers the same without the package, untraced, and says why once', async () => {
    const bare = mkdtempSync(join(tmpdir(), 'fxrates-untraced-'));
    scratch.push(bare);
    for (const file of ['index.js', 'index.js.map']) copyFileSync(join(synthesized.codeDir, file), join(bare, file));
    expect(existsSync(join(bare, 'node_modules'))).toBe(false);
    xray.documents.length = 0;
    // Long enough for a subsegment that would follow: the traced case's arrive within a few milliseconds.
    const { result, logs } = await invokeFrom(bare, () => new Promise((resolve) => setTimeout(resolve, 500)));
    expect((result.policyDocument as { Statement: { Effect: string }[] }).Statement[0]?.Effect).toBe('Allow');
    expect(logs.filter((line) => line.includes(NOT_LOADED))).toHaveLength(1);
    expect(dynamoSubsegments()).toEqual([]);
  });
});
