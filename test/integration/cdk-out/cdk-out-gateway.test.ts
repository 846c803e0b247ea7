/**
 * The API's acceptance tests run against what `cdk deploy` would ship: the app synthesized once with its bundles,
 * served by the local gateway from the cloud assembly (local-server/cdk-out-handlers.ts), each function in its own
 * process with the template's environment, against DynamoDB Local tables made from the data stack's template. Then
 * copies of the assembly with one fault each show that the gateway refuses or fails them as Lambda and API Gateway
 * would.
 */
import { randomBytes } from 'node:crypto';
import {
  copyFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DescribeTableCommand } from '@aws-sdk/client-dynamodb';
import { loadBundledRates } from '../../../bench/support/bundled-rates';
import { generateApiKey } from '../../../lambdas/core/domain/api-key';
import type { LimitOverrides, PlanId } from '../../../lambdas/core/domain/plans';
import { SOURCE_IDS, SOURCES_ENV } from '../../../lambdas/core/domain/rates';
import { API_KEY_HEADER } from '../../../lambdas/core/http/headers';
import { ROUTES } from '../../../lambdas/core/http/routes';
import { INGEST_ENV } from '../../../lambdas/core/ingest/fetchers';
import { AccountsStore } from '../../../lambdas/core/store/accounts-store';
import { RatesStore } from '../../../lambdas/core/store/rates-store';
import { ACCOUNTS_TABLE, RATES_TABLE } from '../../../lambdas/core/store/tables';
import { describeCdkOutApi, readCloudAssembly } from '../../../local-server/cdk-out-assembly';
import { LAMBDA_XRAY_VARIABLES } from '../../../local-server/cdk-out-handlers';
import { type CdkOutServer, startCdkOutServer } from '../../../local-server/cdk-out-server';
import { readIngestSettings } from '../../../local-server/serve-env';
import { logicalIdOf, propsOf, type Synthesized, synthesize } from '../../infra/synth';

type Json = Record<string, unknown>;
interface Template {
  Resources: Record<string, { Type: string; Properties: Json }>;
}

function dynamoEndpoint(): string {
  const endpoint = process.env.FXRATES_TEST_DYNAMODB_LOCAL_ENDPOINT;
  if (!endpoint) throw new Error('DynamoDB Local is not running: the integration globalSetup starts it');
  return endpoint;
}

let s: Synthesized;
let synthMs = 0;
const copies: string[] = [];

beforeAll(() => {
  const started = Date.now();
  // With bundling: every function's asset is built into the assembly, as `npm run synth` builds it.
  s = synthesize();
  synthMs = Date.now() - started;
}, 180_000);

afterAll(() => {
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
  s?.dispose();
});

const templateOf = (which: 'service' | 'data', dir = s.outdir) =>
  JSON.parse(readFileSync(join(dir, s.fx[which].templateFile), 'utf8')) as Template;
const routeFunctionId = (route: string) => {
  const fn = s.fx.service.api.routeFunctions.get(route as never);
  if (!fn) throw new Error(`no function for route ${route}`);
  return logicalIdOf(fn.function);
};
const authorizerFunctionId = () => logicalIdOf(s.fx.service.api.authorizerFunction.function);
const ingestFunctionId = () => logicalIdOf(s.fx.service.ingestion.function.function);
const variablesOf = (template: Template, id: string) =>
  (propsOf(template.Resources[id]).Environment as { Variables: Json }).Variables;
/** A key of the right form that no account holds: the authorizer looks it up. */
const unknownKey = () => generateApiKey((n) => randomBytes(n));

/**
 * A copy of the assembly in which `change` edits the templates and the assets it asks for. The other assets are
 * links to the originals, so a copy costs nothing.
 */
function faultyCopy(
  change: (copy: { service: Template; data: Template; asset(logicalId: string): string }) => void,
): string {
  const dir = mkdtempSync(join(tmpdir(), 'fxrates-cdk-out-'));
  copies.push(dir);
  for (const entry of readdirSync(s.outdir, { withFileTypes: true })) {
    if (entry.isDirectory()) symlinkSync(join(s.outdir, entry.name), join(dir, entry.name), 'dir');
    else copyFileSync(join(s.outdir, entry.name), join(dir, entry.name));
  }
  const service = templateOf('service', dir);
  const data = templateOf('data', dir);
  change({
    service,
    data,
    asset(logicalId) {
      const key = (propsOf(service.Resources[logicalId]).Code as { S3Key: string }).S3Key;
      const name = `asset.${key.replace(/\.zip$/, '')}`;
      unlinkSync(join(dir, name));
      cpSync(join(s.outdir, name), join(dir, name), { recursive: true });
      return join(dir, name);
    },
  });
  writeFileSync(join(dir, s.fx.service.templateFile), JSON.stringify(service));
  writeFileSync(join(dir, s.fx.data.templateFile), JSON.stringify(data));
  return dir;
}

