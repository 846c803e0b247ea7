/**
 * The deployed shape of the service, asserted on the synthesized templates of the real app (bundling included,
 * exactly as `npm run synth` does it). One synthesis serves every block below.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Stack, Validations } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { AwsSolutionsChecks } from 'cdk-nag';
import { type BuildResult, buildSync } from 'esbuild';
import { CENTRAL_BANK_IDS } from '../../lambdas/core/domain/publishers';
import { SOURCE_IDS, SOURCES_ENV } from '../../lambdas/core/domain/rates';
import { DASHBOARD_ROUTES } from '../../lambdas/core/http/dashboard-routes';
import { GATEWAY_RESPONSES, gatewayResponseHeaders } from '../../lambdas/core/http/gateway-responses';
import { API_BASE_PATH, ERROR_CACHE_CONTROL, ROUTES } from '../../lambdas/core/http/routes';
import { ACCOUNTS_TABLE, RATES_TABLE, SERIES_META_KEY, SOURCES_KEY, TABLES } from '../../lambdas/core/store/tables';
import { TRACING_ENV } from '../../lambdas/core/tracing';
import {
  BUNDLE_OPTIONS,
  esbuildOptions,
  FUNCTION_NAMES,
  type FunctionName,
  functionEntry,
  isDashboardRoute,
} from '../../lib/bundling';
import { FUNCTION_DEFAULTS, type FxratesFunction } from '../../lib/fxrates-function';
import * as synth from './synth';

let s: synth.Synthesized;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

beforeAll(() => {
  s = synth.synthesize();
}, 240_000);

afterAll(() => s?.dispose());

/** Every function of the service, by its name. */
function functionsByName(): Map<FunctionName, FxratesFunction> {
  const { api, dashboardApi, ingestion } = s.fx.service;
  const map = new Map<FunctionName, FxratesFunction>([
    ['authorizer', api.authorizerFunction],
    ['ingest', ingestion.function],
  ]);
  for (const route of ROUTES) {
    const fn = api.routeFunctions.get(route.id);
    if (fn) map.set(route.id, fn);
  }
  for (const route of DASHBOARD_ROUTES) {
    const fn = dashboardApi.routeFunctions.get(route.id);
    if (fn) map.set(route.id, fn);
  }
  return map;
}

/** The resources of a type that belong to the public REST API (the dashboard's has its own). */
function publicApiResources(type: string): synth.Resources {
  const apiId = synth.logicalIdOf(s.fx.service.api.restApi);
  return Object.fromEntries(
    Object.entries(synth.resourcesOf(s.service, type)).filter(
      ([, r]) => (r.Properties?.RestApiId as { Ref?: string } | undefined)?.Ref === apiId,
    ),
  );
}

function fnLogicalId(fn: FxratesFunction): string {
  return synth.logicalIdOf(fn.function);
}

/** How a template refers to the alias `live` of a released function (its Ref is the alias ARN). */
function aliasRef(fn: FxratesFunction): string {
  if (!fn.release) throw new Error(`${fn.node.path} is not released through an alias`);
  return JSON.stringify({ Ref: synth.logicalIdOf(fn.release.alias) });
}

/** Store modules and the table each one works on (lambdas/core/store). */
const STORE_TABLES: Record<string, 'rates' | 'accounts'> = {
  'rates-store.ts': 'rates',
  'rates-read-store.ts': 'rates',
  'accounts-store.ts': 'accounts',
  'usage-store.ts': 'accounts',
};

const bundles = new Map<FunctionName, BuildResult<{ write: false; metafile: true }>>();

/**
 * A function's bundle as the shared esbuild options produce it, in memory. Several tests read the same bundle
 * (its modules, its tables, its bytes against the deployed asset); esbuild is deterministic, so it is built once.
 */
function bundleOf(name: FunctionName): BuildResult<{ write: false; metafile: true }> {
  let result = bundles.get(name);
  if (!result) {
    result = buildSync({ ...esbuildOptions(name, '/bundle/index.js'), write: false, metafile: true });
    bundles.set(name, result);
  }
  return result;
}

/** The tables a function's bundle works on: those of the store modules esbuild kept in it. */
function tablesBundledBy(dir: FunctionName): ('rates' | 'accounts')[] {
  const result = bundleOf(dir);
  const output = Object.values(result.metafile?.outputs ?? {}).find((o) => o.entryPoint !== undefined);
  const tables = Object.entries(output?.inputs ?? {})
    .filter(([, input]) => input.bytesInOutput > 0)
    .flatMap(([path]) => {
      const table = STORE_TABLES[path.split('/').pop() ?? ''];
      return path.includes('lambdas/core/store/') && table ? [table] : [];
    });
  return [...new Set(tables)].sort();
}

/** The folder of the synthesized code asset of a function, relative to the cloud assembly. */
function assetPathOf(fn: FxratesFunction): string {
  const code = fnProps(fn).Code as { S3Key: string };
  const hash = code.S3Key.replace(/\.zip$/, '');
  const manifest = JSON.parse(
    readFileSync(join(s.assembly.directory, `${s.fx.service.artifactId}.assets.json`), 'utf8'),
  ) as { files: Record<string, { source: { path: string } }> };
  const path = manifest.files[hash]?.source.path;
  if (path === undefined) throw new Error(`no asset ${hash} for ${fn.node.path}`);
  return path;
}

