/**
 * The function bundles replace two modules by aliases (bundling.ts): the SDK's credential chain by Lambda's
 * environment credentials, and `node:stream/web` by a stand-in that loads it on first use. These tests bundle a
 * real DynamoDB client with the shared options and let it sign a request to a local socket, and run a real
 * function's bundle in a fresh process.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import * as webStreams from 'node:stream/web';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { PLANS } from '../../lambdas/core/domain/plans';
import { PUBLISHERS } from '../../lambdas/core/domain/publishers';
import { encodeAccess } from '../../lambdas/core/http/authorizer-context';
import { defaultProvider, MissingEnvironmentCredentialsError } from '../../lambdas/core/lambda-credentials';
import { ReadableStream as LazyReadableStream } from '../../lambdas/core/middy-web-streams';
import { BUNDLE_OPTIONS, esbuildOptions, PROJECT_ROOT, sharedEsbuildOptions } from '../../lib/bundling';

const run = promisify(execFile);

const CLIENT_SOURCE = `
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
const client = new DynamoDBClient({ endpoint: process.env.TEST_ENDPOINT, region: 'us-east-1', maxAttempts: 1 });
client.send(new ListTablesCommand({})).then(
  (out) => console.log(JSON.stringify(out.TableNames)),
  (err) => { console.error(err.message); process.exitCode = 1; },
);`;

let dir: string;
let bundleFile: string;
let server: Server;
let endpoint: string;
const seen: IncomingHttpHeaders[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fxrates-bundling-'));
  bundleFile = join(dir, 'client', 'index.js');
  const options = sharedEsbuildOptions(bundleFile);
  await build({
    ...options,
    stdin: { contents: CLIENT_SOURCE, resolveDir: PROJECT_ROOT, loader: 'ts', sourcefile: 'client.ts' },
  });
  server = createServer((req, res) => {
    seen.push(req.headers);
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
      res.end(JSON.stringify({ TableNames: ['rates'] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

function runBundle(env: Record<string, string>) {
  return run(process.execPath, [bundleFile], {
    cwd: dir,
    env: {
      PATH: process.env.PATH,
      TEST_ENDPOINT: endpoint,
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      ...env,
    },
  });
}

describe('credentials in the function bundles', () => {
  it('signs DynamoDB requests with the credentials Lambda puts in the environment', async () => {
    seen.length = 0;
    const { stdout } = await runBundle({
      AWS_ACCESS_KEY_ID: 'AKIDFXRATESTEST',
      AWS_SECRET_ACCESS_KEY: 'secret',
      AWS_SESSION_TOKEN: 'session-token-1',
    });
    expect(JSON.parse(stdout)).toEqual(['rates']);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDFXRATESTEST\/\d{8}\/us-east-1\/dynamodb\//,
    );
    expect(seen[0]?.['x-amz-security-token']).toBe('session-token-1');
  });

  it('fails with a clear message, without any request, when the environment has no credentials', async () => {
    seen.length = 0;
    await expect(runBundle({})).rejects.toMatchObject({
      stderr: expect.stringContaining('AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are not set'),
    });
    expect(seen).toHaveLength(0);
  });

  it('leaves the other credential sources and their nested clients out of the bundle', () => {
    const code = readFileSync(bundleFile, 'utf8');
    // Markers of the web-identity, SSO, process and container providers of the full chain.
    const markers = [
      'AssumeRoleWithWebIdentity',
      'GetRoleCredentials',
      'credential_process',
      'AWS_CONTAINER_CREDENTIALS',
    ];
    expect(markers.filter((marker) => code.includes(marker))).toEqual([]);
    expect(Object.keys(BUNDLE_OPTIONS.alias)).toEqual(['@aws-sdk/credential-provider-node', 'node:stream/web']);
  });
});

describe('reading environment credentials', () => {
  const NAMES = ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_ACCOUNT_ID'];
  const saved = Object.fromEntries(NAMES.map((name) => [name, process.env[name]]));
  afterEach(() => {
    for (const name of NAMES) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });
  /** The provider's answer under exactly these variables, without the SDK's own `$source` bookkeeping. */
  async function credentialsUnder(env: Partial<Record<string, string>>) {
    for (const name of NAMES) delete process.env[name];
    Object.assign(process.env, env);
    const { $source, ...credentials } = (await defaultProvider()()) as { $source?: unknown };
    return credentials;
  }

  it('returns the key pair with the session token and account id when present', async () => {
    expect(
      await credentialsUnder({
        AWS_ACCESS_KEY_ID: 'a',
        AWS_SECRET_ACCESS_KEY: 'b',
        AWS_SESSION_TOKEN: 'c',
        AWS_ACCOUNT_ID: '123456789012',
      }),
    ).toEqual({ accessKeyId: 'a', secretAccessKey: 'b', sessionToken: 'c', accountId: '123456789012' });
    expect(await credentialsUnder({ AWS_ACCESS_KEY_ID: 'a', AWS_SECRET_ACCESS_KEY: 'b' })).toEqual({
      accessKeyId: 'a',
      secretAccessKey: 'b',
    });
  });

  it.each([
    {},
    { AWS_ACCESS_KEY_ID: 'a' },
    { AWS_SECRET_ACCESS_KEY: 'b' },
    { AWS_ACCESS_KEY_ID: '', AWS_SECRET_ACCESS_KEY: 'b' },
  ])('refuses an incomplete environment %j', async (env) => {
    await expect(credentialsUnder(env)).rejects.toThrow(MissingEnvironmentCredentialsError);
  });
});

