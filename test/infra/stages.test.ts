/**
 * Copies of the service side by side in one account (context `stage`, any region), the dashboard's own domain, and
 * its e-mail through Amazon SES: read through the same schema as `cdk deploy -c ...`, then asserted on real
 * syntheses. Templates only, so asset bundling is skipped.
 */
import { type App, Validations } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { METRIC_NAMESPACE } from '../../lambdas/core/metric-names';
import { buildApp, STACK_IDS } from '../../lib/app';
import { readDeployConfig } from '../../lib/config';
import { DASHBOARD_TLS_POLICY } from '../../lib/dashboard-site';
import { webAclMetricName } from '../../lib/web-acl';
import * as synth from './synth';

type TemplateJson = {
  Resources: Record<string, { Type: string; Properties?: Record<string, unknown> }>;
  Outputs?: Record<string, { Value?: unknown; Export?: { Name?: unknown } }>;
};

interface Deployment {
  stage: string | undefined;
  region: string;
  stackNames: string[];
  templates: TemplateJson[];
}

/** One stage synthesized for one region, as `cdk deploy -c stage=<stage>` with credentials for that region would. */
function deploy(stage: string | undefined, region: string): Deployment {
  const context = {
    ...synth.cdkJsonContext(),
    ...synth.NO_ALARM_TARGET,
    ...synth.SKIP_BUNDLING,
    ...(stage ? { stage } : {}),
  };
  return synth.withScratchApp(context, (app) => {
    const fx = buildApp(app, { env: { region } });
    return {
      stage,
      region,
      stackNames: [fx.data.stackName, fx.service.stackName],
      templates: [fx.data, fx.service].map((stack) => Template.fromStack(stack).toJSON() as TemplateJson),
    };
  });
}

interface PhysicalName {
  /** The resource type, or `Export` / `Namespace` for the names that are not a resource's. */
  kind: string;
  value: string;
}

/**
 * Names that are unique only inside another resource (a stage of its REST API, an alias of its function, an inline
 * policy of its role) or that name something AWS defines (a deployment configuration), and a topic's display label.
 */
const SCOPED_NAMES = new Set([
  'AWS::ApiGateway::Stage.StageName',
  'AWS::ApiGateway::Authorizer.Name',
  'AWS::ApiGateway::RequestValidator.Name',
  'AWS::Lambda::Alias.Name',
  'AWS::IAM::Policy.PolicyName',
  'AWS::CodeDeploy::DeploymentGroup.DeploymentConfigName',
  'AWS::SNS::Topic.DisplayName',
]);

const isNameKey = (key: string) => key === 'Name' || key.endsWith('Name');
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Every name a template gives explicitly (a string, not a reference to something CloudFormation names): a
 * resource's `...Name` properties and those of its `...Config` blocks (CloudFront keeps the name there, WAF its
 * metric name), the export names of cross-stack references, and the custom metric namespaces (the functions'
 * POWERTOOLS_METRICS_NAMESPACE and every namespace an alarm reads outside AWS/).
 */
function physicalNames(template: TemplateJson): PhysicalName[] {
  const names: PhysicalName[] = [];
  const namespaces = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(namespaces);
    if (!isRecord(value)) return;
    for (const [key, inner] of Object.entries(value)) {
      const custom = typeof inner === 'string' && !inner.startsWith('AWS/');
      if (custom && (key === 'Namespace' || key === 'POWERTOOLS_METRICS_NAMESPACE')) {
        names.push({ kind: 'Namespace', value: inner });
      }
      namespaces(inner);
    }
  };
  for (const { Type: type, Properties: props = {} } of Object.values(template.Resources)) {
    for (const [key, value] of Object.entries(props)) {
      if (isNameKey(key) && typeof value === 'string' && !SCOPED_NAMES.has(`${type}.${key}`)) {
        names.push({ kind: type, value });
      }
      if (key.endsWith('Config') && isRecord(value)) {
        for (const [inner, name] of Object.entries(value)) {
          if (isNameKey(inner) && typeof name === 'string') names.push({ kind: type, value: name });
        }
      }
    }
    namespaces(props);
  }
  for (const output of Object.values(template.Outputs ?? {})) {
    const name = output.Export?.Name;
    if (typeof name === 'string') names.push({ kind: 'Export', value: name });
  }
  return names;
}

/** Resource types whose names are unique in the whole account, whatever the region. */
const isAccountGlobal = (kind: string) =>
  kind.startsWith('AWS::CloudFront::') || kind === 'AWS::CloudWatch::Dashboard' || kind.startsWith('AWS::IAM::');