function fnProps(fn: FxratesFunction): Record<string, unknown> {
  const resource = synth.resourcesOf(s.service, 'AWS::Lambda::Function')[fnLogicalId(fn)];
  if (!resource?.Properties) throw new Error(`no function resource for ${fn.node.path}`);
  return resource.Properties;
}

describe('cdk-nag AwsSolutions', () => {
  it('finds nothing unacknowledged in the synthesized app', () => {
    const report = new AwsSolutionsChecks().validateScope(s.app);
    const findings = report.violations.map(
      (v) => `${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`,
    );
    expect(findings).toEqual([]);
    expect(report.success).toBe(true);
  });

  it('reports a construct that breaks a rule, so a new finding cannot pass unnoticed', () => {
    synth.withScratchApp(undefined, (app) => {
      const stack = new Stack(app, 'Probe');
      new dynamodb.Table(stack, 'NoRecovery', { partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING } });
      const report = new AwsSolutionsChecks().validateScope(app);
      expect(report.violations.map((v) => v.ruleName)).toContain('AwsSolutions-DDB3');
    });
  });

  it('acknowledges only the reviewed rules, each with a reason', () => {
    const acknowledged = new Map<string, string[]>();
    for (const construct of s.app.node.findAll()) {
      for (const entry of construct.node.metadata) {
        if (entry.type !== Validations.ACKNOWLEDGED_RULES_METADATA_KEY) continue;
        for (const [id, reason] of Object.entries(entry.data as Record<string, string>)) {
          const rule = id.replace(/^annotation::/i, '');
          acknowledged.set(rule, [...(acknowledged.get(rule) ?? []), reason]);
        }
      }
    }
    const siteBucket = synth.logicalIdOf(s.fx.service.dashboardSite.bucket);
    // The public API's methods (API keys, not Cognito) and every function's pinned runtime (plus BucketDeployment's
    // copy function); the user pool's password, MFA and feature plan; the distribution's country, web ACL and
    // certificate; the AWS managed policies of the CodeDeploy role and the account-level API Gateway logging role.
    // Tracing is off by default, so no function role has X-Ray's wildcard resource (context-flags.test.ts).
    const once = [
      'AwsSolutions-COG1',
      'AwsSolutions-COG2',
      'AwsSolutions-COG8',
      'AwsSolutions-CFR1',
      'AwsSolutions-CFR2',
      'AwsSolutions-CFR4',
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSCodeDeployRoleForLambdaLimited]',
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]',
      'AwsSolutions-IAM5[Action::s3:Abort*]',
      'AwsSolutions-IAM5[Action::s3:DeleteObject*]',
      'AwsSolutions-IAM5[Action::s3:GetBucket*]',
      'AwsSolutions-IAM5[Action::s3:GetObject*]',
      'AwsSolutions-IAM5[Action::s3:List*]',
      `AwsSolutions-IAM5[Resource::<${siteBucket}.Arn>/*]`,
      'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-<AWS::AccountId>-<AWS::Region>/*]',
    ];
    expect([...acknowledged.keys()].sort()).toEqual(['AwsSolutions-COG4', 'AwsSolutions-L1', ...once].sort());
    expect(acknowledged.get('AwsSolutions-COG4')).toHaveLength(ROUTES.length);
    expect(acknowledged.get('AwsSolutions-L1')).toHaveLength(FUNCTION_NAMES.length + 1);
    for (const id of once) expect([id, acknowledged.get(id)?.length]).toEqual([id, 1]);
    for (const reason of [...acknowledged.values()].flat()) expect(reason.length).toBeGreaterThan(40);
  });
});

describe('authorizer', () => {
  it('is a REQUEST authorizer on the X-API-Key header with result caching off', () => {
    const authorizers = Object.values(publicApiResources('AWS::ApiGateway::Authorizer'));
    expect(authorizers).toHaveLength(1);
    expect(authorizers[0]?.Properties).toMatchObject({
      Type: 'REQUEST',
      IdentitySource: 'method.request.header.X-API-Key',
      AuthorizerResultTtlInSeconds: 0,
    });
  });

  it('invokes the authorizer function through its alias live, never the unpublished function', () => {
    const [authorizer] = Object.values(publicApiResources('AWS::ApiGateway::Authorizer'));
    const uri = JSON.stringify(authorizer?.Properties?.AuthorizerUri);
    expect(uri).toContain(aliasRef(s.fx.service.api.authorizerFunction));
    expect(uri).not.toContain(`"${fnLogicalId(s.fx.service.api.authorizerFunction)}"`);
  });
});

