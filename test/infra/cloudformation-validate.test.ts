/**
 * CDK's built-in CloudFormation Validate checks every template at synthesis against the resource schemas and
 * CloudFormation's rules, and cdk.json (`@aws-cdk/core:validateAgainstDefaultRules`) makes a finding fail
 * `npm run synth` and `cdk deploy`. The other infra tests synthesize without it (synth.ts says why); this file
 * synthesizes each shape of the app that they cover with it, and shows that a finding does fail the synthesis.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CfnResource, Stack } from 'aws-cdk-lib';
import { buildApp } from '../../lib/app';
import * as synth from './synth';

const PLUGIN = 'CloudFormation Validate';

interface ValidationReport {
  pluginReports: {
    pluginName: string;
    conclusion: string;
    violations?: { ruleName: string; severity: string; violatingConstructs: { constructPath: string }[] }[];
  }[];
}

/** The CloudFormation Validate part of the report synthesis wrote (a plugin without findings is left out). */
const validateReportIn = (dir: string) =>
  (JSON.parse(readFileSync(join(dir, 'validation-report.json'), 'utf8')) as ValidationReport).pluginReports.find(
    (r) => r.pluginName === PLUGIN,
  );

/** Where each finding was, as `rule severity construct`. */
const findings = (report: ReturnType<typeof validateReportIn>) =>
  (report?.violations ?? []).flatMap((v) =>
    v.violatingConstructs.map((c) => `${v.ruleName} ${v.severity} ${c.constructPath}`),
  );

const CERTIFICATE = 'arn:aws:acm:eu-west-1:123456789012:certificate/0f1e2d3c-4b5a-6978-8a9b-0c1d2e3f4a5b';
const US_EAST_1_CERTIFICATE = 'arn:aws:acm:us-east-1:123456789012:certificate/1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';

/** The contexts the other infra tests synthesize, gathered into as few apps as cover every option. */
const SHAPES: [string, Record<string, unknown>][] = [
  ['the default app', {}],
  [
    'every operations option changed (no WAF, tracing, no canary, e-mail and topic alarms, ECB only)',
    {
      waf: 'false',
      alarmEmail: 'ops@example.com',
      alarmTopicArn: 'arn:aws:sns:eu-west-1:123456789012:ops-alarms',
      apiGatewayCloudWatchRole: 'false',
      tracing: 'true',
      canary: 'false',
      reservedConcurrency: 'false',
      sources: 'ecb',
      ingestSchedule: 'cron(0 6 * * ? *)',
      quotaAlarmPercent: '75',
      throttleRate: '50',
      throttleBurst: '100',
      ecbBaseUrl: 'https://ecb.example.com/stats/eurofxref',
      centralBankOrigin: 'https://mirror.example.com',
      crossCheckTolerance: '0.03',
      crossCheckExempt: 'CUP,LBP,VES',
      upgradeContact: 'sales@example.com',
    },
  ],
  [
    'custom domains, re-attached tables, SES and a named stage',
    {
      stage: 'staging',
      domainName: 'api.example.com',
      certificateArn: CERTIFICATE,
      ratesTableName: 'FxratesData-DataRates1A2B3C-OLD',
      accountsTableName: 'FxratesData-DataAccounts4D5E6F-OLD',
      dashboardDomainName: 'account.example.com',
      dashboardCertificateArn: US_EAST_1_CERTIFICATE,
      sesFromAddress: 'no-reply@example.com',
      sesIdentityArn: 'arn:aws:ses:eu-west-1:123456789012:identity/no-reply@example.com',
    },
  ],
];

describe('CloudFormation Validate at synthesis', () => {
  it.each(SHAPES)('finds nothing in %s', (_shape, context) => {
    synth.withScratchApp(
      { ...synth.cdkJsonContext(), ...synth.NO_ALARM_TARGET, ...synth.SKIP_BUNDLING, ...context },
      (app) => {
        buildApp(app);
        // A log retention that is not one of CloudWatch's periods: a warning, which does not fail the synthesis but
        // is reported, so the report shows that the rules ran over this app and found nothing else.
        new CfnResource(new Stack(app, 'Probe'), 'OddRetention', {
          type: 'AWS::Logs::LogGroup',
          properties: { RetentionInDays: 2 },
        });
        app.synth();
        const report = validateReportIn(app.outdir);
        expect(report?.conclusion).toBe('success');
        expect(findings(report)).toEqual(['W3030 warning Probe/OddRetention']);
      },
      { cloudFormationValidate: true },
    );
  });

  it("fails the synthesis on an error, under the project's context", () => {
    synth.withScratchApp(
      { ...synth.cdkJsonContext() },
      (app) => {
        // A table without a billing mode is provisioned, and then needs its throughput.
        new CfnResource(new Stack(app, 'Probe'), 'NoThroughput', {
          type: 'AWS::DynamoDB::Table',
          properties: {
            KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
            AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
          },
        });
        expect(() => app.synth()).toThrow(/ProvisionedThroughput[\s\S]*CloudFormation Validate/);
        const report = validateReportIn(app.outdir);
        expect(report?.conclusion).toBe('failure');
        expect(findings(report)).toEqual([expect.stringMatching(/^E\d+ error Probe\/NoThroughput$/)]);
      },
      { cloudFormationValidate: true },
    );
  });
});