const namesOf = (d: Deployment) => d.templates.flatMap(physicalNames);
const common = (a: PhysicalName[], b: PhysicalName[]) => {
  const values = new Set(b.map((n) => n.value));
  return [...new Set(a.filter((n) => values.has(n.value)).map((n) => `${n.kind}: ${n.value}`))];
};

describe('stages side by side', () => {
  let defaultEu: Deployment;
  let prodEu: Deployment;
  let defaultUs: Deployment;

  beforeAll(() => {
    defaultEu = deploy(undefined, 'eu-west-1');
    prodEu = deploy('prod', 'eu-west-1');
    defaultUs = deploy(undefined, 'us-east-1');
  }, 120_000);

  it('keeps the stack names of the first release for the default stage, so a deployment is updated in place', () => {
    expect(defaultEu.stackNames).toEqual([STACK_IDS.data, STACK_IDS.service]);
    expect(STACK_IDS).toEqual({ data: 'FxratesData', service: 'FxratesService' });
    expect(prodEu.stackNames).toEqual(['FxratesData-prod', 'FxratesService-prod']);
  });

  it('keeps the default stage’s regional names: the REST APIs, the WAF metric and the metric namespace', () => {
    const values = namesOf(defaultEu);
    const of = (kind: string) => values.filter((n) => n.kind === kind).map((n) => n.value);
    expect(of('AWS::ApiGateway::RestApi').sort()).toEqual(['fxrates', 'fxrates-dashboard']);
    expect(of('AWS::WAFv2::WebACL')).toContain('fxrates-web-acl');
    expect(webAclMetricName(undefined)).toBe('fxrates-web-acl');
    expect(new Set(of('Namespace'))).toEqual(new Set([METRIC_NAMESPACE]));
    expect(
      new Set(
        namesOf(prodEu)
          .filter((n) => n.kind === 'Namespace')
          .map((n) => n.value),
      ),
    ).toEqual(new Set([`${METRIC_NAMESPACE}-prod`]));
  });

  it('finds every kind of explicit name, so the comparisons below cannot pass on an empty list', () => {
    const kinds = new Set(namesOf(defaultEu).map((n) => n.kind));
    for (const kind of [
      'AWS::CloudFront::ResponseHeadersPolicy',
      'AWS::CloudFront::OriginAccessControl',
      'AWS::CloudFront::Function',
      'AWS::CloudWatch::Dashboard',
      'AWS::CloudWatch::Alarm',
      'AWS::CloudWatch::InsightRule',
      'AWS::WAFv2::WebACL',
      'AWS::ApiGateway::RestApi',
      'Export',
      'Namespace',
    ]) {
      expect([kind, kinds.has(kind)]).toEqual([kind, true]);
    }
  });

  it('gives two stages in one region no name in common', () => {
    expect(common(namesOf(defaultEu), namesOf(prodEu))).toEqual([]);
  });

  it('gives one stage in two regions no account-global name in common (CloudFront, dashboards)', () => {
    const global = (d: Deployment) => namesOf(d).filter((n) => isAccountGlobal(n.kind));
    expect(global(defaultEu).length).toBeGreaterThanOrEqual(4);
    expect(common(global(defaultEu), global(defaultUs))).toEqual([]);
  });

  it('gives two stages in two regions no name in common at all', () => {
    expect(common(namesOf(prodEu), namesOf(defaultUs))).toEqual([]);
  });
});

describe('the stage setting', () => {
  const read = (context: Record<string, unknown>) =>
    readDeployConfig((key) => ({ ...synth.NO_ALARM_TARGET, ...context })[key]);

  it.each(['prod', 'staging-2', 'a'])('accepts the stage %s', (stage) => {
    expect(read({ stage }).stage).toBe(stage);
  });

  it.each(['Prod', '2nd', 'prod-', 'a-very-long-stage-name', 'pr_od'])('refuses the stage %s and names it', (stage) => {
    expect(() => read({ stage })).toThrow(/Invalid CDK context: stage: must be 1 to 16 lower-case/);
  });
});

const DASHBOARD_DOMAIN = 'dashboard.example.com';
const US_EAST_1_CERTIFICATE = 'arn:aws:acm:us-east-1:123456789012:certificate/0a1b2c3d-4e5f-6a7b-8c9d-0e1f2a3b4c5d';
const SES_ADDRESS_IDENTITY = 'arn:aws:ses:eu-west-1:123456789012:identity/no-reply@example.com';
const SES_DOMAIN_IDENTITY = 'arn:aws:ses:eu-west-1:123456789012:identity/example.com';