describe('routes and gateway responses (parity with the tables the local gateway renders)', () => {
  /** Full resource path (below the stage) of every API Gateway resource, by logical id. */
  function resourcePaths(): Map<string, string> {
    const resources = synth.resourcesOf(s.service, 'AWS::ApiGateway::Resource');
    const paths = new Map<string, string>();
    const pathOf = (id: string): string => {
      const known = paths.get(id);
      if (known !== undefined) return known;
      const props = resources[id]?.Properties as { ParentId: { Ref?: string }; PathPart: string };
      const parent = props.ParentId.Ref === undefined ? '' : pathOf(props.ParentId.Ref);
      const path = `${parent}/${props.PathPart}`;
      paths.set(id, path);
      return path;
    };
    for (const id of Object.keys(resources)) pathOf(id);
    return paths;
  }

  it('has exactly one method per route and no other', () => {
    const methods = Object.values(publicApiResources('AWS::ApiGateway::Method'));
    expect(methods).toHaveLength(ROUTES.length);
    expect(new Set(methods.map((m) => m.Properties?.HttpMethod))).toEqual(new Set(ROUTES.map((r) => r.method)));
  });

  it.each(ROUTES.map((r) => [r.id, r] as const))(
    'routes %s to its own function through the authorizer',
    (_id, route) => {
      const fn = s.fx.service.api.routeFunctions.get(route.id);
      if (!fn) throw new Error(`no function for route ${route.id}`);
      expect(fn.entry).toBe(functionEntry(route.id));

      const resourceId = [...resourcePaths()].find(([, path]) => path === route.path)?.[0];
      expect(resourceId).toBeDefined();
      const authorizerId = synth.logicalIdOf(s.fx.service.api.authorizer);
      const method = Object.values(publicApiResources('AWS::ApiGateway::Method')).find(
        (m) => (synth.propsOf(m).ResourceId as { Ref?: string }).Ref === resourceId,
      );
      expect(method?.Properties).toMatchObject({
        HttpMethod: route.method,
        AuthorizationType: 'CUSTOM',
        AuthorizerId: { Ref: authorizerId },
        Integration: { Type: 'AWS_PROXY', IntegrationHttpMethod: 'POST' },
      });
      expect(JSON.stringify(method?.Properties?.Integration)).toContain(aliasRef(fn));
      expect(JSON.stringify(method?.Properties?.Integration)).not.toContain(`"${fnLogicalId(fn)}"`);
      const declared = Object.keys((method?.Properties?.RequestParameters as Record<string, boolean>) ?? {});
      const expected = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => `method.request.path.${m[1]}`);
      expect(declared.sort()).toEqual(expected.sort());
    },
  );

  it('serves every route under the v1 stage, without a stage cache that could override the route cache policy', () => {
    s.service.hasResourceProperties('AWS::ApiGateway::Stage', {
      StageName: API_BASE_PATH.slice(1),
      MethodSettings: [Match.objectLike({ HttpMethod: '*', ResourcePath: '/*', CachingEnabled: false })],
    });
    const [stage] = Object.values(publicApiResources('AWS::ApiGateway::Stage'));
    expect(stage?.Properties?.StageName).toBe(API_BASE_PATH.slice(1));
    expect(stage?.Properties?.CacheClusterEnabled).not.toBe(true);
  });

  it('defines exactly the gateway responses of the table', () => {
    const types = Object.values(publicApiResources('AWS::ApiGateway::GatewayResponse')).map(
      (r) => r.Properties?.ResponseType,
    );
    expect(types.sort()).toEqual(GATEWAY_RESPONSES.map((r) => r.type).sort());
  });

  it.each(GATEWAY_RESPONSES.map((r) => [r.type, r] as const))(
    'renders %s with the status, template and headers of the table',
    (type, row) => {
      const headers = Object.fromEntries(
        Object.entries(gatewayResponseHeaders(row)).map(([name, value]) => [`gatewayresponse.header.${name}`, value]),
      );
      s.service.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
        RestApiId: { Ref: synth.logicalIdOf(s.fx.service.api.restApi) },
        ResponseType: type,
        StatusCode: row.status === undefined ? Match.absent() : String(row.status),
        ResponseTemplates: { 'application/json': row.template },
        ResponseParameters: headers,
      });
    },
  );

  it('gives every gateway response the request id, JSON and no-store', () => {
    for (const response of Object.values(synth.resourcesOf(s.service, 'AWS::ApiGateway::GatewayResponse'))) {
      expect(response.Properties?.ResponseParameters).toMatchObject({
        'gatewayresponse.header.X-Request-Id': 'context.requestId',
        'gatewayresponse.header.Cache-Control': `'${ERROR_CACHE_CONTROL}'`,
        'gatewayresponse.header.Content-Type': expect.stringMatching(/^'application\/json/),
      });
      const template = (synth.propsOf(response).ResponseTemplates as Record<string, string>)['application/json'] ?? '';
      // Every template is the contract's envelope once API Gateway substitutes its variables.
      const rendered = JSON.parse(template.replace(/\$context\.[A-Za-z0-9_.]+/g, 'x')) as Record<string, unknown>;
      expect(rendered).toMatchObject({ success: false, error: { code: expect.any(String) } });
    }
  });

  it('maps the authorizer deny to 401 with the code and message from the authorizer context', () => {
    s.service.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'ACCESS_DENIED',
      StatusCode: '401',
      ResponseTemplates: {
        'application/json': Match.stringLikeRegexp(
          '\\$context\\.authorizer\\.errorCode.*\\$context\\.authorizer\\.errorMessage',
        ),
      },
    });
    s.service.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'UNAUTHORIZED',
      StatusCode: '401',
      ResponseTemplates: { 'application/json': Match.stringLikeRegexp('"missing-api-key"') },
    });
    s.service.hasResourceProperties('AWS::ApiGateway::GatewayResponse', {
      ResponseType: 'MISSING_AUTHENTICATION_TOKEN',
      StatusCode: '404',
      ResponseTemplates: { 'application/json': Match.stringLikeRegexp('"not-found"') },
    });
  });
});

