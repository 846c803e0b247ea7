/**
 * The context flags operators set on `cdk deploy -c ...`: how they are read, and what they change in the
 * synthesized app. Templates only, so asset bundling is skipped here.
 */
import { Stack } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import { AwsSolutionsChecks } from 'cdk-nag';
import { buildApp } from '../../lib/app';
import { ALARM_TARGET_REQUIRED, CONTEXT_KEYS, readDeployConfig } from '../../lib/config';
import {
  cdkJsonContext,
  deployedFiles,
  logicalIdOf,
  NO_ALARM_TARGET,
  propsOf,
  resourcesOf,
  SKIP_BUNDLING,
  type Synthesized,
  synthesize,
  withScratchApp,
} from './synth';

describe('reading the context', () => {
  const read = (context: Record<string, unknown>) =>
    readDeployConfig((key) => ({ ...NO_ALARM_TARGET, ...context })[key]);

  it('defaults to WAF on, both sources, an hourly run, no e-mail and no account-level role', () => {
    const config = read({});
    expect(config).toMatchObject({
      waf: true,
      sources: ['ecb', 'currency-api'],
      ingestSchedule: 'rate(1 hour)',
      apiGatewayCloudWatchRole: false,
      quotaAlarmPercent: 90,
    });
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
      withScratchApp({ ...cdkJsonContext(), ...SKIP_BUNDLING }, (app) => {
        expect(() => buildApp(app)).toThrow(ALARM_TARGET_REQUIRED);
      });
      withScratchApp({ ...cdkJsonContext(), ...SKIP_BUNDLING, alarmTopicArn: topic }, (app) => {
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

  it.each([
    ['waf', 'maybe'],
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
      ]),
    );
  });
});

describe('flags applied to the app', () => {
  let s: Synthesized;

  beforeAll(() => {
    s = synthesize({
      ...SKIP_BUNDLING,
      waf: 'false',
      alarmEmail: 'ops@example.com',
      apiGatewayCloudWatchRole: 'true',
      sources: 'ecb',
      ingestSchedule: 'cron(15 * * * ? *)',
      ecbBaseUrl: 'https://ecb.example.com/stats/eurofxref',
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
      TopicArn: { Ref: logicalIdOf(s.fx.service.monitoring.topic) },
    });
  });

  it('creates the account-level API Gateway logging role when asked, and keeps it on stack deletion', () => {
    s.service.resourceCountIs('AWS::ApiGateway::Account', 1);
    const [role] = Object.entries(resourcesOf(s.service, 'AWS::IAM::Role')).filter(([, r]) =>
      JSON.stringify(r.Properties?.AssumeRolePolicyDocument).includes('apigateway.amazonaws.com'),
    );
    expect(role?.[1]).toMatchObject({ DeletionPolicy: 'Retain' });
  });

  it('passes the sources and base URLs to ingestion and uses the given schedule', () => {
    const fn = resourcesOf(s.service, 'AWS::Lambda::Function')[logicalIdOf(s.fx.service.ingestion.function.function)];
    expect((propsOf(fn).Environment as { Variables: Record<string, unknown> }).Variables).toMatchObject({
      SOURCES: 'ecb',
      ECB_BASE_URL: 'https://ecb.example.com/stats/eurofxref',
    });
    s.service.hasResourceProperties('AWS::Events::Rule', { ScheduleExpression: 'cron(15 * * * ? *)' });
  });

  it('tells every dashboard function the upgrade contact, as a link, and puts it in the page config', () => {
    const functions = [...s.fx.service.dashboardApi.routeFunctions.values()];
    expect(functions.length).toBeGreaterThan(0);
    for (const fn of functions) {
      const resource = resourcesOf(s.service, 'AWS::Lambda::Function')[logicalIdOf(fn.function)];
      expect((propsOf(resource).Environment as { Variables: Record<string, unknown> }).Variables).toMatchObject({
        UPGRADE_CONTACT: 'mailto:sales@example.com',
      });
    }
    const deployment = s.fx.service.dashboardSite.deployment.node.findChild('CustomResource');
    const config = deployedFiles(s, logicalIdOf(deployment)).get('config.json');
    expect(JSON.parse(config?.content ?? '{}')).toMatchObject({ contact: 'mailto:sales@example.com' });
  });

  it('deploys the dashboard stage after the account-level logging role it needs', () => {
    const [account] = Object.keys(resourcesOf(s.service, 'AWS::ApiGateway::Account'));
    const stage = resourcesOf(s.service, 'AWS::ApiGateway::Stage')[
      logicalIdOf(s.fx.service.dashboardApi.restApi.deploymentStage)
    ];
    expect(stage?.DependsOn).toEqual(expect.arrayContaining([account]));
  });

  it('throttles the stage at the given rate and burst', () => {
    s.service.hasResourceProperties('AWS::ApiGateway::Stage', {
      MethodSettings: [Match.objectLike({ ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 })],
    });
  });
});

describe('cdk-nag on every synth', () => {
  it('fails the synthesis of the app when a construct breaks a rule', () => {
    withScratchApp({ ...cdkJsonContext(), ...NO_ALARM_TARGET, ...SKIP_BUNDLING }, (app) => {
      const { service } = buildApp(app);
      new dynamodb.Table(service, 'Unrecoverable', {
        partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING },
      });
      expect(() => app.synth()).toThrow(/AwsSolutions-DDB3/);
    });
  });

  it('lets the same app synthesize without the offending construct', () => {
    withScratchApp({ ...cdkJsonContext(), ...NO_ALARM_TARGET, ...SKIP_BUNDLING }, (app) => {
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