describe('reading the dashboard domain and the SES settings', () => {
  const read = (context: Record<string, unknown>) =>
    readDeployConfig((key) => ({ ...synth.NO_ALARM_TARGET, ...context })[key]);

  it('refuses a dashboard certificate outside us-east-1, saying why', () => {
    expect(() =>
      read({
        dashboardDomainName: DASHBOARD_DOMAIN,
        dashboardCertificateArn: US_EAST_1_CERTIFICATE.replace('us-east-1', 'eu-west-1'),
      }),
    ).toThrow(/dashboardCertificateArn: must be a certificate in us-east-1: CloudFront uses ACM certificates/);
  });

  it.each([
    [{ dashboardDomainName: DASHBOARD_DOMAIN }, 'dashboardDomainName/dashboardCertificateArn'],
    [{ dashboardCertificateArn: US_EAST_1_CERTIFICATE }, 'dashboardDomainName/dashboardCertificateArn'],
    [{ sesFromAddress: 'no-reply@example.com' }, 'sesFromAddress/sesIdentityArn'],
    [{ sesIdentityArn: SES_DOMAIN_IDENTITY }, 'sesFromAddress/sesIdentityArn'],
  ])('refuses %j alone', (context, pair) => {
    expect(() => read(context)).toThrow(`Invalid CDK context: ${pair}: set both or neither`);
  });

  it.each([
    ['sesIdentityArn', 'example.com'],
    ['sesIdentityArn', 'arn:aws:ses:eu-west-1:123456789012:configuration-set/x'],
    ['sesFromAddress', 'no-reply'],
    ['dashboardDomainName', 'Dashboard.Example.com'],
  ])('refuses %s=%s and names the flag', (key, value) => {
    expect(() => read({ [key]: value })).toThrow(new RegExp(`Invalid CDK context: ${key}:`));
  });

  it.each([
    ['sales@example.com', SES_ADDRESS_IDENTITY, 'must be the verified address no-reply@example.com'],
    ['no-reply@example.org', SES_DOMAIN_IDENTITY, 'must be an address of the domain example.com'],
    ['no-reply@sub.example.com', SES_DOMAIN_IDENTITY, 'must be an address of the domain example.com'],
  ])('refuses to send as %s under %s, which SES would refuse', (from, arn, message) => {
    expect(() => read({ sesFromAddress: from, sesIdentityArn: arn })).toThrow(message);
  });

  it.each([
    ['no-reply@example.com', SES_ADDRESS_IDENTITY],
    ['No-Reply@Example.com', SES_ADDRESS_IDENTITY],
    ['dashboard@example.com', SES_DOMAIN_IDENTITY],
  ])('accepts sending as %s under %s', (from, arn) => {
    expect(read({ sesFromAddress: from, sesIdentityArn: arn })).toMatchObject({ sesIdentityArn: arn });
  });
});

/** The rules acknowledged on one construct. */
function acknowledgedOn(construct: { node: { metadata: { type: string; data: unknown }[] } }): string[] {
  return construct.node.metadata
    .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
    .flatMap((entry) => Object.keys(entry.data as Record<string, string>))
    .map((id) => id.replace(/^annotation::/i, ''));
}

const nagViolations = (app: App) => new AwsSolutionsChecks().validateScope(app).violations.map((v) => v.ruleName);

