/**
 * The function bundles replace the SDK's credential chain with Lambda's environment credentials (bundling.ts).
 * These tests bundle a real DynamoDB client with the shared options and let it sign a request to a local socket.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { defaultProvider, MissingEnvironmentCredentialsError } from '../../lambdas/core/lambda-credentials';
import { BUNDLE_OPTIONS, PROJECT_ROOT, sharedEsbuildOptions } from '../../lib/bundling';

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
    expect(Object.keys(BUNDLE_OPTIONS.alias)).toEqual(['@aws-sdk/credential-provider-node']);
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
