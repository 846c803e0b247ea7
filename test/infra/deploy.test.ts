/**
 * What issue 17 asks of a deploy, on the synthesized templates: releases through CodeDeploy behind the alias `live`,
 * the WAF's rules, the TLS policies, the authorizer's write limited to usage items, the optional custom domain and
 * the re-attached retained tables. Templates only, so asset bundling is skipped.
 */
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { PLAN_IDS, PLANS } from '../../lambdas/core/domain/plans';
import { DASHBOARD_ROUTES } from '../../lambdas/core/http/dashboard-routes';
import { ROUTES } from '../../lambdas/core/http/routes';
import { ACCOUNTS_TABLE, RATES_TABLE } from '../../lambdas/core/store/tables';
import { DOMAIN_SECURITY_POLICY, STAGE_NAME } from '../../lib/api';
import { DEFAULT_KEY_RATE_LIMIT } from '../../lib/config';
import { LIVE_ALIAS } from '../../lib/release';
import { API_TLS } from '../../lib/rest-api';
import { TABLES_NOTICE } from '../../lib/stacks';
import {
  IP_RATE_WINDOW_SECONDS,
  KEY_RATE_WINDOW_SECONDS,
  NO_USER_AGENT_RULE,
  WAF_RESPONSE_BODIES,
  WAF_RULES,
} from '../../lib/web-acl';
import * as synth from './synth';