describe('stage', () => {
  it('writes one JSON access log line per request, without the API key', () => {
    const [stage] = Object.values(publicApiResources('AWS::ApiGateway::Stage'));
    const setting = stage?.Properties?.AccessLogSetting as { Format: string; DestinationArn: unknown };
    const format = JSON.parse(setting.Format) as Record<string, string>;
    expect(format).toMatchObject({ requestId: '$context.requestId', status: '$context.status' });
    expect(setting.Format).not.toMatch(/api-?key/i);
    expect(JSON.stringify(setting.DestinationArn)).toContain(synth.logicalIdOf(s.fx.service.api.accessLogs));
  });

  it('logs execution errors, does not trace by default, and throttles the stage', () => {
    s.service.hasResourceProperties('AWS::ApiGateway::Stage', {
      TracingEnabled: false,
      MethodSettings: [
        Match.objectLike({
          LoggingLevel: 'ERROR',
          DataTraceEnabled: false,
          ThrottlingRateLimit: s.fx.config.throttleRate,
          ThrottlingBurstLimit: s.fx.config.throttleBurst,
        }),
      ],
    });
  });

  it('validates requests', () => {
    s.service.hasResourceProperties('AWS::ApiGateway::RequestValidator', { ValidateRequestParameters: true });
    for (const method of Object.values(synth.resourcesOf(s.service, 'AWS::ApiGateway::Method'))) {
      expect(method.Properties?.RequestValidatorId).toEqual({ Ref: expect.any(String) });
    }
  });

  it('sets the account-level logging role by default, so a fresh account can create the logged stages', () => {
    s.service.resourceCountIs('AWS::ApiGateway::Account', 1);
    const [account] = Object.values(synth.resourcesOf(s.service, 'AWS::ApiGateway::Account'));
    expect(account).toMatchObject({ DeletionPolicy: 'Retain' });
    const roleId = (synth.propsOf(account).CloudWatchRoleArn as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0] ?? '';
    expect(synth.resourcesOf(s.service, 'AWS::IAM::Role')[roleId]).toMatchObject({ DeletionPolicy: 'Retain' });
    // Both logged stages wait for it.
    for (const api of [s.fx.service.api, s.fx.service.dashboardApi]) {
      const stage = synth.resourcesOf(s.service, 'AWS::ApiGateway::Stage')[
        synth.logicalIdOf(api.restApi.deploymentStage)
      ];
      expect(JSON.stringify(stage?.DependsOn ?? [])).toContain(
        Object.keys(synth.resourcesOf(s.service, 'AWS::ApiGateway::Account'))[0],
      );
    }
  });

  it('puts a WAF web ACL with a per-IP rate rule and the AWS common rule set on the stage', () => {
    s.service.hasResourceProperties('AWS::WAFv2::WebACL', {
      Scope: 'REGIONAL',
      DefaultAction: { Allow: {} },
      Rules: Match.arrayWith([
        Match.objectLike({
          Action: { Block: {} },
          Statement: {
            RateBasedStatement: { AggregateKeyType: 'IP', Limit: s.fx.config.wafRateLimit },
          },
        }),
        Match.objectLike({
          Statement: { ManagedRuleGroupStatement: { VendorName: 'AWS', Name: 'AWSManagedRulesCommonRuleSet' } },
        }),
      ]),
    });
    const apiId = synth.logicalIdOf(s.fx.service.api.restApi);
    const stageId = synth.logicalIdOf(s.fx.service.api.restApi.deploymentStage);
    const webAcl = s.fx.service.api.webAcl;
    if (!webAcl) throw new Error('the default context has no web ACL');
    const association = synth.resourcesOf(s.service, 'AWS::WAFv2::WebACLAssociation')[
      synth.logicalIdOf(webAcl.association)
    ];
    expect(synth.renderJoin(synth.propsOf(association).ResourceArn)).toMatch(
      new RegExp(`:apigateway:<Ref:AWS::Region>::/restapis/<Ref:${apiId}>/stages/<Ref:${stageId}>$`),
    );
  });
});

