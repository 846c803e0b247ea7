/**
 * cdk.json adopts the feature flags aws-cdk-lib currently recommends, except the few the project keeps on purpose
 * (README: "Feature flags"). The tests below also show what adopting them changes.
 */
import { Duration, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as cxapi from 'aws-cdk-lib/cx-api';
import { FUNCTION_DEFAULTS } from '../../lib/fxrates-function';
import * as synth from './synth';

/** Flags whose recommended value the project does not take, each for the reason given. */
const KEPT = {
  // Cross-stack references stay CloudFormation exports: the data stack cannot be deleted, nor its table names
  // changed, while the service stack reads them.
  '@aws-cdk/core:defaultCrossStackReferences': 'strong',
  // The service deploys to the commercial partition only; more partitions only add lookup tables.
  '@aws-cdk/core:target-partitions': ['aws'],
  // Usage data about how the app uses constructs; the project sends no telemetry (npm scripts turn the CLI's off).
  '@aws-cdk/core:enableAdditionalMetadataCollection': false,
} as const;

const AUTHORIZER_FLAG = '@aws-cdk/aws-apigateway:authorizerChangeDeploymentLogicalId';

describe('cdk.json', () => {
  const context = synth.cdkJsonContext();

  it('sets every currently recommended flag to its recommended value, except the ones kept on purpose', () => {
    const recommended = cxapi.CURRENTLY_RECOMMENDED_FLAGS as Record<string, unknown>;
    expect(Object.keys(recommended).length).toBeGreaterThan(50);
    const differing = Object.entries(recommended)
      .filter(([flag, value]) => JSON.stringify(context[flag]) !== JSON.stringify(value))
      .map(([flag]) => flag)
      .sort();
    expect(differing).toEqual(Object.keys(KEPT).sort());
    for (const [flag, value] of Object.entries(KEPT)) expect([flag, context[flag]]).toEqual([flag, value]);
  });

  it('sets no flag that aws-cdk-lib does not know', () => {
    const known = new Set(Object.keys(cxapi.CURRENTLY_RECOMMENDED_FLAGS));
    expect(Object.keys(context).filter((key) => key.startsWith('@aws-cdk') && !known.has(key))).toEqual([]);
  });
});

describe(`${AUTHORIZER_FLAG}: an authorizer change redeploys the API`, () => {
  /** The deployment's logical id of a small REST API whose authorizer caches its results for `ttl` seconds. */
  function deploymentId(context: Record<string, unknown>, ttl: number): string {
    return synth.withScratchApp(context, (app) => {
      const stack = new Stack(app, 'Probe');
      const handler = new lambda.Function(stack, 'Handler', {
        runtime: FUNCTION_DEFAULTS.runtime,
        handler: 'index.handler',
        code: lambda.Code.fromInline('exports.handler = async () => ({ principalId: "x" });'),
      });
      const api = new apigw.RestApi(stack, 'Api', { cloudWatchRole: false });
      const authorizer = new apigw.RequestAuthorizer(stack, 'Authorizer', {
        handler,
        identitySources: [apigw.IdentitySource.header('X-API-Key')],
        resultsCacheTtl: Duration.seconds(ttl),
      });
      api.root.addMethod('GET', new apigw.MockIntegration(), {
        authorizer,
        authorizationType: apigw.AuthorizationType.CUSTOM,
      });
      // The hash that makes the id change is added when the template is rendered, so read it from the template.
      const ids = Object.keys(Template.fromStack(stack).findResources('AWS::ApiGateway::Deployment'));
      expect(ids).toHaveLength(1);
      return ids[0] ?? '';
    });
  }

  it('gives the deployment a new logical id (so CloudFormation deploys the stage again) with the flag', () => {
    expect(deploymentId(synth.cdkJsonContext(), 0)).not.toBe(deploymentId(synth.cdkJsonContext(), 60));
  });

  it('would keep the same deployment, and the old authorizer live, without it', () => {
    const without = { ...synth.cdkJsonContext(), [AUTHORIZER_FLAG]: false };
    expect(deploymentId(without, 0)).toBe(deploymentId(without, 60));
  });
});

describe('flags as the app shows them', () => {
  let s: synth.Synthesized;
  beforeAll(() => {
    s = synth.synthesize(synth.SKIP_BUNDLING);
  }, 120_000);
  afterAll(() => s?.dispose());

  it('writes access logs to the log group ARN built from its name, which drift detection matches', () => {
    // @aws-cdk/aws-apigateway:logGroupDestinationArnWithoutWildcard: not the `Arn` attribute, which ends in `:*`.
    for (const api of [s.fx.service.api, s.fx.service.dashboardApi]) {
      const stage = synth.resourcesOf(s.service, 'AWS::ApiGateway::Stage')[
        synth.logicalIdOf(api.restApi.deploymentStage)
      ];
      const destination = JSON.stringify(
        (synth.propsOf(stage).AccessLogSetting as { DestinationArn: unknown }).DestinationArn,
      );
      expect(destination).toContain(synth.logicalIdOf(api.accessLogs));
      expect(destination).not.toContain('"Arn"');
    }
  });
});