describe('the default deploy', () => {
  let s: synth.Synthesized;
  beforeAll(() => {
    s = synth.synthesize(synth.SKIP_BUNDLING);
  }, 120_000);
  afterAll(() => s?.dispose());

  describe('releases', () => {
    it('publishes the authorizer and every endpoint function behind an alias live on its current version', () => {
      const fns = synth.answeringFunctions(s);
      expect(fns.size).toBe(1 + ROUTES.length + DASHBOARD_ROUTES.length);
      const aliases = synth.resourcesOf(s.service, 'AWS::Lambda::Alias');
      expect(Object.keys(aliases)).toHaveLength(fns.size);
      for (const [name, fn] of fns) {
        const alias = fn.release?.alias;
        if (!alias) throw new Error(`${name} has no alias`);
        const props = synth.propsOf(aliases[synth.logicalIdOf(alias)]);
        expect([name, props.Name, props.FunctionName]).toEqual([
          name,
          LIVE_ALIAS,
          { Ref: synth.logicalIdOf(fn.function) },
        ]);
        const version = (props.FunctionVersion as { 'Fn::GetAtt': [string, string] })['Fn::GetAtt'];
        expect(synth.resourcesOf(s.service, 'AWS::Lambda::Version')[version[0]]?.Properties).toMatchObject({
          FunctionName: { Ref: synth.logicalIdOf(fn.function) },
        });
      }
    });

    it('leaves ingestion unreleased: the schedule invokes it directly and nothing waits on a canary', () => {
      expect(s.fx.service.ingestion.function.release).toBeUndefined();
    });

    it('shifts traffic with a CodeDeploy canary (10 % for 5 minutes) per function, rolled back on its alarm', () => {
      const groups = synth.resourcesOf(s.service, 'AWS::CodeDeploy::DeploymentGroup');
      const applicationId = synth.logicalIdOf(s.fx.service.releases.application);
      const roleId = synth.logicalIdOf(s.fx.service.releases.role);
      for (const [name, fn] of synth.answeringFunctions(s)) {
        const release = fn.release;
        if (!release) throw new Error(`${name} is not released`);
        const group = synth.propsOf(groups[synth.logicalIdOf(release.group)]);
        expect([name, group]).toEqual([
          name,
          expect.objectContaining({
            ApplicationName: { Ref: applicationId },
            ServiceRoleArn: { 'Fn::GetAtt': [roleId, 'Arn'] },
            DeploymentConfigName: 'CodeDeployDefault.LambdaCanary10Percent5Minutes',
            DeploymentStyle: { DeploymentType: 'BLUE_GREEN', DeploymentOption: 'WITH_TRAFFIC_CONTROL' },
            AlarmConfiguration: { Enabled: true, Alarms: [{ Name: { Ref: synth.logicalIdOf(release.alarm) } }] },
            AutoRollbackConfiguration: {
              Enabled: true,
              Events: expect.arrayContaining([
                'DEPLOYMENT_FAILURE',
                'DEPLOYMENT_STOP_ON_REQUEST',
                'DEPLOYMENT_STOP_ON_ALARM',
              ]),
            },
          }),
        ]);
        // CloudFormation hands the alias's version change to that deployment group.
        expect(
          synth.resourcesOf(s.service, 'AWS::Lambda::Alias')[synth.logicalIdOf(release.alias)]?.UpdatePolicy,
        ).toEqual({
          CodeDeployLambdaAliasUpdate: {
            ApplicationName: { Ref: applicationId },
            DeploymentGroupName: { Ref: synth.logicalIdOf(release.group) },
          },
        });
      }
    });

    it('shares one CodeDeploy application and one service role with only the AWS policy for Lambda deployments', () => {
      s.service.resourceCountIs('AWS::CodeDeploy::Application', 1);
      const outputs = s.service.toJSON().Outputs as Record<string, { Value: unknown }>;
      expect(outputs.ReleaseApplication?.Value).toEqual({ Ref: synth.logicalIdOf(s.fx.service.releases.application) });
      s.service.hasResourceProperties('AWS::CodeDeploy::Application', { ComputePlatform: 'Lambda' });
      const role = synth.propsOf(
        synth.resourcesOf(s.service, 'AWS::IAM::Role')[synth.logicalIdOf(s.fx.service.releases.role)],
      );
      expect(JSON.stringify(role.AssumeRolePolicyDocument)).toContain('codedeploy.amazonaws.com');
      expect(role.ManagedPolicyArns).toHaveLength(1);
      expect(synth.renderJoin(role.ManagedPolicyArns && (role.ManagedPolicyArns as unknown[])[0])).toBe(
        'arn:<Ref:AWS::Partition>:iam::aws:policy/service-role/AWSCodeDeployRoleForLambdaLimited',
      );
    });
  });

  describe('WAF', () => {
    function acl(): Record<string, unknown> {
      const acls = Object.values(synth.resourcesOf(s.service, 'AWS::WAFv2::WebACL'));
      expect(acls).toHaveLength(1);
      return synth.propsOf(acls[0]);
    }
    type Rule = { Name: string; Priority: number; Action?: unknown; OverrideAction?: unknown; Statement: unknown };
    const rule = (name: string): Rule => {
      const found = (acl().Rules as Rule[]).find((r) => r.Name === name);
      if (!found) throw new Error(`no rule ${name}`);
      return found;
    };

    it('evaluates IP reputation, the per-key rate, the per-IP rate and the common rule set, in that order', () => {
      const rules = (acl().Rules as Rule[]).sort((a, b) => a.Priority - b.Priority).map((r) => r.Name);
      expect(rules).toEqual([
        WAF_RULES.ipReputation,
        WAF_RULES.ratePerKey,
        WAF_RULES.ratePerIp,
        WAF_RULES.commonRuleSet,
      ]);
    });

    it('limits each X-API-Key value per minute, a little above the highest plan per-minute limit', () => {
      const highest = Math.max(...PLAN_IDS.map((id) => PLANS[id].perMinute));
      const statement = (rule(WAF_RULES.ratePerKey).Statement as { RateBasedStatement: Record<string, unknown> })
        .RateBasedStatement;
      expect(statement).toEqual({
        AggregateKeyType: 'CUSTOM_KEYS',
        CustomKeys: [{ Header: { Name: 'x-api-key', TextTransformations: [{ Priority: 0, Type: 'NONE' }] } }],
        EvaluationWindowSec: KEY_RATE_WINDOW_SECONDS,
        Limit: DEFAULT_KEY_RATE_LIMIT,
      });
      expect(KEY_RATE_WINDOW_SECONDS).toBe(60);
      expect(DEFAULT_KEY_RATE_LIMIT).toBeGreaterThan(highest);
      expect(DEFAULT_KEY_RATE_LIMIT).toBeLessThanOrEqual(highest * 1.25);
    });

    it.each([
      [WAF_RULES.ratePerKey, 'rate-limit-per-key'],
      [WAF_RULES.ratePerIp, 'rate-limit-per-ip'],
    ] as const)(
      'answers %s with 429 rate-limit-exceeded in the error envelope, Retry-After and no-store',
      (name, body) => {
        expect(rule(name).Action).toEqual({
          Block: {
            CustomResponse: {
              ResponseCode: 429,
              CustomResponseBodyKey: body,
              ResponseHeaders: [
                { Name: 'Retry-After', Value: String(KEY_RATE_WINDOW_SECONDS) },
                { Name: 'Cache-Control', Value: 'no-store' },
              ],
            },
          },
        });
        const bodies = acl().CustomResponseBodies as Record<string, { ContentType: string; Content: string }>;
        expect(bodies[body]?.ContentType).toBe('APPLICATION_JSON');
        expect(JSON.parse(bodies[body]?.Content ?? '{}')).toEqual({
          success: false,
          error: { code: 'rate-limit-exceeded', message: expect.stringMatching(/retry after 60 seconds/) },
        });
        expect(bodies[body]?.Content).toBe(WAF_RESPONSE_BODIES[body]);
      },
    );

    it('keeps the per-IP rule over five minutes at the configured limit', () => {
      expect(rule(WAF_RULES.ratePerIp).Statement).toEqual({
        RateBasedStatement: {
          AggregateKeyType: 'IP',
          EvaluationWindowSec: IP_RATE_WINDOW_SECONDS,
          Limit: s.fx.config.wafRateLimit,
        },
      });
    });

    it('blocks addresses on the AWS IP reputation list', () => {
      expect(rule(WAF_RULES.ipReputation)).toMatchObject({
        OverrideAction: { None: {} },
        Statement: {
          ManagedRuleGroupStatement: { VendorName: 'AWS', Name: 'AWSManagedRulesAmazonIpReputationList' },
        },
      });
    });

    it('only counts requests without a User-Agent in the common rule set, so machine clients pass', () => {
      expect(rule(WAF_RULES.commonRuleSet)).toMatchObject({
        OverrideAction: { None: {} },
        Statement: {
          ManagedRuleGroupStatement: {
            VendorName: 'AWS',
            Name: 'AWSManagedRulesCommonRuleSet',
            RuleActionOverrides: [{ Name: NO_USER_AGENT_RULE, ActionToUse: { Count: {} } }],
          },
        },
      });
      expect(NO_USER_AGENT_RULE).toBe('NoUserAgent_HEADER');
    });

    it('answers the other blocks 403 request-blocked through the WAF_FILTERED gateway response, not 400 invalid-parameter', () => {
      for (const api of [s.fx.service.api, s.fx.service.dashboardApi]) {
        const response = Object.values(synth.resourcesOf(s.service, 'AWS::ApiGateway::GatewayResponse'))
          .map(synth.propsOf)
          .find(
            (r) =>
              r.ResponseType === 'WAF_FILTERED' &&
              (r.RestApiId as { Ref?: string }).Ref === synth.logicalIdOf(api.restApi),
          );
        expect(response?.StatusCode).toBe('403');
        const body = JSON.parse(
          (response?.ResponseTemplates as Record<string, string> | undefined)?.['application/json'] ?? '{}',
        );
        expect(body.error).toEqual({ code: 'request-blocked', message: 'The firewall refused this request.' });
      }
    });
  });

  describe('TLS', () => {
    it('accepts only TLS 1.2 and 1.3 on both execute-api endpoints', () => {
      const apis = Object.values(synth.resourcesOf(s.service, 'AWS::ApiGateway::RestApi')).map(synth.propsOf);
      expect(apis).toHaveLength(2);
      for (const api of apis) {
        expect(api).toMatchObject({
          SecurityPolicy: 'SecurityPolicy_TLS13_1_2_2021_06',
          EndpointAccessMode: 'BASIC',
          EndpointConfiguration: { Types: ['REGIONAL'] },
        });
      }
      expect(API_TLS.securityPolicy).toBe('SecurityPolicy_TLS13_1_2_2021_06');
    });

    it('keeps the execute-api endpoint and creates no domain without a custom domain', () => {
      s.service.resourceCountIs('AWS::ApiGateway::DomainName', 0);
      s.service.resourceCountIs('AWS::ApiGateway::BasePathMapping', 0);
      const api = synth.propsOf(
        synth.resourcesOf(s.service, 'AWS::ApiGateway::RestApi')[synth.logicalIdOf(s.fx.service.api.restApi)],
      );
      expect(api.DisableExecuteApiEndpoint).toBe(false);
      expect(s.fx.service.api.url).toBe(s.fx.service.api.restApi.url);
    });
  });

  describe('IAM', () => {
    it('lets the authorizer update usage items only, and read keys and accounts as before', () => {
      const roleId = synth.logicalIdOf(s.fx.service.api.authorizerFunction.role);
      const statements = Object.values(synth.resourcesOf(s.service, 'AWS::IAM::Policy'))
        .filter((p) => JSON.stringify(p.Properties?.Roles) === JSON.stringify([{ Ref: roleId }]))
        .flatMap((p) => (synth.propsOf(p).PolicyDocument as { Statement: Record<string, unknown>[] }).Statement)
        .filter((st) => JSON.stringify(st.Action).includes('dynamodb:'));
      expect(statements).toHaveLength(2);
      const update = statements.find((st) => st.Action === 'dynamodb:UpdateItem');
      expect(update?.Condition).toEqual({
        'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['USAGE#*#*'] },
      });
      const get = statements.find((st) => st.Action === 'dynamodb:GetItem');
      expect(get).toBeDefined();
      expect(get?.Condition).toBeUndefined();
      expect(update?.Resource).toEqual(get?.Resource);
    });
  });

  it('says at synth that the data stack creates new tables and how to re-attach retained ones', () => {
    Annotations.fromStack(s.fx.data).hasInfo(`/${s.fx.data.stackName}/Data`, TABLES_NOTICE.created);
    expect(TABLES_NOTICE.created).toMatch(/ratesTableName=.*accountsTableName=/);
    s.data.resourceCountIs('AWS::DynamoDB::Table', 2);
  });
});

