/**
 * A new route needs its module and its registry entry, nothing more (the entry in routes.ts, and the module's line
 * in route-modules.ts, which the type checker demands): in a copy of the project, a throwaway route added that way
 * shows up in the OpenAPI document, is answered by the local gateway and gets its method in the synthesized API.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../..');

const MODULE = `import { object, type RouteDocs } from '../../../api-docs/route-docs';
import { successResponse } from '../http/responses';
import { defineEndpoint } from './endpoint';

export const endpoint = defineEndpoint({
  route: 'foo',
  lambdaDeps: () => ({}),
  create: () => async () => successResponse({ foo: 'bar' }),
});

export function docs(): RouteDocs {
  return {
    tag: 'Rates',
    notes: 'A throwaway route.',
    parameters: {},
    errors: [],
    data: { name: 'Foo', schema: object({ foo: { type: 'string' } }, ['foo']) },
    example: { foo: 'bar' },
  };
}
`;

const ENTRY = `  {
    id: 'foo',
    method: 'GET',
    path: '/rates/foo',
    summary: 'A throwaway route',
    countsTowardMonth: true,
    etag: false,
    ratesTable: [],
  },
`;

/** Runs in the copy: what each consumer of the registry makes of it, as JSON on stdout. */
const CHECK = `import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { buildOpenApiDocument } from './api-docs/openapi';
import { buildApp } from './lib/app';
import { startLocalService } from './local-server/service';

const doc = buildOpenApiDocument();
const service = await startLocalService({ port: 0, dashboard: false, demoAccounts: false });
const account = await service.accounts.createAccount({ accountId: 'new-route', plan: 'business', verified: true });
const { key } = await service.accounts.createKey(account.accountId, 'test');
const reply = await fetch(service.url + 'rates/foo', { headers: { 'X-API-Key': key } });
const local = { status: reply.status, body: await reply.json() };
await service.close();

const outdir = mkdtempSync(join(tmpdir(), 'fxrates-new-route-'));
const context = JSON.parse(readFileSync('cdk.json', 'utf8')).context ?? {};
const app = new App({
  outdir,
  builtinCloudFormationValidation: false,
  context: { ...context, alarmNotifications: 'none', 'aws:cdk:bundling-stacks': [] },
});
const fx = buildApp(app);
const template = app.synth().getStackArtifact(fx.service.artifactId).template;
rmSync(outdir, { recursive: true, force: true });
const resources = Object.entries(template.Resources);
const fooResource = resources.find(([, r]) => r.Type === 'AWS::ApiGateway::Resource' && r.Properties.PathPart === 'foo');
const methods = resources.filter(
  ([, r]) => r.Type === 'AWS::ApiGateway::Method' && r.Properties.ResourceId?.Ref === fooResource?.[0],
);
console.log(JSON.stringify({
  operation: doc.paths['/rates/foo']?.get?.operationId ?? null,
  schema: Object.keys(doc.components.schemas).includes('FooResponse'),
  local,
  cdk: methods.map(([, m]) => ({ method: m.Properties.HttpMethod, integration: m.Properties.Integration.Type })),
}));
`;

function insertBefore(file: string, marker: string, text: string): void {
  const source = readFileSync(file, 'utf8');
  if (!source.includes(marker)) throw new Error(`${file} no longer contains ${JSON.stringify(marker)}`);
  writeFileSync(file, source.replace(marker, `${text}${marker}`));
}

describe('a route added as its module and its registry entry', () => {
  let copy: string;
  beforeAll(() => {
    copy = mkdtempSync(join(tmpdir(), 'fxrates-copy-'));
    const files = spawnSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: ROOT, encoding: 'utf8' });
    for (const file of files.stdout.split('\0').filter((f) => f !== '' && f !== 'node_modules')) {
      mkdirSync(dirname(join(copy, file)), { recursive: true });
      try {
        cpSync(join(ROOT, file), join(copy, file));
      } catch {
        // A file deleted from the work tree but still in the index.
      }
    }
    symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'));
    writeFileSync(join(copy, 'lambdas/core/endpoints/foo.ts'), MODULE);
    insertBefore(join(copy, 'lambdas/core/http/routes.ts'), `  | 'timeseries';`, `  | 'foo'\n`);
    insertBefore(join(copy, 'lambdas/core/http/routes.ts'), '];\n\n/** Error responses', ENTRY);
    insertBefore(
      join(copy, 'lambdas/core/endpoints/route-modules.ts'),
      `import * as history`,
      `import * as foo from './foo';\n`,
    );
    insertBefore(join(copy, 'lambdas/core/endpoints/route-modules.ts'), `  timeseries,\n};`, '  foo,\n');
    writeFileSync(join(copy, 'new-route-check.ts'), CHECK);
  });
  afterAll(() => rmSync(copy, { recursive: true, force: true }));

  it('is documented, served locally and given its API method', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'new-route-check.ts'], {
      cwd: copy,
      encoding: 'utf8',
      env: { ...process.env, POWERTOOLS_LOG_LEVEL: 'SILENT' },
      timeout: 120_000,
    });
    const last = run.stdout.trim().split('\n').at(-1) ?? '';
    if (run.status !== 0 || !last.startsWith('{')) throw new Error(`the check failed:\n${run.stderr}\n${run.stdout}`);
    expect(JSON.parse(last)).toEqual({
      operation: 'foo',
      schema: true,
      local: { status: 200, body: { success: true, data: { foo: 'bar' } } },
      cdk: [{ method: 'GET', integration: 'AWS_PROXY' }],
    });
  });
});
