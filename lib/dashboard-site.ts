import { DefaultStackSynthesizer, Duration, RemovalPolicy, Stack, Token, Validations } from 'aws-cdk-lib';
import type * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import type * as cognito from 'aws-cdk-lib/aws-cognito';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { buildSite, REFERENCE_PAGE_CSP } from '../api-docs/site';
import { DASHBOARD_BASE_PATH } from '../lambdas/core/http/dashboard-routes';
import { buildDashboardFiles, dashboardCsp } from '../web/build';
import type { PageConfig } from '../web/src/config';
import { accountUniqueName } from './stage';

/** The page's settings file, read by the page at start (web/src/config.ts). */
export const PAGE_CONFIG_FILE = 'config.json';

/** Where the reference page and the OpenAPI document are published (api-docs/site.ts names the files). */
export const DOCS_PATH_PATTERN = '/docs*';

/** Cognito's endpoint in this stack's region: the page posts its sign-up and sign-in calls there. */
export function cognitoEndpoint(region: string): string {
  return `https://cognito-idp.${region}.amazonaws.com/`;
}

/** `dashboardCsp` wants a real origin, which an unresolved region is not: a stand-in's region part is replaced. */
export function pageCsp(region: string): string {
  const standIn = 'region-of-the-stack';
  const csp = dashboardCsp(cognitoEndpoint(standIn));
  const parts = csp.split(standIn);
  if (parts.length !== 2) throw new Error(`the page CSP names Cognito's origin ${parts.length - 1} times, not once`);
  return parts.join(region);
}

export interface DashboardSiteProps {
  userPool: cognito.IUserPool;
  client: cognito.IUserPoolClient;
  dashboardApi: apigw.RestApi;
  /** The public API's base URL (ends in /v1/), for the example request the page shows. */
  publicApiUrl: string;
  /** The operator's upgrade contact as a link, or undefined. */
  contact: string | undefined;
  /** The dashboard's own host name and its ACM certificate (in us-east-1), instead of the cloudfront.net name. */
  domain?: { domainName: string; certificateArn: string } | undefined;
}

/** The oldest TLS a viewer may use on the dashboard's custom domain (the default certificate cannot be set to it). */
export const DASHBOARD_TLS_POLICY = cloudfront.SecurityPolicyProtocol.TLS_V1_2_2021;

/** One CloudFront distribution for the page, the reference and the dashboard API: one origin, no CORS. */
export class DashboardSite extends Construct {
  readonly bucket: s3.Bucket;
  readonly logBucket: s3.Bucket;
  readonly distribution: cloudfront.Distribution;
  readonly pageHeaders: cloudfront.ResponseHeadersPolicy;
  readonly docsHeaders: cloudfront.ResponseHeadersPolicy;
  readonly deployment: s3deploy.BucketDeployment;
  readonly url: string;

  constructor(scope: Construct, id: string, props: DashboardSiteProps) {
    super(scope, id);
    const region = Stack.of(this).region;
    this.logBucket = accessLogBucket(this);
    this.bucket = filesBucket(this, this.logBucket);
    // CloudFront's policies are global to the account: their names carry the stage (in the stack name) and region.
    this.pageHeaders = new cloudfront.ResponseHeadersPolicy(this, 'PageHeaders', {
      responseHeadersPolicyName: accountUniqueName(this, 'page-headers'),
      comment: 'fxrates dashboard: strict CSP and security headers',
      securityHeadersBehavior: securityHeaders(pageCsp(region)),
    });
    this.docsHeaders = new cloudfront.ResponseHeadersPolicy(this, 'DocsHeaders', {
      responseHeadersPolicyName: accountUniqueName(this, 'docs-headers'),
      comment: 'fxrates API reference: no scripts, inline styles only',
      securityHeadersBehavior: securityHeaders(REFERENCE_PAGE_CSP),
    });
    this.distribution = this.createDistribution(props);
    this.url = `https://${props.domain?.domainName ?? this.distribution.distributionDomainName}/`;
    const { deployment, role } = this.deployFiles(props, region);
    this.deployment = deployment;
    this.acknowledgeFindings(role, props.domain !== undefined);
  }