describe("Node's web streams in the function bundles", () => {
  it('answers a request through middy without loading them (the quota function, run in a fresh process)', async () => {
    const file = join(dir, 'quota', 'index.js');
    await build(esbuildOptions('quota', file));
    const at = Date.UTC(2026, 10, 28, 12);
    const { monthlyLimit, overflowAllowed, overflowPercent, perMinute } = PLANS.pro;
    const event = {
      resource: '/quota',
      path: '/quota',
      httpMethod: 'GET',
      headers: {},
      queryStringParameters: null,
      multiValueQueryStringParameters: null,
      pathParameters: null,
      requestContext: {
        requestId: 'req-web-streams',
        authorizer: encodeAccess({
          verdict: 'admitted',
          accountId: 'acct-web-streams',
          plan: 'pro',
          limits: { monthlyLimit, overflowAllowed, overflowPercent, perMinute },
          meter: {
            verdict: 'admitted',
            plan: PLANS.pro.name,
            minuteLimit: perMinute,
            minuteUsed: 1,
            monthLimit: monthlyLimit,
            monthUsed: 42,
            at,
          },
        }),
      },
    };
    const script =
      `const loaded = () => process.moduleLoadList.includes('NativeModule stream/web');` +
      `const { handler } = require(${JSON.stringify(file)});` +
      'const atLoad = loaded();' +
      'handler(JSON.parse(process.env.EVENT), {}).then((answer) =>' +
      ' console.log(JSON.stringify({ atLoad, afterAnswer: loaded(), status: answer.statusCode, body: answer.body })));';
    const { stdout } = await run(process.execPath, ['-e', script], {
      cwd: dir,
      env: { PATH: process.env.PATH, EVENT: JSON.stringify(event) },
    });
    const result = JSON.parse(stdout) as { atLoad: boolean; afterAnswer: boolean; status: number; body: string };
    expect(result).toMatchObject({ atLoad: false, afterAnswer: false, status: 200 });
    expect(JSON.parse(result.body)).toMatchObject({ success: true, data: { quota: { used: 42 } } });
  }, 60_000);

  it('answers instanceof ReadableStream as the real class does', () => {
    expect(new webStreams.ReadableStream() instanceof LazyReadableStream).toBe(true);
    expect(Readable.from(['a']) instanceof LazyReadableStream).toBe(false);
    for (const value of [{}, 'body', null, undefined, new webStreams.WritableStream()]) {
      expect(value instanceof LazyReadableStream).toBe(false);
    }
  });
});

describe("the publishers' facts in the function bundles", () => {
  it('leaves them out of latest, which needs only the publication windows, and keeps them in sources', async () => {
    const code = async (route: 'latest' | 'sources') => {
      const file = join(dir, route, 'index.js');
      await build(esbuildOptions(route, file));
      return readFileSync(file, 'utf8');
    };
    const [latest, sources] = await Promise.all([code('latest'), code('sources')]);
    // Their data links (ASCII, which esbuild writes as they are, where it escapes the names' other letters).
    const links = Object.values(PUBLISHERS).map((facts) => facts.dataUrl);
    // latest tells when its rates next change from the windows, e.g. the Bank of Canada's, which opens at 20:00 UTC.
    expect(latest).toMatch(/boc:\[20,22\]/);
    expect(links.filter((link) => latest.includes(link))).toEqual([]);
    expect(links.filter((link) => sources.includes(link))).toEqual(links);
  }, 60_000);
});