describe('the dashboard’s own domain and its e-mail through SES', () => {
  let plain: synth.Synthesized;
  let custom: synth.Synthesized;

  beforeAll(() => {
    plain = synth.synthesize(synth.SKIP_BUNDLING);
    custom = synth.synthesize({
      ...synth.SKIP_BUNDLING,
      dashboardDomainName: DASHBOARD_DOMAIN,
      dashboardCertificateArn: US_EAST_1_CERTIFICATE,
      sesFromAddress: 'no-reply@example.com',
      sesIdentityArn: SES_ADDRESS_IDENTITY,
    });
  }, 120_000);

  afterAll(() => {
    plain?.dispose();
    custom?.dispose();
  });

  const distributionConfig = (s: synth.Synthesized) =>
    synth.propsOf(
      synth.resourcesOf(s.service, 'AWS::CloudFront::Distribution')[
        synth.logicalIdOf(s.fx.service.dashboardSite.distribution)
      ],
    ).DistributionConfig as Record<string, unknown>;
  const outputs = (s: synth.Synthesized) => s.service.toJSON().Outputs as Record<string, { Value: unknown }>;
  const emailConfiguration = (s: synth.Synthesized) =>
    synth.propsOf(synth.resourcesOf(s.data, 'AWS::Cognito::UserPool')[synth.logicalIdOf(s.fx.data.users.userPool)])
      .EmailConfiguration;

  it('serves the dashboard on its domain with the us-east-1 certificate, SNI and TLSv1.2_2021', () => {
    const config = distributionConfig(custom);
    expect(config.Aliases).toEqual([DASHBOARD_DOMAIN]);
    expect(config.ViewerCertificate).toEqual({
      AcmCertificateArn: US_EAST_1_CERTIFICATE,
      SslSupportMethod: 'sni-only',
      MinimumProtocolVersion: 'TLSv1.2_2021',
    });
    expect(DASHBOARD_TLS_POLICY).toBe('TLSv1.2_2021');
    expect(outputs(custom).DashboardUrl?.Value).toBe(`https://${DASHBOARD_DOMAIN}/`);
    expect(outputs(custom).DashboardDomainTarget?.Value).toEqual({
      'Fn::GetAtt': [synth.logicalIdOf(custom.fx.service.dashboardSite.distribution), 'DomainName'],
    });
  });

  it('without a domain keeps the cloudfront.net name and default certificate, as before', () => {
    const config = distributionConfig(plain);
    expect(config.Aliases).toBeUndefined();
    expect(config.ViewerCertificate).toBeUndefined();
    expect(outputs(plain).DashboardUrl?.Value).toEqual({
      'Fn::Join': [
        '',
        [
          'https://',
          { 'Fn::GetAtt': [synth.logicalIdOf(plain.fx.service.dashboardSite.distribution), 'DomainName'] },
          '/',
        ],
      ],
    });
    expect(outputs(plain).DashboardDomainTarget).toBeUndefined();
  });

  it('acknowledges the default certificate’s old TLS (cdk-nag CFR4) only where there is no domain', () => {
    expect(acknowledgedOn(plain.fx.service.dashboardSite.distribution)).toContain('AwsSolutions-CFR4');
    expect(acknowledgedOn(custom.fx.service.dashboardSite.distribution)).not.toContain('AwsSolutions-CFR4');
    expect(nagViolations(plain.app)).toEqual([]);
    expect(nagViolations(custom.app)).toEqual([]);
  });

  it('sends the pool’s e-mail through SES from the verified identity', () => {
    expect(emailConfiguration(custom)).toEqual({
      EmailSendingAccount: 'DEVELOPER',
      SourceArn: SES_ADDRESS_IDENTITY,
      From: 'no-reply@example.com',
    });
  });

  it('without SES leaves the pool on Cognito’s own sender, as before', () => {
    expect(emailConfiguration(plain)).toBeUndefined();
  });

  // EmailConfiguration is "Update requires: No interruption", so the pool keeps its users and their `sub`:
  // https://docs.aws.amazon.com/AWSCloudFormation/latest/UserGuide/aws-resource-cognito-userpool.html
  it('changes the same user pool resource, which CloudFormation updates in place', () => {
    expect(synth.logicalIdOf(custom.fx.data.users.userPool)).toBe(synth.logicalIdOf(plain.fx.data.users.userPool));
    expect(Object.keys(synth.resourcesOf(custom.data, 'AWS::Cognito::UserPool'))).toEqual(
      Object.keys(synth.resourcesOf(plain.data, 'AWS::Cognito::UserPool')),
    );
  });
});

describe('SES with a domain identity', () => {
  it('sends from any address of the verified domain, under the domain’s ARN', () => {
    const context = {
      ...synth.cdkJsonContext(),
      ...synth.NO_ALARM_TARGET,
      ...synth.SKIP_BUNDLING,
      sesFromAddress: 'dashboard@example.com',
      sesIdentityArn: SES_DOMAIN_IDENTITY,
    };
    const email = synth.withScratchApp(context, (app) => {
      const fx = buildApp(app);
      const pools = Template.fromStack(fx.data).findResources('AWS::Cognito::UserPool');
      return Object.values(pools)[0]?.Properties?.EmailConfiguration;
    });
    expect(email).toEqual({
      EmailSendingAccount: 'DEVELOPER',
      SourceArn: SES_DOMAIN_IDENTITY,
      From: 'dashboard@example.com',
    });
  });
});
