/**
 * The customers' account dashboard on AWS, asserted on the synthesized templates: the user pool and the page's
 * client (data stack), the dashboard API with its Cognito authorizer, the functions' grants, and the distribution
 * that serves the page, its config and the API from one origin. Templates only, so function bundling is skipped.
 */
import { Stack } from 'aws-cdk-lib';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import { NagRuleCompliance, rules } from 'cdk-nag';
import { buildSync } from 'esbuild';
import { REFERENCE_PAGE_CSP } from '../../api-docs/site';
import {
  DASHBOARD_BASE_PATH,
  DASHBOARD_ROUTES,
  type DashboardRouteDefinition,
} from '../../lambdas/core/http/dashboard-routes';
import { DASHBOARD_GATEWAY_RESPONSES } from '../../lambdas/core/http/gateway-responses';
import { ACCOUNTS_KEY_PREFIXES, ACCOUNTS_TABLE, RATES_TABLE } from '../../lambdas/core/store/tables';
import { dashboardModule, esbuildOptions } from '../../lib/bundling';
import { cognitoEndpoint, PAGE_CONFIG_FILE, pageCsp } from '../../lib/dashboard-site';
import type { FxratesFunction } from '../../lib/fxrates-function';
import { buildDashboardFiles, dashboardCsp } from '../../web/build';
import { PASSWORD_POLICY } from '../../web/src/password-policy';
import * as synth from './synth';

let s: synth.Synthesized;

beforeAll(() => {
  s = synth.synthesize(synth.SKIP_BUNDLING);
}, 120_000);

afterAll(() => s?.dispose());

type Props = Record<string, unknown>;

const users = () => s.fx.data.users;
const site = () => s.fx.service.dashboardSite;
const dashboardApi = () => s.fx.service.dashboardApi;

function resource(template: 'data' | 'service', type: string, logicalId: string): Props {
  return synth.propsOf(synth.resourcesOf(s[template], type)[logicalId]);
}

function distributionConfig(): Props {
  return resource('service', 'AWS::CloudFront::Distribution', synth.logicalIdOf(site().distribution))
    .DistributionConfig as Props;
}

function behaviour(pathPattern: string): Props {
  const found = (distributionConfig().CacheBehaviors as Props[]).find((b) => b.PathPattern === pathPattern);
  if (!found) throw new Error(`no behaviour ${pathPattern}`);
  return found;
}

function originOf(behaviourProps: Props): Props {
  const found = (distributionConfig().Origins as Props[]).find((o) => o.Id === behaviourProps.TargetOriginId);
  if (!found) throw new Error(`no origin ${String(behaviourProps.TargetOriginId)}`);
  return found;
}

/** The security headers of a response headers policy, the CSP rendered with `<Ref:...>` markers. */
function securityHeadersOf(policy: cloudfront.ResponseHeadersPolicy): Props & { csp: string } {
  const config = resource('service', 'AWS::CloudFront::ResponseHeadersPolicy', synth.logicalIdOf(policy))
    .ResponseHeadersPolicyConfig as { SecurityHeadersConfig: Props & { ContentSecurityPolicy: Props } };
  const headers = config.SecurityHeadersConfig;
  return { ...headers, csp: synth.renderJoin(headers.ContentSecurityPolicy.ContentSecurityPolicy) };
}

/** The value an `Fn::ImportValue` names, through the data stack's exports. */
function exported(value: unknown): unknown {
  const name = (value as { 'Fn::ImportValue'?: string })['Fn::ImportValue'];
  if (name === undefined) return undefined;
  const outputs = s.data.toJSON().Outputs as Record<string, { Value: unknown; Export?: { Name: string } }>;
  return Object.values(outputs).find((o) => o.Export?.Name === name)?.Value;
}

function files(): Map<string, synth.DeployedFile> {
  return synth.deployedFiles(s, synth.logicalIdOf(site().deployment.node.findChild('CustomResource')));
}

