/**
 * Deployment settings from CDK context (`cdk deploy -c waf=false`, or cdk.json); command-line values arrive as
 * strings, and a bad value fails the synth with the flag's name.
 */
import type { IConstruct } from 'constructs';
import * as z from 'zod';
import { contactLink } from '../lambdas/core/dashboard/deps';
import { PLAN_IDS, PLANS } from '../lambdas/core/domain/plans';
import { SOURCE_IDS } from '../lambdas/core/domain/rates';

const booleanFlag = (fallback: boolean) =>
  z
    .union([z.boolean(), z.enum(['true', 'false'])])
    .optional()
    .transform((v) => (v === undefined ? fallback : v === true || v === 'true'));

const integerFlag = (fallback: number, min: number, max: number) =>
  z.coerce.number().int().min(min).max(max).optional().default(fallback);

const tableName = z.string().regex(/^[A-Za-z0-9_.-]{3,255}$/, 'must be a DynamoDB table name');

const hostName = z
  .string()
  .regex(/^(?=.{4,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/, 'must be a lower-case host name');

const acmCertificateArn = z
  .string()
  .regex(
    /^arn:aws[a-z-]*:acm:[a-z]{2}(-[a-z]+)+-\d:\d{12}:certificate\/[0-9a-f-]{36}$/,
    'must be an ACM certificate ARN (arn:aws:acm:<region>:<account>:certificate/<id>)',
  );

/** Short: it goes into names of at most 64 characters together with the region. */
const STAGE_PATTERN = /^[a-z](?:[a-z0-9-]{0,14}[a-z0-9])?$/;

/** The only region whose ACM certificates CloudFront accepts. */
const CLOUDFRONT_CERTIFICATE_REGION = 'us-east-1';

/** An SES identity's ARN; its groups are the region, the account and the identity (an address or a domain). */
const SES_IDENTITY_ARN = /^arn:aws[a-z-]*:ses:([a-z]{2}(?:-[a-z]+)+-\d):(\d{12}):identity\/([^/\s]+)$/;

/** The highest per-minute limit of any plan, with the 20 % margin WAF's approximate counting needs. */
export const DEFAULT_KEY_RATE_LIMIT = Math.ceil(Math.max(...PLAN_IDS.map((id) => PLANS[id].perMinute)) * 1.2);

const PAIRS = [
  ['domainName', 'certificateArn'],
  ['ratesTableName', 'accountsTableName'],
  ['dashboardDomainName', 'dashboardCertificateArn'],
  ['sesFromAddress', 'sesIdentityArn'],
] as const;

export const DeployConfigSchema = z.object({
  /** WAFv2 web ACL in front of the stage (rate-based rule per IP plus the AWS common rule set). */
  waf: booleanFlag(true),
  /** Requests per 5 minutes from one IP before the WAF blocks it. */
  wafRateLimit: integerFlag(3000, 10, 2_000_000_000),
  /** Stage-wide steady-state request rate (per second) and burst. */
  throttleRate: integerFlag(500, 1, 10_000),
  throttleBurst: integerFlag(1000, 1, 5_000),
  /** In order of preference (the rate rule: ECB, issuing bank, other official publishers, currency-api last). */
  sources: z
    .string()
    .optional()
    .default(SOURCE_IDS.join(','))
    .transform((s) => s.split(',').map((x) => x.trim()))
    .pipe(z.array(z.enum(SOURCE_IDS)).min(1))
    .transform((ids) => [...new Set(ids)]),
  ingestSchedule: z
    .string()
    .optional()
    .default('rate(1 hour)')
    .refine((s) => /^(rate|cron)\(.+\)$/.test(s), 'must be rate(...) or cron(...)'),
  /** Upstream base URLs; unset ones keep the function's built-in defaults. */
  ecbBaseUrl: z.url().optional(),
  currencyApiBaseUrl: z.url().optional(),
  currencyApiFallbackUrl: z.url().optional(),
  /** One origin every central bank is asked at instead of its own host (a mirror); unset: each its own. */
  centralBankOrigin: z.url().optional(),
  /** The cross-check's tolerance, a fraction (0.05 = 5 %); unset: the function's default, 5 %. */
  crossCheckTolerance: z.coerce.number().gt(0).max(1).optional(),
  /**
   * Currencies whose over-tolerance quotes the cross-check alarm does not count (known multi-rate currencies),
   * comma-separated, or `none`; unset: the function's default, CUP and LBP.
   */
  crossCheckExempt: z
    .string()
    .regex(/^(none|[A-Z]{3}(,[A-Z]{3})*)$/, 'must be ISO currency codes separated by commas, or none')
    .optional(),
  /** One alarm target is required unless `alarmNotifications=none` (see ALARM_TARGET_REQUIRED). */
  alarmEmail: z.email().optional(),
  alarmTopicArn: z
    .string()
    .regex(
      /^arn:aws[a-z-]*:sns:[a-z]{2}(-[a-z]+)+-\d:\d{12}:[A-Za-z0-9_-]{1,256}(\.fifo)?$/,
      'must be an SNS topic ARN (arn:aws:sns:<region>:<account>:<name>)',
    )
    .optional(),
  /** `none`: synthesize without any alarm target, on purpose (tests, a throwaway stack). */
  alarmNotifications: z.enum(['none'], { message: "the only value is 'none'" }).optional(),
  /** Share of its plan's quota (percent) past which an account raises the quota alarm. */
  quotaAlarmPercent: integerFlag(90, 50, 100),
  /** On by default: without the account's role a fresh account would roll back (see CLOUDWATCH_ROLE_NOTICE). */
  apiGatewayCloudWatchRole: booleanFlag(true),
  /** X-Ray: active tracing on every function and both stages, and FXRATES_TRACING=true for the code. Off by default. */
  tracing: booleanFlag(false),
  /** Per X-API-Key value and minute; raise it for accounts whose per-minute limit is overridden above a plan's. */
  wafKeyRateLimit: integerFlag(DEFAULT_KEY_RATE_LIMIT, 10, 2_000_000_000),
  /** CodeDeploy canary (10 % for 5 minutes); `false` shifts all at once. Both roll back on alarm. */
  canary: booleanFlag(true),
  /** The public API's custom domain and its certificate (stack region); the execute-api endpoint is then off. */
  domainName: hostName.optional(),
  certificateArn: acmCertificateArn.optional(),
  /** Retained tables of an earlier deploy (docs/deploying.md: "Re-attaching the retained tables"). */
  ratesTableName: tableName.optional(),
  accountsTableName: tableName.optional(),
  /** lib/concurrency.ts; `false` for accounts whose concurrency limit is too low to reserve any (often 10). */
  reservedConcurrency: booleanFlag(true),
  /** Whom customers ask for a plan change, checked by the dashboard functions' own rule and kept as their link. */
  upgradeContact: z
    .string()
    .optional()
    .transform((value, ctx) => {
      try {
        return contactLink(value) ?? undefined;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be an e-mail address or an https:// URL' });
        return z.NEVER;
      }
    }),
  /** A further copy of the service in one account (lib/stage.ts); unset keeps today's stack names. */
  stage: z
    .string()
    .regex(STAGE_PATTERN, 'must be 1 to 16 lower-case letters, digits or hyphens, starting with a letter')
    .optional(),
  /** The dashboard's custom domain and its certificate (us-east-1, CloudFront's only region). */
  dashboardDomainName: hostName.optional(),
  dashboardCertificateArn: acmCertificateArn
    .refine(
      (arn) => arn.split(':')[3] === CLOUDFRONT_CERTIFICATE_REGION,
      `must be a certificate in ${CLOUDFRONT_CERTIFICATE_REGION}: CloudFront uses ACM certificates from that region only`,
    )
    .optional(),
  /** Send the dashboard's codes through SES instead of Cognito's capped built-in e-mail. */
  sesFromAddress: z.email().optional(),
  sesIdentityArn: z
    .string()
    .regex(
      SES_IDENTITY_ARN,
      'must be an SES identity ARN (arn:aws:ses:<region>:<account>:identity/<address or domain>)',
    )
    .optional(),
});

/** The message of a synth without any alarm target; it names every way out. */
export const ALARM_TARGET_REQUIRED =
  'alarms need somewhere to go: set alarmEmail (an e-mail address) or alarmTopicArn (an existing SNS topic ARN), ' +
  'e.g. cdk deploy -c alarmEmail=ops@example.com, or set alarmNotifications=none to deploy alarms that notify nobody';

export type DeployConfig = z.infer<typeof DeployConfigSchema>;

/** The context keys operators may set; docs/deploying.md lists them (a unit test keeps it so). */
export const CONTEXT_KEYS = Object.keys(DeployConfigSchema.shape) as (keyof typeof DeployConfigSchema.shape)[];

export function readDeployConfig(lookup: (key: string) => unknown): DeployConfig {
  const raw: Record<string, unknown> = {};
  for (const key of CONTEXT_KEYS) {
    const value = lookup(key);
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const parsed = DeployConfigSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || 'context'}: ${i.message}`);
    throw new Error(`Invalid CDK context: ${problems.join('; ')}`);
  }
  const config = parsed.data;
  if (!config.alarmEmail && !config.alarmTopicArn && config.alarmNotifications !== 'none') {
    throw new Error(`Invalid CDK context: alarmEmail/alarmTopicArn: ${ALARM_TARGET_REQUIRED}`);
  }
  for (const [a, b] of PAIRS) {
    if ((config[a] === undefined) !== (config[b] === undefined)) {
      throw new Error(`Invalid CDK context: ${a}/${b}: set both or neither`);
    }
  }
  if (config.sesFromAddress && config.sesIdentityArn) {
    const problem = sesSenderProblem(config.sesFromAddress, config.sesIdentityArn);
    if (problem) throw new Error(`Invalid CDK context: sesFromAddress/sesIdentityArn: ${problem}`);
  }
  return config;
}

interface SesIdentity {
  region: string;
  account: string;
  /** A verified address (with an `@`) or a verified domain. */
  identity: string;
}

export function parseSesIdentityArn(arn: string): SesIdentity {
  const match = SES_IDENTITY_ARN.exec(arn);
  if (!match?.[1] || !match[2] || !match[3]) throw new Error(`not an SES identity ARN: ${arn}`);
  return { region: match[1], account: match[2], identity: match[3].toLowerCase() };
}

/** SES sends only from a verified address itself, or from any address of a verified domain. */
function sesSenderProblem(from: string, identityArn: string): string | undefined {
  const { identity } = parseSesIdentityArn(identityArn);
  const address = from.toLowerCase();
  if (identity.includes('@')) {
    return address === identity ? undefined : `the From address must be the verified address ${identity}`;
  }
  return address.endsWith(`@${identity}`) ? undefined : `the From address must be an address of the domain ${identity}`;
}

/** For constructs every part of the app creates alike; readDeployConfig has already validated the value. */
export function contextSetting<K extends keyof DeployConfig>(scope: IConstruct, key: K): DeployConfig[K] {
  const value = scope.node.tryGetContext(key);
  return DeployConfigSchema.shape[key].parse(value === '' ? undefined : value) as DeployConfig[K];
}
