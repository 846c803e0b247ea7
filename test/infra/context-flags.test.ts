/**
 * The context flags operators set on `cdk deploy -c ...`: how they are read, and what they change in the
 * synthesized app. Templates only, so asset bundling is skipped here.
 */
import { Stack } from 'aws-cdk-lib';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { AwsSolutionsChecks } from 'cdk-nag';
import { PLAN_IDS, PLANS } from '../../lambdas/core/domain/plans';
import { SOURCE_IDS } from '../../lambdas/core/domain/rates';
import { TRACING_ENV } from '../../lambdas/core/tracing';
import { CLOUDWATCH_ROLE_NOTICE } from '../../lib/api';
import { buildApp } from '../../lib/app';
import { FUNCTION_NAMES } from '../../lib/bundling';
import { ALARM_TARGET_REQUIRED, CONTEXT_KEYS, DEFAULT_KEY_RATE_LIMIT, readDeployConfig } from '../../lib/config';
import * as synth from './synth';

describe('reading the context', () => {
  const read = (context: Record<string, unknown>) =>
    readDeployConfig((key) => ({ ...synth.NO_ALARM_TARGET, ...context })[key]);

  it('defaults to WAF on, every source, an hourly run, no e-mail, the account-level role, no tracing, canaries', () => {
    const config = read({});
    expect(config).toMatchObject({
      waf: true,
      // The ECB, the twelve central banks and currency-api, in the default order of precedence.
      sources: [...SOURCE_IDS],
      ingestSchedule: 'rate(1 hour)',
      apiGatewayCloudWatchRole: true,
      quotaAlarmPercent: 90,
      tracing: false,
      canary: true,
    });
    for (const key of ['domainName', 'certificateArn', 'ratesTableName', 'accountsTableName'] as const) {
      expect([key, config[key]]).toEqual([key, undefined]);
    }
    expect(config.alarmEmail).toBeUndefined();
    expect(config.alarmTopicArn).toBeUndefined();
    expect(config.ecbBaseUrl).toBeUndefined();
    expect(config.upgradeContact).toBeUndefined();
  });

  it.each([
    ['sales@example.com', 'mailto:sales@example.com'],
    ['mailto:sales@example.com', 'mailto:sales@example.com'],
    ['https://example.com/upgrade', 'https://example.com/upgrade'],
  ])('reads the upgrade contact %s as the link %s', (value, link) => {
    expect(read({ upgradeContact: value }).upgradeContact).toBe(link);
  });

  it('accepts the strings the command line passes', () => {
    const config = read({
      waf: 'false',
      apiGatewayCloudWatchRole: 'true',
      throttleRate: '25',
      wafRateLimit: '500',
      sources: 'ecb',
    });
    expect(config).toMatchObject({
      waf: false,
      apiGatewayCloudWatchRole: true,
      throttleRate: 25,
      wafRateLimit: 500,
      sources: ['ecb'],
    });
  });

  describe('the alarm target', () => {
    const readBare = (context: Record<string, unknown>) => readDeployConfig((key) => context[key]);
    const topic = 'arn:aws:sns:eu-west-1:123456789012:ops-alarms';

    it('is required: without one the synth fails naming both keys and the explicit way out', () => {
      expect(() => readBare({})).toThrow(ALARM_TARGET_REQUIRED);
      expect(ALARM_TARGET_REQUIRED).toMatch(/alarmEmail.*alarmTopicArn.*alarmNotifications=none/);
      expect(() => readBare({ alarmNotifications: '' })).toThrow(/alarmEmail\/alarmTopicArn/);
    });

    it.each([
      [{ alarmEmail: 'ops@example.com' }],
      [{ alarmTopicArn: topic }],
      [{ alarmTopicArn: 'arn:aws-us-gov:sns:us-gov-west-1:123456789012:alarms.fifo' }],
      [{ alarmNotifications: 'none' }],
    ])('is satisfied by %j', (context) => {
      expect(() => readBare(context)).not.toThrow();
    });

    it('stops the app itself, not only the reader', () => {
      synth.withScratchApp({ ...synth.cdkJsonContext(), ...synth.SKIP_BUNDLING }, (app) => {
        expect(() => buildApp(app)).toThrow(ALARM_TARGET_REQUIRED);
      });
      synth.withScratchApp({ ...synth.cdkJsonContext(), ...synth.SKIP_BUNDLING, alarmTopicArn: topic }, (app) => {
        expect(buildApp(app).config.alarmTopicArn).toBe(topic);
      });
    });

    it('exposes the e-mail and the topic ARN as given, both at once if asked', () => {
      expect(readBare({ alarmEmail: 'ops@example.com', alarmTopicArn: topic })).toMatchObject({
        alarmEmail: 'ops@example.com',
        alarmTopicArn: topic,
      });
      expect(readBare({ alarmNotifications: 'none' }).alarmNotifications).toBe('none');
    });
  });

  it.each([
    ['50', 50],
    ['100', 100],
    [75, 75],
  ])('reads quotaAlarmPercent=%j as %d', (value, percent) => {
    expect(read({ quotaAlarmPercent: value }).quotaAlarmPercent).toBe(percent);
  });

  it('keys the WAF a little above the highest per-minute limit of any plan', () => {
    const highest = Math.max(...PLAN_IDS.map((id) => PLANS[id].perMinute));
    expect(DEFAULT_KEY_RATE_LIMIT).toBe(Math.ceil(highest * 1.2));
    expect(read({}).wafKeyRateLimit).toBe(DEFAULT_KEY_RATE_LIMIT);
    expect(read({ wafKeyRateLimit: '1200' }).wafKeyRateLimit).toBe(1200);
  });

  it('reads a custom domain and re-attached tables as given', () => {
    const certificateArn = 'arn:aws:acm:eu-west-1:123456789012:certificate/0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b';
    expect(read({ domainName: 'api.example.com', certificateArn })).toMatchObject({
      domainName: 'api.example.com',
      certificateArn,
    });
    expect(
      read({ ratesTableName: 'FxratesData-RatesA1-X', accountsTableName: 'FxratesData-AccountsB2-Y' }),
    ).toMatchObject({ ratesTableName: 'FxratesData-RatesA1-X', accountsTableName: 'FxratesData-AccountsB2-Y' });
  });

  it.each([
    [{ domainName: 'api.example.com' }, 'domainName/certificateArn'],
    [
      { certificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b' },
      'domainName/certificateArn',
    ],
    [{ ratesTableName: 'rates-table' }, 'ratesTableName/accountsTableName'],
    [{ accountsTableName: 'accounts-table' }, 'ratesTableName/accountsTableName'],
  ])('refuses %j alone: both or neither', (context, keys) => {
    expect(() => read(context)).toThrow(`Invalid CDK context: ${keys}: set both or neither`);
  });

  it.each([
    ['waf', 'maybe'],
    ['tracing', 'on'],
    ['canary', 'yes'],
    ['wafKeyRateLimit', '5'],
    ['domainName', 'API.example.com'],
    ['domainName', 'https://api.example.com'],
    ['certificateArn', 'arn:aws:iam::123456789012:server-certificate/x'],
    ['ratesTableName', 'a'],
    ['accountsTableName', 'bad name'],
    ['alarmTopicArn', 'ops-alarms'],
    ['alarmTopicArn', 'arn:aws:sqs:eu-west-1:123456789012:queue'],
    ['alarmTopicArn', 'arn:aws:sns:eu-west-1:1234:ops'],
    ['alarmNotifications', 'off'],
    ['quotaAlarmPercent', '49'],
    ['quotaAlarmPercent', '101'],
    ['quotaAlarmPercent', '90.5'],
    ['sources', 'ecb,openexchangerates'],
    ['alarmEmail', 'not-an-address'],
    ['throttleRate', '-1'],
    ['ingestSchedule', 'every hour'],
    ['ecbBaseUrl', 'ecb'],
    ['crossCheckExempt', 'cup'],
    ['crossCheckExempt', 'CUP;LBP'],
    ['crossCheckTolerance', '0'],
    ['centralBankOrigin', 'mirror'],
    ['upgradeContact', 'http://example.com/upgrade'],
    ['upgradeContact', 'sales at example.com'],
  ])('refuses %s=%s and names the flag', (key, value) => {
    expect(() => read({ [key]: value })).toThrow(new RegExp(`Invalid CDK context: .*${key}`));
  });

  it('ignores context keys that are not flags and reads every flag the README lists', () => {
    expect(read({ unrelated: 'x' })).toEqual(read({}));
    expect(CONTEXT_KEYS).toEqual(
      expect.arrayContaining([
        'waf',
        'sources',
        'alarmEmail',
        'alarmTopicArn',
        'alarmNotifications',
        'quotaAlarmPercent',
        'apiGatewayCloudWatchRole',
        'ingestSchedule',
        'tracing',
        'canary',
        'wafKeyRateLimit',
        'domainName',
        'certificateArn',
        'ratesTableName',
        'accountsTableName',
        'centralBankOrigin',
        'crossCheckTolerance',
        'crossCheckExempt',
      ]),
    );
  });
});

describe('flags applied to the app', () => {
  let s: synth.Synthesized;

  beforeAll(() => {
    s = synth.synthesize({
      ...synth.SKIP_BUNDLING,
      waf: 'false',
      alarmEmail: 'ops@example.com',
      apiGatewayCloudWatchRole: 'false',
      tracing: 'true',
      canary: 'false',
      sources: 'ecb',
      ingestSchedule: 'cron(15 * * * ? *)',
      ecbBaseUrl: 'https://ecb.example.com/stats/eurofxref',
      centralBankOrigin: 'https://mirror.example.com',
      crossCheckTolerance: '0.03',
      crossCheckExempt: 'CUP,LBP,VES',
      throttleRate: '50',
      throttleBurst: '100',
      upgradeContact: 'sales@example.com',
    });
  }, 120_000);

  afterAll(() => s?.dispose());

  it('still has no unacknowledged cdk-nag finding', () => {
    const report = new AwsSolutionsChecks().validateScope(s.app);
    expect(report.violations.map((v) => v.ruleName)).toEqual([]);
  });

  it('drops the WAF when waf=false', () => {
    s.service.resourceCountIs('AWS::WAFv2::WebACL', 0);
    s.service.resourceCountIs('AWS::WAFv2::WebACLAssociation', 0);
    expect(s.fx.service.api.webAcl).toBeUndefined();
  });

  it('subscribes the alarm e-mail address to the topic', () => {
    s.service.hasResourceProperties('AWS::SNS::Subscription', {
      Protocol: 'email',
      Endpoint: 'ops@example.com',
      TopicArn: { Ref: synth.logicalIdOf(s.fx.service.monitoring.topic) },
    });
  });

  it('leaves the account-level logging role alone with apiGatewayCloudWatchRole=false, and says what to check', () => {
    s.service.resourceCountIs('AWS::ApiGateway::Account', 0);
    const roles = Object.values(synth.resourcesOf(s.service, 'AWS::IAM::Role')).filter((r) =>
      JSON.stringify(r.Properties?.AssumeRolePolicyDocument).includes('apigateway.amazonaws.com'),
    );
    expect(roles).toEqual([]);
    Annotations.fromStack(s.fx.service).hasWarning(
      `/${s.fx.service.stackName}/Api/RestApi`,
      Match.stringLikeRegexp('aws apigateway get-account --query cloudwatchRoleArn'),
    );
    expect(CLOUDWATCH_ROLE_NOTICE.required).toContain('apiGatewayCloudWatchRole=false');
  });

  it('says at synth that it sets the role when it does (the default)', () => {
    synth.withScratchApp({ ...synth.cdkJsonContext(), ...synth.NO_ALARM_TARGET, ...synth.SKIP_BUNDLING }, (app) => {
      const { service } = buildApp(app);
      Annotations.fromStack(service).hasInfo(`/${service.stackName}/Api/RestApi`, CLOUDWATCH_ROLE_NOTICE.created);
      expect(Annotations.fromStack(service).findWarning('*', Match.stringLikeRegexp('cloudwatchRoleArn'))).toEqual([]);
    });
  });

  it('traces every function and both stages with tracing=true, and tells the code so', () => {
    const fns = Object.values(synth.resourcesOf(s.service, 'AWS::Lambda::Function')).filter(
      (fn) =>
        (synth.propsOf(fn).Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables?.[
          TRACING_ENV
        ],
    );
    expect(fns).toHaveLength(FUNCTION_NAMES.length);
    for (const fn of fns) {
      expect(synth.propsOf(fn).TracingConfig).toEqual({ Mode: 'Active' });
      expect((synth.propsOf(fn).Environment as { Variables: Record<string, unknown> }).Variables[TRACING_ENV]).toBe(
        'true',
      );
    }
    const stages = Object.values(synth.resourcesOf(s.service, 'AWS::ApiGateway::Stage'));
    expect(stages.map((stage) => synth.propsOf(stage).TracingEnabled)).toEqual([true, true]);
    // X-Ray's two actions take no resource: the only wildcard, on every function role.
    const xray = Object.values(synth.resourcesOf(s.service, 'AWS::IAM::Policy')).filter((p) =>
      JSON.stringify(p.Properties?.PolicyDocument).includes('xray:PutTraceSegments'),
    );
    expect(xray).toHaveLength(FUNCTION_NAMES.length);
  });

  it('shifts all traffic at once with canary=false, still rolled back on the alarms', () => {
    const groups = Object.values(synth.resourcesOf(s.service, 'AWS::CodeDeploy::DeploymentGroup'));
    expect(groups.length).toBeGreaterThan(0);
    for (const group of groups) {
      expect(synth.propsOf(group)).toMatchObject({
        DeploymentConfigName: 'CodeDeployDefault.LambdaAllAtOnce',
        AutoRollbackConfiguration: { Enabled: true, Events: expect.arrayContaining(['DEPLOYMENT_STOP_ON_ALARM']) },
      });
    }
  });

  it('passes the sources and base URLs to ingestion and uses the given schedule', () => {
    const fn = synth.resourcesOf(s.service, 'AWS::Lambda::Function')[
      synth.logicalIdOf(s.fx.service.ingestion.function.function)
    ];
    expect((synth.propsOf(fn).Environment as { Variables: Record<string, unknown> }).Variables).toMatchObject({
      SOURCES: 'ecb',
      ECB_BASE_URL: 'https://ecb.example.com/stats/eurofxref',
      CENTRAL_BANK_ORIGIN: 'https://mirror.example.com',
      CROSS_CHECK_TOLERANCE: '0.03',
      CROSS_CHECK_EXEMPT: 'CUP,LBP,VES',
    });
    s.service.hasResourceProperties('AWS::Events::Rule', { ScheduleExpression: 'cron(15 * * * ? *)' });
  });

  it('tells every dashboard function the upgrade contact, as a link, and puts it in the page config', () => {
    const functions = [...s.fx.service.dashboardApi.routeFunctions.values()];
    expect(functions.length).toBeGreaterThan(0);
    for (const fn of functions) {
      const resource = synth.resourcesOf(s.service, 'AWS::Lambda::Function')[synth.logicalIdOf(fn.function)];
      expect((synth.propsOf(resource).Environment as { Variables: Record<string, unknown> }).Variables).toMatchObject({
        UPGRADE_CONTACT: 'mailto:sales@example.com',
      });
    }
    const deployment = s.fx.service.dashboardSite.deployment.node.findChild('CustomResource');
    const config = synth.deployedFiles(s, synth.logicalIdOf(deployment)).get('config.json');
    expect(JSON.parse(config?.content ?? '{}')).toMatchObject({ contact: 'mailto:sales@example.com' });
  });

  it('throttles the stage at the given rate and burst', () => {
    s.service.hasResourceProperties('AWS::ApiGateway::Stage', {
      MethodSettings: [Match.objectLike({ ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 })],
    });
  });
});

describe('cdk-nag on every synth', () => {
  it('fails the synthesis of the app when a construct breaks a rule', () => {
    synth.withScratchApp({ ...synth.cdkJsonContext(), ...synth.NO_ALARM_TARGET, ...synth.SKIP_BUNDLING }, (app) => {
      const { service } = buildApp(app);
      new dynamodb.Table(service, 'Unrecoverable', {
        partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING },
      });
      expect(() => app.synth()).toThrow(/AwsSolutions-DDB3/);
    });
  });

  it('lets the same app synthesize without the offending construct', () => {
    synth.withScratchApp({ ...synth.cdkJsonContext(), ...synth.NO_ALARM_TARGET, ...synth.SKIP_BUNDLING }, (app) => {
      buildApp(app);
      expect(
        app
          .synth()
          .stacks.map((stack) => stack.stackName)
          .sort(),
      ).toEqual(['FxratesData', 'FxratesService']);
      expect(Stack.isStack(app.node.findChild('FxratesService'))).toBe(true);
    });
  });
});