describe('user pool', () => {
  it('lives in the data stack, is retained, and signs people in by e-mail address', () => {
    const pool = synth.resourcesOf(s.data, 'AWS::Cognito::UserPool')[synth.logicalIdOf(users().userPool)];
    expect(pool).toMatchObject({ DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
    expect(synth.propsOf(pool)).toMatchObject({
      UsernameAttributes: ['email'],
      UsernameConfiguration: { CaseSensitive: false },
      AutoVerifiedAttributes: ['email'],
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: false },
      VerificationMessageTemplate: { DefaultEmailOption: 'CONFIRM_WITH_CODE' },
      UserAttributeUpdateSettings: { AttributesRequireVerificationBeforeUpdate: ['email'] },
      AccountRecoverySetting: { RecoveryMechanisms: [{ Name: 'verified_email', Priority: 1 }] },
    });
    s.service.resourceCountIs('AWS::Cognito::UserPool', 0);
  });

  it('asks for 12 characters with lower case, upper case and a digit, the policy the page and emulator apply', () => {
    const props = resource('data', 'AWS::Cognito::UserPool', synth.logicalIdOf(users().userPool));
    const expected = {
      MinimumLength: 12,
      RequireLowercase: true,
      RequireUppercase: true,
      RequireNumbers: true,
      RequireSymbols: false,
    };
    expect((props.Policies as Props).PasswordPolicy).toMatchObject(expected);
    expect(PASSWORD_POLICY).toEqual({
      minLength: expected.MinimumLength,
      requireLowercase: expected.RequireLowercase,
      requireUppercase: expected.RequireUppercase,
      requireDigits: expected.RequireNumbers,
      requireSymbols: expected.RequireSymbols,
    });
  });
});

describe('page client', () => {
  const client = () => resource('data', 'AWS::Cognito::UserPoolClient', synth.logicalIdOf(users().client));

  it('has no secret, signs in with USER_PASSWORD_AUTH only, and hides which addresses exist', () => {
    const props = client();
    expect(props).toMatchObject({
      GenerateSecret: false,
      PreventUserExistenceErrors: 'ENABLED',
      EnableTokenRevocation: true,
      UserPoolId: { Ref: synth.logicalIdOf(users().userPool) },
    });
    expect((props.ExplicitAuthFlows as string[]).sort()).toEqual([
      'ALLOW_REFRESH_TOKEN_AUTH',
      'ALLOW_USER_PASSWORD_AUTH',
    ]);
  });

  it('offers no OAuth flow or redirect', () => {
    const props = client();
    expect(props.AllowedOAuthFlowsUserPoolClient).toBe(false);
    expect(props.AllowedOAuthFlows).toBeUndefined();
    expect(props.CallbackURLs).toBeUndefined();
  });

  it('issues ID and access tokens for an hour and refresh tokens for 30 days', () => {
    expect(client()).toMatchObject({
      IdTokenValidity: 60,
      AccessTokenValidity: 60,
      RefreshTokenValidity: 30 * 24 * 60,
      TokenValidityUnits: { IdToken: 'minutes', AccessToken: 'minutes', RefreshToken: 'minutes' },
    });
  });
});

describe('dashboard API', () => {
  const apiId = () => synth.logicalIdOf(dashboardApi().restApi);
  const ofDashboardApi = (type: string) =>
    Object.values(synth.resourcesOf(s.service, type))
      .map(synth.propsOf)
      .filter((p) => (p.RestApiId as { Ref?: string }).Ref === apiId());

  it('checks the ID token in the Authorization header with a Cognito authorizer on the data stack’s pool', () => {
    const authorizer = resource('service', 'AWS::ApiGateway::Authorizer', synth.logicalIdOf(dashboardApi().authorizer));
    expect(authorizer).toMatchObject({
      Type: 'COGNITO_USER_POOLS',
      IdentitySource: 'method.request.header.Authorization',
      RestApiId: { Ref: apiId() },
    });
    const [provider] = authorizer.ProviderARNs as unknown[];
    expect(exported(provider)).toEqual({ 'Fn::GetAtt': [synth.logicalIdOf(users().userPool), 'Arn'] });
  });

  it('has one method per dashboard route, each behind the Cognito authorizer and calling its own function', () => {
    const resources = synth.resourcesOf(s.service, 'AWS::ApiGateway::Resource');
    const pathOf = (id: string): string => {
      const props = synth.propsOf(resources[id]);
      const parent = (props.ParentId as { Ref?: string }).Ref;
      return `${parent === undefined ? '' : pathOf(parent)}/${props.PathPart as string}`;
    };
    const methods = ofDashboardApi('AWS::ApiGateway::Method');
    expect(
      methods.map((m) => `${m.HttpMethod as string} ${pathOf((m.ResourceId as { Ref: string }).Ref)}`).sort(),
    ).toEqual(DASHBOARD_ROUTES.map((r) => `${r.method} ${r.path}`).sort());
    for (const method of methods) {
      expect(method).toMatchObject({
        AuthorizationType: 'COGNITO_USER_POOLS',
        AuthorizerId: { Ref: synth.logicalIdOf(dashboardApi().authorizer) },
        Integration: { Type: 'AWS_PROXY' },
      });
    }
    for (const route of DASHBOARD_ROUTES) {
      const fn = dashboardApi().routeFunctions.get(route.id);
      if (!fn) throw new Error(`no function for ${route.id}`);
      const method = methods.find(
        (m) => m.HttpMethod === route.method && pathOf((m.ResourceId as { Ref: string }).Ref) === route.path,
      );
      // Through the alias live that CodeDeploy moves, never the unpublished function.
      expect(JSON.stringify(method?.Integration)).toContain(
        JSON.stringify({ Ref: synth.logicalIdOf(fn.release?.alias ?? fn) }),
      );
      expect(JSON.stringify(method?.Integration)).not.toContain(`"${synth.logicalIdOf(fn.function)}"`);
    }
  });

  it('answers a refused token 401 unauthenticated, and renders every dashboard gateway response', () => {
    const responses = ofDashboardApi('AWS::ApiGateway::GatewayResponse');
    expect(responses.map((r) => r.ResponseType).sort()).toEqual(DASHBOARD_GATEWAY_RESPONSES.map((r) => r.type).sort());
    for (const type of ['UNAUTHORIZED', 'ACCESS_DENIED']) {
      const response = responses.find((r) => r.ResponseType === type);
      if (!response) throw new Error(`no ${type} gateway response`);
      expect(response.StatusCode).toBe('401');
      const template = (response.ResponseTemplates as Record<string, string>)['application/json'] ?? '{}';
      expect(JSON.parse(template)).toMatchObject({ success: false, error: { code: 'unauthenticated' } });
    }
  });

  it(`serves the stage ${DASHBOARD_BASE_PATH.slice(1)}, untraced by default, throttled, with access logs that hold no token`, () => {
    const stage = resource(
      'service',
      'AWS::ApiGateway::Stage',
      synth.logicalIdOf(dashboardApi().restApi.deploymentStage),
    );
    expect(stage).toMatchObject({
      StageName: 'api',
      TracingEnabled: false,
      MethodSettings: [
        expect.objectContaining({
          CachingEnabled: false,
          ThrottlingRateLimit: s.fx.config.throttleRate,
          ThrottlingBurstLimit: s.fx.config.throttleBurst,
        }),
      ],
    });
    const setting = stage.AccessLogSetting as { Format: string; DestinationArn: unknown };
    expect(JSON.parse(setting.Format)).toMatchObject({ requestId: '$context.requestId', sub: expect.any(String) });
    expect(setting.Format).not.toMatch(/authorization|header/i);
    expect(JSON.stringify(setting.DestinationArn)).toContain(synth.logicalIdOf(dashboardApi().accessLogs));
  });

  it('sits behind the service’s web ACL', () => {
    const webAcl = s.fx.service.api.webAcl;
    if (!webAcl) throw new Error('the default context has no web ACL');
    const stageId = synth.logicalIdOf(dashboardApi().restApi.deploymentStage);
    const associations = Object.values(synth.resourcesOf(s.service, 'AWS::WAFv2::WebACLAssociation'))
      .map(synth.propsOf)
      .filter((a) => synth.renderJoin(a.ResourceArn).endsWith(`/restapis/<Ref:${apiId()}>/stages/<Ref:${stageId}>`));
    expect(associations).toHaveLength(1);
    expect(associations[0]?.WebACLArn).toEqual({ 'Fn::GetAtt': [synth.logicalIdOf(webAcl.acl), 'Arn'] });
  });
});

describe('dashboard functions', () => {
  const statementsOf = (fn: FxratesFunction) => synth.policyStatementsOf(s.service, fn.role);

  /** `accounts`, `rates`, or `accounts/index/NAME`, from an imported table ARN or one joined with an index path. */
  function target(resource: unknown): string {
    const join = (resource as { 'Fn::Join'?: [string, unknown[]] })['Fn::Join'];
    if (join?.[0] === '' && join[1].length === 2 && typeof join[1][1] === 'string') {
      return `${target(join[1][0])}${join[1][1]}`;
    }
    const arn = exported(resource) as { 'Fn::GetAtt'?: [string, string] } | undefined;
    const table = arn?.['Fn::GetAtt']?.[0];
    if (table === synth.logicalIdOf(s.fx.data.data.accounts)) return 'accounts';
    if (table === synth.logicalIdOf(s.fx.data.data.rates)) return 'rates';
    return JSON.stringify(resource);
  }

  /** The statement's LeadingKeys patterns, sorted; the condition must be that one key and nothing else. */
  function leadingKeysOf(condition: Record<string, unknown> | undefined): string {
    if (condition === undefined) return '';
    const patterns = (condition as { 'ForAllValues:StringLike'?: { 'dynamodb:LeadingKeys'?: string[] } })[
      'ForAllValues:StringLike'
    ]?.['dynamodb:LeadingKeys'];
    expect(condition).toEqual({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': patterns } });
    return ` ${[...(patterns ?? [])].sort().join(',')}`;
  }

  /** `<target> <action>`, followed by the LeadingKeys patterns of a conditioned statement. */
  function dynamoGrants(fn: FxratesFunction): string[] {
    return statementsOf(fn)
      .filter((st) => st.Action.some((a) => a.startsWith('dynamodb:')))
      .flatMap((st) => {
        expect(st.Effect).toBe('Allow');
        const keys = leadingKeysOf(st.Condition);
        return st.Resource.flatMap((r) => st.Action.map((a) => `${target(r)} ${a}${keys}`));
      })
      .sort();
  }

  const routeFunction = (route: DashboardRouteDefinition): FxratesFunction => {
    const fn = dashboardApi().routeFunctions.get(route.id);
    if (!fn) throw new Error(`no function for ${route.id}`);
    return fn;
  };

  it.each(DASHBOARD_ROUTES.map((r) => [r.id, r] as const))(
    'lets %s use exactly its registry actions on the accounts table, each on its item prefixes only, Query on its indexes, and nothing on rates',
    (_id, route) => {
      const expected = [
        ...Object.entries(route.accountsTable).map(
          ([action, kinds]) =>
            `accounts dynamodb:${action} ${kinds
              .map((kind) => `${ACCOUNTS_KEY_PREFIXES[kind]}*`)
              .sort()
              .join(',')}`,
        ),
        ...route.accountsIndexes.map((index) => `accounts/index/${index} dynamodb:Query`),
      ].sort();
      const granted = dynamoGrants(routeFunction(route));
      expect(granted).toEqual(expected);
      expect(granted.filter((grant) => grant.startsWith('rates'))).toEqual([]);
    },
  );

  it('lists at least one index among the routes, so the index grants are exercised', () => {
    expect(DASHBOARD_ROUTES.some((r) => r.accountsIndexes.length > 0)).toBe(true);
    expect(DASHBOARD_ROUTES.some((r) => r.accountsIndexes.length === 0)).toBe(true);
  });

  it.each(DASHBOARD_ROUTES.map((r) => [r.id, r] as const))(
    'tells %s the accounts table and nothing about rates or a contact by default',
    (_id, route) => {
      const fn = synth.resourcesOf(s.service, 'AWS::Lambda::Function')[
        synth.logicalIdOf(routeFunction(route).function)
      ];
      const variables = (synth.propsOf(fn).Environment as { Variables: Record<string, unknown> }).Variables;
      expect(variables[ACCOUNTS_TABLE.envVar]).toBeDefined();
      expect(Object.keys(variables)).not.toContain(RATES_TABLE.envVar);
      expect(Object.keys(variables)).not.toContain('UPGRADE_CONTACT');
    },
  );

  it.each(DASHBOARD_ROUTES.map((r) => r.id))('bundles into the %s function its own module and no other', (id) => {
    const result = buildSync({ ...esbuildOptions(id, '/bundle/index.js'), write: false });
    const output = Object.values(result.metafile?.outputs ?? {}).find((o) => o.entryPoint !== undefined);
    const modules = Object.entries(output?.inputs ?? {})
      .filter(
        ([path, input]) => input.bytesInOutput > 0 && DASHBOARD_ROUTES.some((r) => path === dashboardModule(r.id)),
      )
      .map(([path]) => path);
    expect(modules).toEqual([dashboardModule(id)]);
  });
});

describe('distribution', () => {
  it('reads the page files from the private bucket through origin access control', () => {
    const origin = originOf(distributionConfig().DefaultCacheBehavior as Props);
    const oacId = Object.keys(synth.resourcesOf(s.service, 'AWS::CloudFront::OriginAccessControl'));
    expect(oacId).toHaveLength(1);
    expect(origin).toMatchObject({
      DomainName: { 'Fn::GetAtt': [synth.logicalIdOf(site().bucket), 'RegionalDomainName'] },
      OriginAccessControlId: { 'Fn::GetAtt': [oacId[0], 'Id'] },
      S3OriginConfig: { OriginAccessIdentity: '' },
    });
    expect(resource('service', 'AWS::CloudFront::OriginAccessControl', oacId[0] ?? '')).toMatchObject({
      OriginAccessControlConfig: { OriginAccessControlOriginType: 's3', SigningBehavior: 'always' },
    });
  });

  it('lets only this distribution read the bucket, over TLS only', () => {
    const bucketId = synth.logicalIdOf(site().bucket);
    const policy = Object.values(synth.resourcesOf(s.service, 'AWS::S3::BucketPolicy'))
      .map(synth.propsOf)
      .find((p) => (p.Bucket as { Ref?: string }).Ref === bucketId);
    if (!policy) throw new Error('the site bucket has no policy');
    const statements = (policy.PolicyDocument as { Statement: Props[] }).Statement;
    const allows = statements.filter((st) => st.Effect === 'Allow');
    expect(allows).toHaveLength(1);
    expect(allows[0]).toMatchObject({
      Principal: { Service: 'cloudfront.amazonaws.com' },
      Action: 's3:GetObject',
    });
    const condition = allows[0]?.Condition as { StringEquals: Record<string, unknown> } | undefined;
    const sourceArn = synth.renderJoin(condition?.StringEquals['AWS:SourceArn']);
    expect(sourceArn).toBe(
      `arn:<Ref:AWS::Partition>:cloudfront::<Ref:AWS::AccountId>:distribution/<Ref:${synth.logicalIdOf(site().distribution)}>`,
    );
    expect(statements).toContainEqual(
      expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
    );
    expect(resource('service', 'AWS::S3::Bucket', bucketId)).toMatchObject({
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
      BucketEncryption: {
        ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
      },
      LoggingConfiguration: { DestinationBucketName: { Ref: synth.logicalIdOf(site().logBucket) } },
    });
  });

  it('redirects plain HTTP to HTTPS for the page and serves index.html at the root', () => {
    const config = distributionConfig();
    expect(config.DefaultRootObject).toBe('index.html');
    expect((config.DefaultCacheBehavior as Props).ViewerProtocolPolicy).toBe('redirect-to-https');
    expect(behaviour('/docs*').ViewerProtocolPolicy).toBe('redirect-to-https');
    expect(behaviour(`${DASHBOARD_BASE_PATH}/*`).ViewerProtocolPolicy).toBe('https-only');
  });

  it('sends the page with a strict CSP that lets it call Cognito, and the security headers', () => {
    expect((distributionConfig().DefaultCacheBehavior as Props).ResponseHeadersPolicyId).toEqual({
      Ref: synth.logicalIdOf(site().pageHeaders),
    });
    const headers = securityHeadersOf(site().pageHeaders);
    const directives = new Map(
      headers.csp.split(';').map((d) => {
        const [name = '', ...values] = d.trim().split(/\s+/);
        return [name, values] as const;
      }),
    );
    expect(directives.get('default-src')).toEqual(["'none'"]);
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('connect-src')).toEqual(["'self'", 'https://cognito-idp.<Ref:AWS::Region>.amazonaws.com']);
    expect(headers.csp).not.toMatch(/unsafe-inline|unsafe-eval/);
    expect(headers).toMatchObject({
      ContentSecurityPolicy: { Override: true },
      StrictTransportSecurity: { AccessControlMaxAgeSec: expect.any(Number), Override: true },
      ContentTypeOptions: { Override: true },
      FrameOptions: { FrameOption: 'DENY', Override: true },
      ReferrerPolicy: { ReferrerPolicy: 'no-referrer', Override: true },
    });
    expect(
      (headers.StrictTransportSecurity as { AccessControlMaxAgeSec: number }).AccessControlMaxAgeSec,
    ).toBeGreaterThanOrEqual(180 * 24 * 3600);
  });

  it('builds the page CSP with the page’s own rule and the region’s Cognito origin', () => {
    expect(pageCsp('eu-west-1')).toBe(dashboardCsp(cognitoEndpoint('eu-west-1')));
    expect(pageCsp('eu-west-1')).toContain('https://cognito-idp.eu-west-1.amazonaws.com');
  });

  it(`forwards ${DASHBOARD_BASE_PATH}/* to the dashboard API's stage uncached, with every method and the viewer's headers`, () => {
    const api = behaviour(`${DASHBOARD_BASE_PATH}/*`);
    expect(api).toMatchObject({
      CachePolicyId: cloudfront.CachePolicy.CACHING_DISABLED.cachePolicyId,
      // With caching disabled, this managed policy is how the Authorization header reaches the origin.
      OriginRequestPolicyId: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER.originRequestPolicyId,
    });
    expect((api.AllowedMethods as string[]).sort()).toEqual(
      ['DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT'].sort(),
    );
    const origin = originOf(api);
    // No origin path: `/api/keys` reaches the API as stage `api`, resource `/keys`.
    expect(origin.OriginPath ?? '').toBe('');
    expect(JSON.stringify(origin.DomainName)).toContain(`"Ref":"${synth.logicalIdOf(dashboardApi().restApi)}"`);
    expect(origin.CustomOriginConfig).toMatchObject({
      OriginProtocolPolicy: 'https-only',
      OriginSSLProtocols: ['TLSv1.2'],
    });
  });

  it('serves /docs/ with the reference page’s own CSP and the index rewrite', () => {
    const docs = behaviour('/docs*');
    expect(docs.ResponseHeadersPolicyId).toEqual({ Ref: synth.logicalIdOf(site().docsHeaders) });
    expect(securityHeadersOf(site().docsHeaders).csp).toBe(REFERENCE_PAGE_CSP);
    expect(originOf(docs).DomainName).toEqual({
      'Fn::GetAtt': [synth.logicalIdOf(site().bucket), 'RegionalDomainName'],
    });
    const [association] = docs.FunctionAssociations as Props[];
    expect(association?.EventType).toBe('viewer-request');
    const [fnId] = Object.keys(synth.resourcesOf(s.service, 'AWS::CloudFront::Function'));
    expect(association?.FunctionARN).toEqual({ 'Fn::GetAtt': [fnId, 'FunctionARN'] });
  });

  it('compresses the page, its assets and the reference for viewers that accept gzip or brotli, and not the API', () => {
    // CloudFront compresses when the behaviour says Compress and its cache policy keys on the normalized
    // Accept-Encoding, which the managed CachingOptimized policy does; CachingDisabled does not, so the dashboard
    // API's answers reach the viewer as API Gateway sends them.
    for (const files of [distributionConfig().DefaultCacheBehavior as Props, behaviour('/docs*')]) {
      expect(files).toMatchObject({
        Compress: true,
        CachePolicyId: cloudfront.CachePolicy.CACHING_OPTIMIZED.cachePolicyId,
      });
    }
    expect(behaviour(`${DASHBOARD_BASE_PATH}/*`).CachePolicyId).toBe(
      cloudfront.CachePolicy.CACHING_DISABLED.cachePolicyId,
    );
    // Neither REST API compresses (no minimumCompressionSize), so the local server compresses no API answer either.
    const apis = Object.values(synth.resourcesOf(s.service, 'AWS::ApiGateway::RestApi'));
    expect(apis.length).toBeGreaterThanOrEqual(2);
    for (const api of apis) expect(synth.propsOf(api).MinimumCompressionSize).toBeUndefined();
  });

  it('logs requests to the log bucket, and meets the CloudFront and S3 rules it is not exempted from', () => {
    expect(distributionConfig().Logging).toMatchObject({
      Bucket: { 'Fn::GetAtt': [synth.logicalIdOf(site().logBucket), 'RegionalDomainName'] },
    });
    const distribution = site().distribution.node.defaultChild as cloudfront.CfnDistribution;
    expect(rules.cloudfront.CloudFrontDistributionAccessLogging(distribution)).toBe(NagRuleCompliance.COMPLIANT);
    expect(rules.cloudfront.CloudFrontDistributionS3OriginAccessControl(distribution)).toBe(
      NagRuleCompliance.COMPLIANT,
    );
    expect(rules.cloudfront.CloudFrontDistributionNoOutdatedSSL(distribution)).toBe(NagRuleCompliance.COMPLIANT);
    for (const bucket of [site().bucket, site().logBucket]) {
      const cfn = bucket.node.defaultChild as Parameters<typeof rules.s3.S3BucketLoggingEnabled>[0];
      expect(rules.s3.S3BucketLoggingEnabled(cfn)).toBe(NagRuleCompliance.COMPLIANT);
      expect(rules.s3.S3BucketLevelPublicAccessProhibited(cfn)).toBe(NagRuleCompliance.COMPLIANT);
    }
  });
});

describe('deployed files', () => {
  it('uploads the page, the reference site and config.json, and nothing else', () => {
    expect([...files().keys()].sort()).toEqual(
      [...Object.keys(buildDashboardFiles()), 'openapi.json', 'docs/index.html', PAGE_CONFIG_FILE].sort(),
    );
    expect(files().get('index.html')?.content).toBe(buildDashboardFiles()['index.html']);
  });

  it('tells the page where Cognito, the pool, the client and both APIs are', () => {
    const file = files().get(PAGE_CONFIG_FILE);
    if (!file) throw new Error('no config.json');
    // Deploy-time values stay markers in the staged file; each marker names what CloudFormation puts there.
    const resolved = file.content.replace(/<<marker:0xbaba:\d+>>/g, (marker) => {
      const value = file.markers[marker];
      const imported = exported(value);
      return synth.renderJoin(imported ?? value);
    });
    const config = JSON.parse(resolved) as Record<string, unknown>;
    expect(config).toEqual({
      cognito: {
        endpoint: 'https://cognito-idp.<Ref:AWS::Region>.amazonaws.com/',
        region: '<Ref:AWS::Region>',
        userPoolId: `<Ref:${synth.logicalIdOf(users().userPool)}>`,
        clientId: `<Ref:${synth.logicalIdOf(users().client)}>`,
      },
      apiBase: '/api',
      apiUrl: expect.stringMatching(
        new RegExp(`^https://<Ref:${synth.logicalIdOf(s.fx.service.api.restApi)}>\\.execute-api\\..*/<Ref:.*>/$`),
      ),
      contact: null,
    });
  });

  it('lets browsers and CloudFront revalidate every file, so a deploy is live without an invalidation', () => {
    const props = resource(
      'service',
      'Custom::CDKBucketDeployment',
      synth.logicalIdOf(site().deployment.node.findChild('CustomResource')),
    );
    expect(props).toMatchObject({
      DestinationBucketName: { Ref: synth.logicalIdOf(site().bucket) },
      Prune: true,
      SystemMetadata: { 'cache-control': 'no-cache' },
    });
  });
});

describe('outputs', () => {
  it('gives the dashboard URL on the service stack and the pool and client ids on the data stack', () => {
    const service = s.service.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(synth.renderJoin(service.DashboardUrl?.Value)).toBe(
      `https://<${synth.logicalIdOf(site().distribution)}.DomainName>/`,
    );
    const data = s.data.toJSON().Outputs as Record<string, { Value: unknown }>;
    expect(data.UserPoolId?.Value).toEqual({ Ref: synth.logicalIdOf(users().userPool) });
    expect(data.UserPoolClientId?.Value).toEqual({ Ref: synth.logicalIdOf(users().client) });
    expect(Stack.of(users().userPool)).toBe(s.fx.data);
  });
});