describe('functions', () => {
  it('deploys one function per route of both registries, plus the authorizer and ingestion', () => {
    const byName = functionsByName();
    expect([...byName.keys()].sort()).toEqual(
      [...ROUTES.map((r) => r.id), ...DASHBOARD_ROUTES.map((r) => r.id), 'authorizer', 'ingest'].sort(),
    );
    for (const [name, fn] of byName) expect(fn.entry).toBe(functionEntry(name));
  });

  it('has no other function than those and the copy function of the dashboard files deployment', () => {
    const ours = new Set([...functionsByName().values()].map(fnLogicalId));
    const deploymentRole = synth.logicalIdOf(s.fx.service.dashboardSite.deployment.handlerRole);
    const others = Object.entries(synth.resourcesOf(s.service, 'AWS::Lambda::Function')).filter(
      ([id]) => !ours.has(id),
    );
    expect(ours.size).toBe(FUNCTION_NAMES.length);
    expect(others.map(([, fn]) => (synth.propsOf(fn).Role as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0])).toEqual([
      deploymentRole,
    ]);
  });

  it.each(ROUTES.map((r) => r.id))('bundles into the %s function its own endpoint module and no other', (id) => {
    const result = bundleOf(id);
    const output = Object.values(result.metafile?.outputs ?? {}).find((o) => o.entryPoint !== undefined);
    const endpoints = Object.entries(output?.inputs ?? {})
      .filter(([path, input]) => input.bytesInOutput > 0 && path.startsWith('lambdas/core/endpoints/'))
      .map(([path]) => path.replace('lambdas/core/endpoints/', ''));
    const routeModules = endpoints.filter((file) => ROUTES.some((r) => file === `${r.id}.ts`));
    expect(routeModules).toEqual([`${id}.ts`]);
  });

  it("bundles the sources' names, schedules and facts into the sources function alone", () => {
    // latest computes next_update_at from the calendar beside them; the texts would be bytes and work at its load.
    const holding = FUNCTION_NAMES.filter((name) => {
      const output = Object.values(bundleOf(name).metafile?.outputs ?? {}).find((o) => o.entryPoint !== undefined);
      return (output?.inputs['lambdas/core/domain/source-facts.ts']?.bytesInOutput ?? 0) > 0;
    });
    expect(holding).toEqual(['sources']);
  });

  it('bundles the gateway responses into no function', () => {
    // API Gateway renders them (the stack deploys them, the local gateway renders them); building the table at a
    // function's load would be bytes and work for nothing. The authorizer needs only the Deny's context keys.
    const holding = FUNCTION_NAMES.filter((name) => {
      const output = Object.values(bundleOf(name).metafile?.outputs ?? {}).find((o) => o.entryPoint !== undefined);
      return (output?.inputs['lambdas/core/http/gateway-responses.ts']?.bytesInOutput ?? 0) > 0;
    });
    expect(holding).toEqual([]);
  });

  it.each([...FUNCTION_NAMES])(
    "leaves Node's web streams out of %s's load: only @middy/core imports them, through the lazy module",
    (name) => {
      const result = bundleOf(name);
      // The alias hands the stand-in to every importer, and it serves only `instanceof`; another importer would break.
      const importers = Object.entries(result.metafile.inputs)
        .filter(([, input]) => input.imports.some((record) => record.original === 'node:stream/web'))
        .map(([path, input]) => [path, input.imports.find((record) => record.original === 'node:stream/web')?.path]);
      const middy = Object.keys(result.metafile.inputs).includes('node_modules/@middy/core/index.js');
      expect(importers).toEqual(
        middy ? [['node_modules/@middy/core/index.js', 'lambdas/core/middy-web-streams.ts']] : [],
      );
      const code = result.outputFiles.find((file) => file.path.endsWith('index.js'))?.text ?? '';
      expect(code).not.toMatch(/require\("(node:)?stream\/web"\)/);
    },
  );

  it('pins nodejs22.x and compiles the bundles for that Node.js version', () => {
    expect(FUNCTION_DEFAULTS.runtime.name).toBe('nodejs22.x');
    expect(FUNCTION_DEFAULTS.runtime.name).not.toBe(lambda.Runtime.NODEJS_LATEST.name);
    expect(FUNCTION_DEFAULTS.runtime.name).toBe(`nodejs${BUNDLE_OPTIONS.target.replace(/^node/, '')}.x`);
  });

  it.each([...FUNCTION_NAMES])(
    'runs %s on the pinned Node.js runtime, ARM64, untraced by default, with its own log group',
    (dir) => {
      const fn = functionsByName().get(dir);
      if (!fn) throw new Error(`no function ${dir}`);
      const props = fnProps(fn);
      expect(props).toMatchObject({
        Runtime: 'nodejs22.x',
        Architectures: ['arm64'],
        Handler: 'index.handler',
        LoggingConfig: { LogGroup: { Ref: synth.logicalIdOf(fn.logGroup) } },
        Environment: {
          Variables: expect.objectContaining({
            POWERTOOLS_SERVICE_NAME: 'fxrates',
            POWERTOOLS_METRICS_NAMESPACE: 'fxrates',
            NODE_OPTIONS: '--enable-source-maps',
            [TRACING_ENV]: 'false',
          }),
        },
      });
      expect(props.TracingConfig).toBeUndefined();
      expect(props.MemorySize).toBeGreaterThanOrEqual(512);
      const logGroup = synth.resourcesOf(s.service, 'AWS::Logs::LogGroup')[synth.logicalIdOf(fn.logGroup)];
      expect(logGroup?.Properties?.RetentionInDays).toBe(30);
    },
  );

  it('tells each function only the table names it uses', () => {
    const envOf = (fn: FxratesFunction) =>
      Object.keys((fnProps(fn).Environment as { Variables: Record<string, unknown> }).Variables)
        .filter((name) => name.endsWith('_TABLE_NAME'))
        .sort();
    for (const [dir, fn] of functionsByName()) {
      const expected = tablesBundledBy(dir).map((table) => (table === 'rates' ? RATES_TABLE : ACCOUNTS_TABLE).envVar);
      expect([dir, envOf(fn)]).toEqual([dir, expected.sort()]);
    }
  });

  it('tells the sources function, and no other endpoint, which sources ingestion is configured with', () => {
    const variablesOf = (fn: FxratesFunction) =>
      (fnProps(fn).Environment as { Variables: Record<string, unknown> }).Variables;
    const told = [...functionsByName()].filter(([, fn]) => variablesOf(fn)[SOURCES_ENV] !== undefined);
    expect(told.map(([dir]) => dir).sort()).toEqual(['ingest', 'sources']);
    for (const [, fn] of told) expect(variablesOf(fn)[SOURCES_ENV]).toBe(SOURCE_IDS.join(','));
    // The bundles do not depend on the sources (the variable carries them), so this synthesis skips bundling.
    const ecbOnly = synth.synthesize({ ...synth.SKIP_BUNDLING, sources: 'ecb' });
    try {
      const sourcesFn = ecbOnly.fx.service.api.routeFunctions.get('sources');
      if (!sourcesFn) throw new Error('no sources function');
      const resource = synth.resourcesOf(ecbOnly.service, 'AWS::Lambda::Function')[
        synth.logicalIdOf(sourcesFn.function)
      ];
      expect(synth.propsOf(resource).Environment).toMatchObject({ Variables: { [SOURCES_ENV]: 'ecb' } });
    } finally {
      ecbOnly.dispose();
    }
  });

  it.each([...FUNCTION_NAMES])(
    'deploys for %s exactly the bundle the shared esbuild options produce (the benchmark measures the same)',
    (dir) => {
      const fn = functionsByName().get(dir);
      if (!fn) throw new Error(`no function ${dir}`);
      const assetDir = join(s.assembly.directory, assetPathOf(fn));
      const deployed = readFileSync(join(assetDir, 'index.js'), 'utf8');
      const built = bundleOf(dir).outputFiles?.find((f) => f.path.endsWith('index.js'))?.text;
      // Digests, not texts: a mismatch of two half-megabyte bundles would bury the failure message.
      expect({ bytes: deployed.length, sha256: sha256(deployed) }).toEqual({
        bytes: built?.length,
        sha256: sha256(built ?? ''),
      });
      // The AWS SDK is inside the bundle, not loaded from the runtime; only the SDK's own optional CRT signer,
      // which it tries inside a try/catch, stays an unresolved require.
      const sdkRequires = [...deployed.matchAll(/require\("(@aws-sdk\/[^"]+)"\)/g)].map((m) => m[1]);
      expect(sdkRequires.filter((name) => name !== '@aws-sdk/signature-v4-crt')).toEqual([]);
      expect(readFileSync(join(assetDir, 'index.js.map'), 'utf8').length).toBeGreaterThan(0);
      // Untraced, nothing is installed beside the bundle: no package.json, and no copy of the project's lock file.
      expect(readdirSync(assetDir).sort()).toEqual(['index.js', 'index.js.map']);
    },
  );
});

describe('tables', () => {
  it.each(TABLES.map((t) => [t.id, t] as const))(
    'keeps %s on demand, recoverable, protected from deletion, and retained',
    (_id, def) => {
      const table = def.id === RATES_TABLE.id ? s.fx.data.data.rates : s.fx.data.data.accounts;
      const resource = synth.resourcesOf(s.data, 'AWS::DynamoDB::Table')[synth.logicalIdOf(table)];
      expect(resource).toMatchObject({ DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
      expect(resource?.Properties).toMatchObject({
        BillingMode: 'PAY_PER_REQUEST',
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        DeletionProtectionEnabled: true,
        KeySchema: [{ AttributeName: def.partitionKey, KeyType: 'HASH' }],
      });
      const ttl = resource?.Properties?.TimeToLiveSpecification;
      if (def.ttlAttribute === undefined) expect(ttl).toBeUndefined();
      else expect(ttl).toEqual({ AttributeName: def.ttlAttribute, Enabled: true });
      const indexes = (resource?.Properties?.GlobalSecondaryIndexes as Record<string, unknown>[] | undefined) ?? [];
      expect(indexes.map((i) => [i.IndexName, i.KeySchema, i.Projection])).toEqual(
        def.indexes.map((i) => [
          i.name,
          [{ AttributeName: i.partitionKey, KeyType: 'HASH' }],
          { ProjectionType: 'ALL' },
        ]),
      );
    },
  );

  it('expires usage items through TTL on the accounts table only', () => {
    s.data.resourceCountIs('AWS::DynamoDB::Table', 2);
    const withTtl = Object.values(synth.resourcesOf(s.data, 'AWS::DynamoDB::Table')).filter(
      (t) => t.Properties?.TimeToLiveSpecification !== undefined,
    );
    expect(withTtl).toHaveLength(1);
  });
});

describe('IAM (checked on the synthesized policies)', () => {
  const WRITES = ['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems'].map(
    (a) => `dynamodb:${a}`,
  );

  const statementsOf = (fn: FxratesFunction) => synth.policyStatementsOf(s.service, fn.role);

  /**
   * Which table an imported ARN names, resolved through the data stack's exports; an index ARN (the table's
   * ARN joined with `/index/NAME`) reads `accounts/index/NAME`.
   */
  function tableOf(resource: unknown): string | undefined {
    const join = (resource as { 'Fn::Join'?: [string, unknown[]] })['Fn::Join'];
    if (join && join[0] === '' && join[1].length === 2 && typeof join[1][1] === 'string') {
      const table = tableOf(join[1][0]);
      return table === undefined ? undefined : `${table}${join[1][1]}`;
    }
    const importName = (resource as { 'Fn::ImportValue'?: string })['Fn::ImportValue'];
    if (importName === undefined) return undefined;
    const outputs = s.data.toJSON().Outputs as Record<string, { Value: unknown; Export?: { Name: string } }>;
    const output = Object.values(outputs).find((o) => o.Export?.Name === importName);
    const getAtt = (output?.Value as { 'Fn::GetAtt'?: [string, string] } | undefined)?.['Fn::GetAtt'];
    if (getAtt?.[1] !== 'Arn') return undefined;
    if (getAtt[0] === synth.logicalIdOf(s.fx.data.data.rates)) return 'rates';
    if (getAtt[0] === synth.logicalIdOf(s.fx.data.data.accounts)) return 'accounts';
    return undefined;
  }

  /** DynamoDB actions granted per table, as `table:Action` strings. */
  function dynamoGrants(fn: FxratesFunction): string[] {
    return statementsOf(fn)
      .filter((st) => st.Effect === 'Allow' && st.Action.some((a) => a.startsWith('dynamodb:')))
      .flatMap((st) => st.Resource.flatMap((r) => st.Action.map((a) => `${tableOf(r) ?? JSON.stringify(r)}:${a}`)))
      .sort();
  }

  it('grants each function exactly the tables whose store modules its bundle contains', () => {
    for (const [dir, fn] of functionsByName()) {
      const granted = [...new Set(dynamoGrants(fn).map((grant) => grant.split(/[:/]/)[0]))].sort();
      expect([dir, granted]).toEqual([dir, tablesBundledBy(dir)]);
    }
  });

  it.each(ROUTES.map((r) => r.id))('lets the %s endpoint at most read rates, and never write', (routeId) => {
    const fn = s.fx.service.api.routeFunctions.get(routeId);
    if (!fn) throw new Error(`no function for ${routeId}`);
    const route = ROUTES.find((r) => r.id === routeId);
    const expected = (route?.ratesTable ?? ['missing']).map((action) => `rates:dynamodb:${action}`);
    expect(dynamoGrants(fn)).toEqual(expected.sort());
    const actions = statementsOf(fn).flatMap((st) => st.Action);
    for (const write of WRITES) expect(actions).not.toContain(write);
  });

  it('lets the authorizer read accounts and write usage, and keeps it away from rates', () => {
    const fn = s.fx.service.api.authorizerFunction;
    expect(dynamoGrants(fn)).toEqual(['accounts:dynamodb:GetItem', 'accounts:dynamodb:UpdateItem']);
    const resources = statementsOf(fn).flatMap((st) => st.Resource);
    expect(resources.map(tableOf)).not.toContain('rates');
  });

  it('lets ingestion read and write rates, and keeps it away from accounts', () => {
    const fn = s.fx.service.ingestion.function;
    expect(dynamoGrants(fn)).toEqual(
      expect.arrayContaining(
        ['BatchGetItem', 'BatchWriteItem', 'GetItem', 'PutItem', 'UpdateItem'].map((a) => `rates:dynamodb:${a}`),
      ),
    );
    const resources = statementsOf(fn).flatMap((st) => st.Resource);
    expect(resources.map(tableOf)).not.toContain('accounts');
  });

  it("lets ingestion update only the sources' status item (GET /v1/sources) with UpdateItem", () => {
    const statements = statementsOf(s.fx.service.ingestion.function).filter((st) =>
      st.Action.includes('dynamodb:UpdateItem'),
    );
    const sourceStatus = statements.filter((st) =>
      JSON.stringify(st.Condition ?? {}).includes(JSON.stringify([SOURCES_KEY])),
    );
    expect(sourceStatus).toHaveLength(1);
    expect(sourceStatus[0]?.Action).toEqual(['dynamodb:UpdateItem']);
    expect(sourceStatus[0]?.Condition).toEqual({
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [SOURCES_KEY] },
    });
    expect(sourceStatus[0]?.Resource.map(tableOf)).toEqual(['rates']);
  });

  it('lets ingestion update only the time series items and their marker with UpdateItem', () => {
    const series = statementsOf(s.fx.service.ingestion.function).filter((st) =>
      JSON.stringify(st.Condition ?? {}).includes(SERIES_META_KEY),
    );
    expect(series).toHaveLength(1);
    expect(series[0]?.Action).toEqual(['dynamodb:UpdateItem']);
    expect(series[0]?.Condition).toEqual({
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['SERIES#*', SERIES_META_KEY] },
    });
    expect(series[0]?.Resource.map(tableOf)).toEqual(['rates']);
  });

  it('serves the time series through its own function that may only GetItem on rates', () => {
    const fn = s.fx.service.api.routeFunctions.get('timeseries');
    if (!fn) throw new Error('no function for the timeseries route');
    expect(dynamoGrants(fn)).toEqual(['rates:dynamodb:GetItem']);
    const resource = Object.entries(synth.resourcesOf(s.service, 'AWS::ApiGateway::Resource')).filter(
      ([, r]) => r.Properties?.PathPart === 'timeseries',
    );
    expect(resource).toHaveLength(1);
    // A proxy integration hands the function every header (Accept chooses CSV) and the query string unvalidated,
    // so the function answers its own 400s; with no binary media types, the CSV body goes back as text.
    // The integration invokes the function's alias when it is released through one, else the function.
    const target = fn.release ? synth.logicalIdOf(fn.release.alias) : fnLogicalId(fn);
    const methods = Object.values(synth.resourcesOf(s.service, 'AWS::ApiGateway::Method')).filter((m) =>
      JSON.stringify(m.Properties?.Integration ?? {}).includes(`"${target}"`),
    );
    expect(methods.map((m) => (m.Properties?.Integration as { Type?: string } | undefined)?.Type)).toEqual([
      'AWS_PROXY',
    ]);
    expect(Object.keys((methods[0]?.Properties?.RequestParameters as object | undefined) ?? {}).sort()).toEqual([
      'method.request.path.from',
      'method.request.path.to',
    ]);
    for (const api of Object.values(synth.resourcesOf(s.service, 'AWS::ApiGateway::RestApi'))) {
      expect(api.Properties?.BinaryMediaTypes).toBeUndefined();
    }
  });

  it('grants no wildcard action, Query on an index only to the dashboard routes, and a wildcard resource only for X-Ray', () => {
    for (const [name, fn] of functionsByName()) {
      for (const st of statementsOf(fn)) {
        expect(st.Action.filter((a) => a.includes('*'))).toEqual([]);
        if (JSON.stringify(st.Resource).includes('/index/')) {
          expect([name, isDashboardRoute(name), st.Action]).toEqual([name, true, ['dynamodb:Query']]);
        }
        if (st.Resource.includes('*')) {
          expect(st.Action.sort()).toEqual(['xray:PutTelemetryRecords', 'xray:PutTraceSegments']);
        }
      }
    }
  });

  it('attaches no managed policies to function roles', () => {
    for (const fn of functionsByName().values()) {
      const role = synth.resourcesOf(s.service, 'AWS::IAM::Role')[synth.logicalIdOf(fn.role)];
      expect(role?.Properties?.ManagedPolicyArns).toBeUndefined();
    }
  });
});

describe('ingestion', () => {
  it('runs hourly with retries and a dead-letter queue for undeliverable events', () => {
    const fnId = fnLogicalId(s.fx.service.ingestion.function);
    const queueId = synth.logicalIdOf(s.fx.service.ingestion.deadLetterQueue);
    s.service.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(1 hour)',
      State: 'ENABLED',
      Targets: [
        Match.objectLike({
          Arn: { 'Fn::GetAtt': [fnId, 'Arn'] },
          Input: JSON.stringify({ mode: 'scheduled', sources: ['ecb', 'currency-api'] }),
          RetryPolicy: { MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 3600 },
          DeadLetterConfig: { Arn: { 'Fn::GetAtt': [queueId, 'Arn'] } },
        }),
      ],
    });
  });

  it('fetches each central bank once a weekday, after its publication window, and nothing else in that run', () => {
    const fnId = fnLogicalId(s.fx.service.ingestion.function);
    const rules = Object.values(synth.resourcesOf(s.service, 'AWS::Events::Rule'))
      .map(synth.propsOf)
      .filter((p) => String(p.ScheduleExpression).includes('MON-FRI'));
    const bySchedule = Object.fromEntries(
      rules.map((p) => {
        const [target] = p.Targets as { Arn: unknown; Input: string }[];
        expect(target?.Arn).toEqual({ 'Fn::GetAtt': [fnId, 'Arn'] });
        const input = JSON.parse(target?.Input ?? '{}') as { mode: string; sources: string[] };
        expect(input.mode).toBe('scheduled');
        return [p.ScheduleExpression, input.sources];
      }),
    );
    expect(bySchedule).toEqual({
      'cron(15 8 ? * MON-FRI *)': ['rba'],
      'cron(15 12 ? * MON-FRI *)': ['cbr'],
      'cron(15 13 ? * MON-FRI *)': ['nbu'],
      'cron(15 14 ? * MON-FRI *)': ['nbp', 'bnr'],
      'cron(15 15 ? * MON-FRI *)': ['boi', 'tcmb'],
      'cron(15 16 ? * MON-FRI *)': ['cnb'],
      'cron(15 19 ? * MON-FRI *)': ['boe', 'bcb'],
      'cron(15 21 ? * MON-FRI *)': ['imf'],
      'cron(15 23 ? * MON-FRI *)': ['boc'],
    });
    expect(Object.values(bySchedule).flat().sort()).toEqual([...CENTRAL_BANK_IDS].sort());
  });

  it('retries failed runs and then parks the event in the same dead-letter queue', () => {
    const fn = s.fx.service.ingestion.function;
    const queueId = synth.logicalIdOf(s.fx.service.ingestion.deadLetterQueue);
    expect(fnProps(fn).DeadLetterConfig).toEqual({ TargetArn: { 'Fn::GetAtt': [queueId, 'Arn'] } });
    s.service.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      FunctionName: { Ref: fnLogicalId(fn) },
      MaximumRetryAttempts: 2,
      MaximumEventAgeInSeconds: 3600,
    });
    s.service.hasResourceProperties('AWS::SQS::QueuePolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
          Match.objectLike({ Action: 'sqs:SendMessage', Principal: { Service: 'events.amazonaws.com' } }),
        ]),
      },
    });
    s.service.hasResourceProperties('AWS::SQS::Queue', { SqsManagedSseEnabled: true });
  });

  it('gets the time and memory of a history backfill and the configured sources', () => {
    const props = fnProps(s.fx.service.ingestion.function);
    expect(props.Timeout).toBeGreaterThanOrEqual(120);
    expect(props.MemorySize).toBeGreaterThanOrEqual(512);
    expect((props.Environment as { Variables: Record<string, unknown> }).Variables).toMatchObject({
      SOURCES: SOURCE_IDS.join(','),
      [RATES_TABLE.envVar]: expect.anything(),
    });
  });
});

// The operations dashboard, alarms and Contributor Insights rules: test/infra/monitoring.test.ts.

describe('outputs', () => {
  it('names the tables, the user pool and client, the dashboard URL, and the ingestion function', () => {
    expect(Object.keys(s.data.toJSON().Outputs)).toEqual(
      expect.arrayContaining(['RatesTableName', 'AccountsTableName', 'UserPoolId', 'UserPoolClientId']),
    );
    expect(Object.keys(s.service.toJSON().Outputs)).toEqual(
      expect.arrayContaining(['ApiUrl', 'IngestFunctionName', 'DashboardUrl', 'DashboardName', 'AlarmTopicArn']),
    );
  });
});