describe('a deploy with a custom domain and the retained tables re-attached', () => {
  const certificateArn = 'arn:aws:acm:eu-west-1:123456789012:certificate/0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b';
  const names = { rates: 'FxratesData-DataRates1A2B3C-OLD', accounts: 'FxratesData-DataAccounts4D5E6F-OLD' };
  let s: synth.Synthesized;
  beforeAll(() => {
    s = synth.synthesize({
      ...synth.SKIP_BUNDLING,
      domainName: 'api.example.com',
      certificateArn,
      ratesTableName: names.rates,
      accountsTableName: names.accounts,
    });
  }, 120_000);
  afterAll(() => s?.dispose());

  it('has no unacknowledged cdk-nag finding', () => {
    const report = new AwsSolutionsChecks().validateScope(s.app);
    expect(report.violations.map((v) => `${v.ruleName} ${v.violatingResources.map((r) => r.constructPath)}`)).toEqual(
      [],
    );
  });

  describe('custom domain', () => {
    it('is a regional domain on the given certificate with the TLS 1.2 policy', () => {
      s.service.resourceCountIs('AWS::ApiGateway::DomainName', 1);
      s.service.hasResourceProperties('AWS::ApiGateway::DomainName', {
        DomainName: 'api.example.com',
        RegionalCertificateArn: certificateArn,
        EndpointConfiguration: { Types: ['REGIONAL'] },
        SecurityPolicy: 'TLS_1_2',
      });
      expect(DOMAIN_SECURITY_POLICY).toBe('TLS_1_2');
    });

    it('maps the base path v1 to the stage v1 of the public API only', () => {
      const mappings = Object.values(synth.resourcesOf(s.service, 'AWS::ApiGateway::BasePathMapping')).map(
        synth.propsOf,
      );
      expect(mappings).toEqual([
        {
          DomainName: { Ref: synth.logicalIdOf(s.fx.service.api.domain ?? s.fx.service.api) },
          RestApiId: { Ref: synth.logicalIdOf(s.fx.service.api.restApi) },
          Stage: { Ref: synth.logicalIdOf(s.fx.service.api.restApi.deploymentStage) },
          BasePath: STAGE_NAME,
        },
      ]);
      expect(STAGE_NAME).toBe('v1');
    });

    it('turns the execute-api endpoint of the public API off, and publishes the domain URL', () => {
      const apis = synth.resourcesOf(s.service, 'AWS::ApiGateway::RestApi');
      expect(synth.propsOf(apis[synth.logicalIdOf(s.fx.service.api.restApi)]).DisableExecuteApiEndpoint).toBe(true);
      // The dashboard API stays reachable for CloudFront.
      expect(
        synth.propsOf(apis[synth.logicalIdOf(s.fx.service.dashboardApi.restApi)]).DisableExecuteApiEndpoint,
      ).not.toBe(true);
      const outputs = s.service.toJSON().Outputs as Record<string, { Value: unknown }>;
      expect(outputs.ApiUrl?.Value).toBe('https://api.example.com/v1/');
      expect(Object.keys(outputs)).toEqual(expect.arrayContaining(['ApiDomainTarget', 'ApiDomainZone']));
    });

    it("gives the dashboard page the domain's URL for its example requests", () => {
      expect(s.fx.service.api.url).toBe('https://api.example.com/v1/');
      expect(JSON.stringify(s.service.toJSON())).toContain('https://api.example.com/v1/');
    });
  });

  describe('re-attached tables', () => {
    it('creates no table and says which ones the service uses', () => {
      s.data.resourceCountIs('AWS::DynamoDB::Table', 0);
      s.service.resourceCountIs('AWS::DynamoDB::Table', 0);
      expect(s.fx.data.data.attached).toBe(true);
      Annotations.fromStack(s.fx.data).hasInfo(
        `/${s.fx.data.stackName}/Data`,
        TABLES_NOTICE.attached(names.rates, names.accounts),
      );
      const outputs = s.data.toJSON().Outputs as Record<string, { Value: unknown }>;
      expect(outputs.RatesTableName?.Value).toBe(names.rates);
      expect(outputs.AccountsTableName?.Value).toBe(names.accounts);
    });

    it('tells the functions the given names', () => {
      const functions = Object.values(synth.resourcesOf(s.service, 'AWS::Lambda::Function')).map(
        (fn) => (synth.propsOf(fn).Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {},
      );
      const rates = functions.map((v) => v[RATES_TABLE.envVar]).filter((v) => v !== undefined);
      const accounts = functions.map((v) => v[ACCOUNTS_TABLE.envVar]).filter((v) => v !== undefined);
      expect(rates.length).toBeGreaterThan(0);
      expect(accounts.length).toBeGreaterThan(0);
      expect(new Set(rates)).toEqual(new Set([names.rates]));
      expect(new Set(accounts)).toEqual(new Set([names.accounts]));
    });

    /** `table/<name>` (or `table/<name>/index/<index>`) of every DynamoDB resource a function's policy names. */
    function dynamoResources(policies: synth.Resources, roleId: string): string[][] {
      return Object.values(policies)
        .filter((p) => JSON.stringify(p.Properties?.Roles) === JSON.stringify([{ Ref: roleId }]))
        .flatMap((p) => (synth.propsOf(p).PolicyDocument as { Statement: Record<string, unknown>[] }).Statement)
        .filter((st) => JSON.stringify(st.Action).includes('dynamodb:'))
        .map((st) =>
          ([] as unknown[])
            .concat(st.Resource)
            .map((r) =>
              synth
                .renderJoin(r)
                .replace(/^arn:<Ref:AWS::Partition>:dynamodb:<Ref:AWS::Region>:<Ref:AWS::AccountId>:/, ''),
            ),
        );
    }

    it('grants exactly as before, on the ARNs of the named tables', () => {
      const policies = synth.resourcesOf(s.service, 'AWS::IAM::Policy');
      const { api, ingestion, dashboardApi } = s.fx.service;
      expect(dynamoResources(policies, synth.logicalIdOf(api.authorizerFunction.role))).toEqual([
        [`table/${names.accounts}`],
        [`table/${names.accounts}`],
      ]);
      // Every statement of ingestion (the table grant, the status item's UpdateItem) names the rates table alone.
      const ingest = dynamoResources(policies, synth.logicalIdOf(ingestion.function.role));
      expect(ingest.length).toBeGreaterThan(1);
      for (const resources of ingest) expect(resources).toEqual([`table/${names.rates}`]);
      for (const route of ROUTES.filter((r) => r.ratesTable.length > 0)) {
        const fn = api.routeFunctions.get(route.id);
        if (!fn) throw new Error(`no function for ${route.id}`);
        expect(dynamoResources(policies, synth.logicalIdOf(fn.role))).toEqual([[`table/${names.rates}`]]);
      }
      for (const route of DASHBOARD_ROUTES) {
        const fn = dashboardApi.routeFunctions.get(route.id);
        if (!fn) throw new Error(`no function for ${route.id}`);
        // One statement per set of item prefixes (test/infra/least-privilege.test.ts), each on the table itself.
        const expected = [[`table/${names.accounts}`]];
        if (route.accountsIndexes.length > 0) {
          expected.push(route.accountsIndexes.map((index) => `table/${names.accounts}/index/${index}`));
        }
        const distinct = [
          ...new Set(dynamoResources(policies, synth.logicalIdOf(fn.role)).map((r) => JSON.stringify(r))),
        ];
        expect([route.id, distinct.map((r) => JSON.parse(r))]).toEqual([route.id, expected]);
      }
    });

    it('keeps the LeadingKeys limit of the authorizer on the named table', () => {
      s.service.hasResourceProperties('AWS::IAM::Policy', {
        PolicyDocument: {
          Statement: Match.arrayWith([
            Match.objectLike({
              Action: 'dynamodb:UpdateItem',
              Condition: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': ['USAGE#*#*'] } },
            }),
          ]),
        },
      });
    });
  });
});