  private createDistribution(props: DashboardSiteProps): cloudfront.Distribution {
    const filesOrigin = origins.S3BucketOrigin.withOriginAccessControl(this.bucket, {
      originAccessControl: new cloudfront.S3OriginAccessControl(this, 'FilesAccess', {
        originAccessControlName: accountUniqueName(this, 'site-files'),
        description: 'fxrates dashboard: CloudFront reads the site bucket',
      }),
    });
    // `/docs` is sent to `/docs/`, and a folder's URL is its index.html: S3 itself knows neither, and the default
    // root object covers the site's root only.
    const docsIndex = new cloudfront.Function(this, 'DocsIndex', {
      comment: 'fxrates: /docs/ serves docs/index.html',
      runtime: cloudfront.FunctionRuntime.JS_2_0,
      code: cloudfront.FunctionCode.fromInline(DOCS_INDEX_FUNCTION),
    });
    const domain = props.domain;
    return new cloudfront.Distribution(this, 'Distribution', {
      comment: 'fxrates account dashboard',
      ...(domain
        ? {
            domainNames: [domain.domainName],
            certificate: acm.Certificate.fromCertificateArn(this, 'Certificate', domain.certificateArn),
            minimumProtocolVersion: DASHBOARD_TLS_POLICY,
            sslSupportMethod: cloudfront.SSLMethod.SNI,
          }
        : {}),
      defaultRootObject: 'index.html',
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      enableLogging: true,
      logBucket: this.logBucket,
      logFilePrefix: 'distribution/',
      defaultBehavior: {
        origin: filesOrigin,
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: this.pageHeaders,
        compress: true,
      },
      additionalBehaviors: {
        [`${DASHBOARD_BASE_PATH}/*`]: {
          // The origin path stays empty: CloudFront appends the whole request path, `/api/keys`, which is the
          // dashboard API's stage `api` and its resource `/keys`.
          origin: new origins.RestApiOrigin(props.dashboardApi, { originPath: '' }),
          // A request that came over plain HTTP already exposed its token; refuse it rather than redirect it.
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
          // With caching disabled, this managed policy forwards every viewer header, Authorization included, and
          // keeps API Gateway's own Host header, which a regional endpoint requires.
          cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
          originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
          responseHeadersPolicy: this.pageHeaders,
          compress: true,
        },
        [DOCS_PATH_PATTERN]: {
          origin: filesOrigin,
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
          cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
          responseHeadersPolicy: this.docsHeaders,
          compress: true,
          functionAssociations: [{ function: docsIndex, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
        },
      },
    });
  }

  /** The copy function is BucketDeployment's own, with a role of ours (no managed policy) and our log retention. */
  private deployFiles(
    props: DashboardSiteProps,
    region: string,
  ): { deployment: s3deploy.BucketDeployment; role: iam.Role } {
    const config: PageConfig = {
      cognito: {
        endpoint: cognitoEndpoint(region),
        region,
        userPoolId: props.userPool.userPoolId,
        clientId: props.client.userPoolClientId,
      },
      apiBase: DASHBOARD_BASE_PATH,
      apiUrl: props.publicApiUrl,
      contact: props.contact ?? null,
    };
    const deploymentLogs = new logs.LogGroup(this, 'DeploymentLogs', {
      retention: logs.RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const deploymentRole = new iam.Role(this, 'DeploymentRole', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: 'fxrates dashboard files deployment',
    });
    deploymentLogs.grantWrite(deploymentRole);
    const deployment = new s3deploy.BucketDeployment(this, 'Deployment', {
      destinationBucket: this.bucket,
      sources: [
        ...Object.entries({ ...buildDashboardFiles(), ...buildSite() }).map(([path, content]) =>
          s3deploy.Source.data(path, content),
        ),
        s3deploy.Source.jsonData(PAGE_CONFIG_FILE, config),
      ],
      // Names carry no content hash, so browsers revalidate every file (a 304 when unchanged) and CloudFront keeps
      // a copy for its minimum TTL only: a deploy is live within seconds, without an invalidation.
      cacheControl: [s3deploy.CacheControl.noCache()],
      prune: true,
      retainOnDelete: false,
      role: deploymentRole,
      logGroup: deploymentLogs,
    });
    return { deployment, role: deploymentRole };
  }

  private acknowledgeFindings(deploymentRole: iam.Role, customDomain: boolean): void {
    if (!customDomain) {
      Validations.of(this.distribution).acknowledge({
        id: 'AwsSolutions-CFR4',
        reason:
          'Without dashboardDomainName the distribution answers on its cloudfront.net name with CloudFront’s default certificate, whose minimum protocol CloudFront fixes; with a custom domain and its us-east-1 certificate the distribution requires TLSv1.2_2021 and this finding does not arise.',
      });
    }
    Validations.of(this.distribution).acknowledge(
      {
        id: 'AwsSolutions-CFR1',
        reason:
          'The dashboard serves customers wherever they are, as the public API does; no market is excluded, so there is no country to restrict.',
      },
      {
        id: 'AwsSolutions-CFR2',
        reason:
          'A CloudFront web ACL can only be created in us-east-1 and these stacks deploy to any region; the dashboard API behind /api/* carries the service’s regional web ACL on its stage (context flag waf), and the rest is public static files.',
      },
    );
    const stack = Stack.of(this);
    const filesArn = `<${stack.getLogicalId(this.bucket.node.defaultChild as s3.CfnBucket)}.Arn>`;
    Validations.of(deploymentRole).acknowledge(
      {
        id: `AwsSolutions-IAM5[Resource::${filesArn}/*]`,
        reason:
          'The copy function writes, replaces and prunes the files of the site bucket, whose object names are only known at deploy time; the grant names this bucket only.',
      },
      {
        id: `AwsSolutions-IAM5[Resource::${assetBucketFinding(stack)}/*]`,
        reason:
          'BucketDeployment reads the zip files it stages in the CDK bootstrap asset bucket under content-hash names; its grant is read-only, on that bucket.',
      },
      {
        id: 'AwsSolutions-IAM5[Action::s3:GetObject*]',
        reason:
          'Object reads with the wildcard of the CDK bucket grants (GetObject and its version, ACL and tagging reads), on the asset and site buckets only.',
      },
      {
        id: 'AwsSolutions-IAM5[Action::s3:GetBucket*]',
        reason: 'Bucket metadata reads of the same CDK bucket grants, on the asset and site buckets only.',
      },
      {
        id: 'AwsSolutions-IAM5[Action::s3:List*]',
        reason: '`aws s3 sync` lists the site bucket to find the files to prune; on the asset and site buckets only.',
      },
      {
        id: 'AwsSolutions-IAM5[Action::s3:DeleteObject*]',
        reason: 'Pruning old files and emptying the site bucket when the stack is deleted; on the site bucket only.',
      },
      {
        id: 'AwsSolutions-IAM5[Action::s3:Abort*]',
        reason: 'Aborting the copy function’s own multipart uploads into the site bucket; on the site bucket only.',
      },
    );
    const copyFunction = stack.node.children.find(
      (child): child is lambda.Function => child instanceof lambda.Function && child.role === deploymentRole,
    );
    if (!copyFunction) throw new Error('the BucketDeployment copy function was not found beside the stack');
    Validations.of(copyFunction).acknowledge({
      id: 'AwsSolutions-L1',
      reason:
        'BucketDeployment fixes the Python runtime of its copy function, which runs only while CloudFormation deploys the files; it is not reachable from outside and is updated with aws-cdk-lib.',
    });
  }
}

const PRIVATE_BUCKET = {
  blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
  enforceSSL: true,
  encryption: s3.BucketEncryption.S3_MANAGED,
} as const;

/**
 * Access logs of the distribution and the site bucket. CloudFront's standard logs are written through an ACL grant,
 * hence object ownership "bucket owner preferred" (ACLs on) for this bucket only.
 */
function accessLogBucket(scope: Construct): s3.Bucket {
  return new s3.Bucket(scope, 'AccessLogs', {
    ...PRIVATE_BUCKET,
    objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_PREFERRED,
    lifecycleRules: [{ expiration: Duration.days(90) }],
    // Logs are evidence: kept when the stack goes, like the tables (docs/operating.md: what a destroy leaves).
    removalPolicy: RemovalPolicy.RETAIN,
  });
}

function filesBucket(scope: Construct, logBucket: s3.Bucket): s3.Bucket {
  return new s3.Bucket(scope, 'Files', {
    ...PRIVATE_BUCKET,
    serverAccessLogsBucket: logBucket,
    serverAccessLogsPrefix: 'site-bucket/',
    // Everything in it is rebuilt from the repository on each deploy; the deployment empties it on deletion.
    removalPolicy: RemovalPolicy.DESTROY,
  });
}

/** The bootstrap asset bucket's name as cdk-nag prints it (an unfixed pseudo parameter as `<AWS::Region>`). */
function assetBucketFinding(stack: Stack): string {
  const synthesizer = stack.synthesizer;
  const qualifier =
    (synthesizer instanceof DefaultStackSynthesizer ? synthesizer.bootstrapQualifier : undefined) ??
    DefaultStackSynthesizer.DEFAULT_QUALIFIER;
  const known: Record<string, string> = {
    'AWS::Region': stack.region,
    'AWS::AccountId': stack.account,
    'AWS::Partition': stack.partition,
  };
  const pseudo = (name: string) => {
    const value = known[name];
    return value === undefined || Token.isUnresolved(value) ? `<${name}>` : value;
  };
  const bucket = DefaultStackSynthesizer.DEFAULT_FILE_ASSETS_BUCKET_NAME.replace(/\$\{Qualifier\}/, qualifier).replace(
    /\$\{(AWS::\w+)\}/g,
    (_, name: string) => pseudo(name),
  );
  return `arn:${pseudo('AWS::Partition')}:s3:::${bucket}`;
}

/** Headers CloudFront sets on every answer of a behaviour, whatever the origin sent. */
function securityHeaders(csp: string): cloudfront.ResponseSecurityHeadersBehavior {
  return {
    contentSecurityPolicy: { contentSecurityPolicy: csp, override: true },
    strictTransportSecurity: {
      accessControlMaxAge: Duration.days(365),
      includeSubdomains: true,
      override: true,
    },
    contentTypeOptions: { override: true },
    frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
    referrerPolicy: { referrerPolicy: cloudfront.HeadersReferrerPolicy.NO_REFERRER, override: true },
  };
}

/** Viewer-request function of the /docs behaviour (CloudFront Functions JavaScript runtime 2.0). */
const DOCS_INDEX_FUNCTION = `function handler(event) {
  var request = event.request;
  if (request.uri === '/docs') {
    return { statusCode: 301, statusDescription: 'Moved Permanently', headers: { location: { value: '/docs/' } } };
  }
  if (request.uri.endsWith('/')) request.uri += 'index.html';
  return request;
}`;