function start(assemblyDir: string, errors: unknown[] = []): Promise<CdkOutServer> {
  return startCdkOutServer({
    assemblyDir,
    dynamoEndpoint: dynamoEndpoint(),
    onLog: () => undefined,
    onError: (error) => errors.push(error),
  });
}

/** A key header that the copy's own authorizer admits: an account and key made in the tables it was told about. */
async function admittedKey(server: CdkOutServer, accountId: string): Promise<Record<string, string>> {
  const accountsTable = server.functions.functions.authorizer.environment[ACCOUNTS_TABLE.envVar] as string;
  const store = new AccountsStore(server.functions.client, accountsTable, {
    clock: () => new Date(),
    randomBytes: (n) => randomBytes(n),
  });
  const account = await store.createAccount({ accountId, plan: 'business', verified: true });
  return { [API_KEY_HEADER]: (await store.createKey(account.accountId, accountId)).key };
}

async function get(server: CdkOutServer, path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.url}${path}`, { headers });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    text,
    json: () => JSON.parse(text) as { success: boolean; data?: Json; error?: { code: string; param?: string } },
  };
}

describe('the local gateway serving the synthesized cdk.out', () => {
  let server: CdkOutServer;
  let accounts: AccountsStore;
  let key: string;
  const errors: unknown[] = [];

  const newKey = async (plan: PlanId, overrides: LimitOverrides) => {
    const account = await accounts.createAccount({
      accountId: `cdk-out-${plan}-${randomBytes(4).toString('hex')}`,
      plan,
      verified: true,
      overrides,
    });
    return (await accounts.createKey(account.accountId, 'cdk-out test')).key;
  };

  beforeAll(async () => {
    const started = Date.now();
    server = await start(s.outdir, errors);
    const startMs = Date.now() - started;
    // Seeded as the source server's tests seed, into the tables the functions were told about.
    const fns = server.functions.functions;
    const ratesTable = fns.routes.get('latest')?.environment[RATES_TABLE.envVar];
    const accountsTable = fns.authorizer.environment[ACCOUNTS_TABLE.envVar];
    if (!ratesTable || !accountsTable) throw new Error('the functions were given no table names');
    await loadBundledRates({ store: new RatesStore(server.functions.client, ratesTable) });
    accounts = new AccountsStore(server.functions.client, accountsTable, {
      clock: () => new Date(),
      randomBytes: (n) => randomBytes(n),
    });
    key = await newKey('business', { perMinute: 100_000, monthlyLimit: 1_000_000 });
    console.log(`cdk.out gateway: synth with bundles ${synthMs} ms, gateway start ${startMs} ms`);
  }, 60_000);

  afterAll(() => server?.close());

  it('creates each table of the data stack with the key schema and indexes its template declares', async () => {
    const declared = Object.entries(templateOf('data').Resources).filter(([, r]) => r.Type === 'AWS::DynamoDB::Table');
    expect(declared.map(([id]) => id).sort()).toEqual([...server.functions.tableNames.keys()].sort());
    for (const [logicalId, table] of declared) {
      const name = server.functions.tableNames.get(logicalId);
      const { Table } = await server.functions.client.send(new DescribeTableCommand({ TableName: name }));
      expect(Table?.KeySchema).toEqual(table.Properties.KeySchema);
      const byName = (a: { AttributeName?: string }, b: { AttributeName?: string }) =>
        String(a.AttributeName).localeCompare(String(b.AttributeName));
      expect([...(Table?.AttributeDefinitions ?? [])].sort(byName)).toEqual(
        [...(table.Properties.AttributeDefinitions as { AttributeName: string }[])].sort(byName),
      );
      const indexes = (Table?.GlobalSecondaryIndexes ?? []).map((i) => ({ name: i.IndexName, keys: i.KeySchema }));
      const declaredIndexes = ((table.Properties.GlobalSecondaryIndexes ?? []) as Json[]).map((i) => ({
        name: i.IndexName,
        keys: i.KeySchema,
      }));
      expect(indexes).toEqual(declaredIndexes);
    }
  });

  it("runs each route's built asset with the template's handler, timeout and environment", () => {
    const service = templateOf('service');
    expect([...server.functions.functions.routes.keys()].sort()).toEqual(ROUTES.map((r) => r.id).sort());
    for (const route of ROUTES) {
      const fn = server.functions.functions.routes.get(route.id);
      const props = propsOf(service.Resources[routeFunctionId(route.id)]);
      const hash = (props.Code as { S3Key: string }).S3Key.replace(/\.zip$/, '');
      expect(fn?.codeDir).toBe(join(s.outdir, `asset.${hash}`));
      expect(fn?.handler).toBe(props.Handler);
      expect(fn?.timeoutSeconds).toBe(props.Timeout);
      for (const [name, value] of Object.entries(variablesOf(service, routeFunctionId(route.id)))) {
        if (typeof value === 'string') expect(fn?.environment[name]).toBe(value);
      }
      if (route.ratesTable.length > 0) {
        expect(fn?.environment[RATES_TABLE.envVar]).toBe(
          server.functions.tableNames.get(logicalIdOf(s.fx.data.data.rates)),
        );
      }
      expect(fn?.environment).toMatchObject({ AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(props.MemorySize) });
    }
    expect(server.functions.identityHeader).toBe(API_KEY_HEADER);
  });

  it("takes the sources and cross-check of the function the schedule invokes, the sources route's list", () => {
    const service = templateOf('service');
    const ingest = variablesOf(service, ingestFunctionId());
    expect(server.functions.ingestSettings).toEqual(readIngestSettings(ingest as Record<string, string>));
    expect(server.functions.ingestSettings.sources.join(',')).toBe(
      variablesOf(service, routeFunctionId('sources'))[SOURCES_ENV],
    );
  });

  it('serves the latest rates, and 304 without a body for its ETag', async () => {
    const r = await get(server, 'rates/latest?base=USD', { [API_KEY_HEADER]: key });
    expect(r.status).toBe(200);
    expect(r.json().data).toMatchObject({ base: 'USD', updated_at: '2026-09-29T00:00:00Z', rates: { USD: 1 } });
    expect(r.headers.get('cache-control')).toBe('private, max-age=86400');
    const etag = r.headers.get('etag');
    expect(etag).toBeTruthy();
    const again = await get(server, 'rates/latest?base=USD', { [API_KEY_HEADER]: key, 'If-None-Match': String(etag) });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
  });

  it('serves a pair and a historical rate', async () => {
    const pair = await get(server, 'rates/pair/EUR/USD?amount=100', { [API_KEY_HEADER]: key });
    expect(pair.status).toBe(200);
    expect(pair.json().data).toMatchObject({ base: 'EUR', target: 'USD', amount: 100 });
    const history = await get(server, 'rates/history/EUR/USD/1999-01-04', { [API_KEY_HEADER]: key });
    expect(history.json()).toEqual({
      success: true,
      data: { base: 'EUR', target: 'USD', date: '1999-01-04', rate: 1.1789, published_at: '1999-01-04T15:00:00Z' },
    });
  });

  it("answers the quota from the authorizer's context, as API Gateway passes it to the function", async () => {
    const own = await newKey('business', { perMinute: 500, monthlyLimit: 40_000 });
    await get(server, 'rates/pair/EUR/USD', { [API_KEY_HEADER]: own });
    const r = await get(server, 'quota', { [API_KEY_HEADER]: own });
    expect(r.status).toBe(200);
    expect(r.json().data).toMatchObject({ plan: 'Business', quota: { base_limit: 40_000, used: 1 } });
    expect(r.headers.get('x-ratelimit-limit-minute')).toBe('500');
  });

  it.each([
    { what: 'no key', path: 'rates/latest', sends: 'none', status: 401, code: 'missing-api-key' },
    { what: 'an unknown key', path: 'rates/latest', sends: 'unknown', status: 401, code: 'invalid-api-key' },
    {
      what: 'a bad amount',
      path: 'rates/pair/EUR/USD?amount=abc',
      sends: 'valid',
      status: 400,
      code: 'invalid-amount',
    },
    {
      what: 'an unsupported currency',
      path: 'rates/pair/EUR/XYZ',
      sends: 'valid',
      status: 422,
      code: 'unsupported-currency',
    },
    { what: 'an unknown route', path: 'rates/nothing', sends: 'valid', status: 404, code: 'not-found' },
  ])('refuses $what with $status $code', async ({ path, sends, status, code }) => {
    const headers: Record<string, string> =
      sends === 'none' ? {} : { [API_KEY_HEADER]: sends === 'valid' ? key : unknownKey() };
    const r = await get(server, path, headers);
    expect({ status: r.status, code: r.json().error?.code }).toEqual({ status, code });
    expect(r.headers.get('x-request-id')).toBeTruthy();
  });

  it('refuses a key over its limits with 429 and Retry-After', async () => {
    const monthly = await newKey('free', { perMinute: 100, monthlyLimit: 2 });
    await get(server, 'rates/latest', { [API_KEY_HEADER]: monthly });
    await get(server, 'rates/latest', { [API_KEY_HEADER]: monthly });
    const quota = await get(server, 'rates/latest', { [API_KEY_HEADER]: monthly });
    expect({ status: quota.status, code: quota.json().error?.code }).toEqual({ status: 429, code: 'quota-exceeded' });
    expect(Number(quota.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

    const minute = await newKey('free', { perMinute: 1, monthlyLimit: 100 });
    expect((await get(server, 'rates/latest', { [API_KEY_HEADER]: minute })).status).toBe(200);
    // Two more: one of them falls in the same minute as the first, even across a minute's end.
    const codes = [
      (await get(server, 'rates/latest', { [API_KEY_HEADER]: minute })).json().error?.code,
      (await get(server, 'rates/latest', { [API_KEY_HEADER]: minute })).json().error?.code,
    ];
    expect(codes).toContain('rate-limit-exceeded');
  });

  it('reported no function failure while serving all of the above', () => {
    expect(errors).toEqual([]);
  });
});

describe('an assembly the gateway cannot serve', () => {
  it("refuses to start when a function's template lacks a variable its code reads, naming both", async () => {
    const id = routeFunctionId('latest');
    const dir = faultyCopy(({ service }) => {
      delete variablesOf(service, id)[RATES_TABLE.envVar];
    });
    await expect(start(dir)).rejects.toThrow(
      new RegExp(`function ${id} \\(route latest\\): Error: Environment variable ${RATES_TABLE.envVar} is required`),
    );
  });

  it('refuses to start when a handler name is not exported by its bundle', async () => {
    const id = authorizerFunctionId();
    const dir = faultyCopy(({ service }) => {
      propsOf(service.Resources[id]).Handler = 'index.authorize';
    });
    await expect(start(dir)).rejects.toThrow(
      `function ${id} (authorizer): Runtime.HandlerNotFound: index.authorize is undefined or not exported`,
    );
  });

  it('refuses to start when a bundle is missing from its asset, or the asset itself', async () => {
    const pair = routeFunctionId('pair');
    const withoutBundle = faultyCopy(({ asset }) => rmSync(join(asset(pair), 'index.js')));
    await expect(start(withoutBundle)).rejects.toThrow(
      `function ${pair} (route pair): Runtime.ImportModuleError: Error: Cannot find module 'index'`,
    );
    const history = routeFunctionId('history');
    const withoutAsset = faultyCopy(({ asset }) => rmSync(asset(history), { recursive: true }));
    await expect(start(withoutAsset)).rejects.toThrow(new RegExp(`function ${history} \\(route history\\): its asset`));
  });

  it('refuses to start when a bundle needs a module it does not contain, even one beside the assembly', async () => {
    const id = routeFunctionId('currencies');
    const dir = faultyCopy(({ asset }) => {
      const file = join(asset(id), 'index.js');
      writeFileSync(file, `require('zod');\n${readFileSync(file, 'utf8')}`);
    });
    // Node would find this one from the asset's folder; Lambda has nothing but the asset.
    mkdirSync(join(dir, 'node_modules', 'zod'), { recursive: true });
    writeFileSync(join(dir, 'node_modules', 'zod', 'index.js'), 'module.exports = {};\n');
    await expect(start(dir)).rejects.toThrow(
      `function ${id} (route currencies): Runtime.ImportModuleError: Error: Cannot find module 'zod'`,
    );
  });

  it('refuses to start when an environment value cannot be resolved, naming the variable', async () => {
    const id = routeFunctionId('sources');
    const dir = faultyCopy(({ service }) => {
      variablesOf(service, id).UPSTREAM_URL = { 'Fn::GetAtt': ['NoSuchResource', 'Url'] };
    });
    await expect(start(dir)).rejects.toThrow(
      `function ${id} (route sources): environment variable UPSTREAM_URL cannot be resolved locally`,
    );
  });

  it("reads the ingestion's settings as its function does, and refuses one it would refuse, naming both", async () => {
    const id = ingestFunctionId();
    const configured = faultyCopy(({ service }) => {
      Object.assign(variablesOf(service, id), {
        [SOURCES_ENV]: 'cnb,ecb',
        [INGEST_ENV.crossCheckTolerance]: '0.02',
        [INGEST_ENV.crossCheckExempt]: 'VND',
      });
      // A rule that invokes another function, one not told SOURCES, is not the ingestion's.
      service.Resources.WarmLatest = {
        Type: 'AWS::Events::Rule',
        Properties: { Targets: [{ Id: 'latest', Arn: { 'Fn::GetAtt': [routeFunctionId('latest'), 'Arn'] } }] },
      };
    });
    expect(describeCdkOutApi(readCloudAssembly(configured)).ingestSettings).toEqual({
      sources: ['cnb', 'ecb'],
      crossCheckTolerance: 0.02,
      crossCheckExempt: ['VND'],
    });
    const refused = faultyCopy(({ service }) => {
      variablesOf(service, id)[SOURCES_ENV] = 'ecb,ecbb';
    });
    const rule = `some of ${SOURCE_IDS.join(', ')}, separated by commas`;
    await expect(start(refused)).rejects.toThrow(
      `function ${id} (ingestion): SOURCES must be ${rule}, not 'ecb,ecbb'.`,
    );
    const unresolved = faultyCopy(({ service }) => {
      variablesOf(service, id)[INGEST_ENV.crossCheckTolerance] = { Ref: 'Tolerance' };
    });
    expect(() => describeCdkOutApi(readCloudAssembly(unresolved))).toThrow(
      `function ${id} (ingestion): CROSS_CHECK_TOLERANCE is {"Ref":"Tolerance"}, not a value known before deployment`,
    );
  });

  it("serves the data stack's key schema, so code that expects another one fails", async () => {
    const accountsId = logicalIdOf(s.fx.data.data.accounts);
    const dir = faultyCopy(({ data }) => {
      const props = propsOf(data.Resources[accountsId]);
      props.KeySchema = [{ AttributeName: 'id', KeyType: 'HASH' }];
      (props.AttributeDefinitions as Json[]).push({ AttributeName: 'id', AttributeType: 'S' });
      props.AttributeDefinitions = (props.AttributeDefinitions as Json[]).filter((a) => a.AttributeName !== 'pk');
    });
    const errors: unknown[] = [];
    const server = await start(dir, errors);
    try {
      const r = await get(server, 'rates/latest', { [API_KEY_HEADER]: unknownKey() });
      // A Lambda authorizer that fails is API Gateway's AUTHORIZER_CONFIGURATION_ERROR.
      expect({ status: r.status, code: r.json().error?.code }).toEqual({ status: 500, code: 'internal-error' });
      expect(String(errors[0])).toMatch(/\(authorizer\): ValidationException: .*key/);
    } finally {
      await server.close();
    }
  });

  it('answers 502 as API Gateway does when a function times out, throws or answers malformed', async () => {
    const [latest, pair, history] = [routeFunctionId('latest'), routeFunctionId('pair'), routeFunctionId('history')];
    const dir = faultyCopy(({ service, asset }) => {
      writeFileSync(join(asset(latest), 'index.js'), 'exports.handler = () => new Promise(() => {});\n');
      propsOf(service.Resources[latest]).Timeout = 1;
      writeFileSync(join(asset(pair), 'index.js'), "exports.handler = async () => { throw new Error('boom'); };\n");
      writeFileSync(join(asset(history), 'index.js'), "exports.handler = async () => ({ body: 'no status' });\n");
    });
    const errors: unknown[] = [];
    const server = await start(dir, errors);
    try {
      // The authorizer runs first: it admits an account of the copy's own tables.
      const valid = await admittedKey(server, 'cdk-out-faults');

      const started = Date.now();
      const replies = [await get(server, 'rates/latest', valid)];
      const elapsed = Date.now() - started;
      replies.push(await get(server, 'rates/pair/EUR/USD', valid));
      replies.push(await get(server, 'rates/history/EUR/USD/1999-01-04', valid));
      expect(replies.map((r) => ({ status: r.status, code: r.json().error?.code }))).toEqual(
        Array(3).fill({ status: 502, code: 'internal-error' }),
      );
      expect(elapsed).toBeGreaterThanOrEqual(1000);
      expect(elapsed).toBeLessThan(5000);
      expect(errors.map((e) => (e as Error).message)).toEqual([
        `function ${latest} (route latest): Sandbox.Timedout: Task timed out after 1.00 seconds`,
        `function ${pair} (route pair): Error: boom`,
        `function ${history} (route history): malformed Lambda proxy response: statusCode undefined`,
      ]);
      // The timed-out environment was ended; the next request starts a new one, which times out in turn.
      expect((await get(server, 'rates/latest', valid)).status).toBe(502);
      expect(errors).toHaveLength(4);
    } finally {
      await server.close();
    }
  });

  it("gives each invocation its own trace header and Lambda's X-Ray variables, the template's first", async () => {
    const [latest, pair] = [routeFunctionId('latest'), routeFunctionId('pair')];
    const echo =
      'exports.handler = async () => ({ statusCode: 200, body: JSON.stringify({ ' +
      'trace: process.env._X_AMZN_TRACE_ID, missing: process.env.AWS_XRAY_CONTEXT_MISSING, ' +
      'daemon: process.env.AWS_XRAY_DAEMON_ADDRESS }) });\n';
    const dir = faultyCopy(({ service, asset }) => {
      for (const id of [latest, pair]) writeFileSync(join(asset(id), 'index.js'), echo);
      variablesOf(service, pair).AWS_XRAY_DAEMON_ADDRESS = '127.0.0.1:2999';
    });
    const server = await start(dir);
    try {
      const valid = await admittedKey(server, 'cdk-out-traces');
      const bodies: Json[] = [];
      for (const path of ['rates/latest', 'rates/latest', 'rates/pair/EUR/USD']) {
        const r = await get(server, path, valid);
        expect(r.status).toBe(200);
        bodies.push(JSON.parse(r.text) as Json);
      }
      const unsampled = /^Root=1-[0-9a-f]{8}-[0-9a-f]{24};Parent=[0-9a-f]{16};Sampled=0$/;
      expect(bodies.map((b) => b.trace)).toEqual(Array(3).fill(expect.stringMatching(unsampled)));
      expect(new Set(bodies.map((b) => b.trace)).size).toBe(3);
      const lambdaDefaults = {
        missing: LAMBDA_XRAY_VARIABLES.AWS_XRAY_CONTEXT_MISSING,
        daemon: LAMBDA_XRAY_VARIABLES.AWS_XRAY_DAEMON_ADDRESS,
      };
      expect(bodies.map(({ missing, daemon }) => ({ missing, daemon }))).toEqual([
        lambdaDefaults,
        lambdaDefaults,
        { ...lambdaDefaults, daemon: '127.0.0.1:2999' },
      ]);
    } finally {
      await server.close();
    }
  });

  it('answers 500 as API Gateway does when the authorizer times out', async () => {
    const id = authorizerFunctionId();
    const dir = faultyCopy(({ service, asset }) => {
      writeFileSync(join(asset(id), 'index.js'), 'exports.handler = () => new Promise(() => {});\n');
      propsOf(service.Resources[id]).Timeout = 1;
    });
    const errors: unknown[] = [];
    const server = await start(dir, errors);
    try {
      const r = await get(server, 'rates/latest', { [API_KEY_HEADER]: unknownKey() });
      expect({ status: r.status, code: r.json().error?.code }).toEqual({ status: 500, code: 'internal-error' });
      expect(String(errors[0])).toContain(`${id} (authorizer): Sandbox.Timedout`);
    } finally {
      await server.close();
    }
  });
});
