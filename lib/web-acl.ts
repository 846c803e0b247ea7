import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';
import { ERROR_CATALOG } from '../lambdas/core/domain/errors';
import { API_KEY_HEADER } from '../lambdas/core/http/headers';
import { ERROR_CACHE_CONTROL } from '../lambdas/core/http/routes';
import { stageOf, stagePrefix } from './stage';

export interface WebAclProps {
  /** ARN of the API Gateway stage to protect. */
  stageArn: string;
  /** Requests per five minutes from one IP address before it is blocked. */
  rateLimitPerIp: number;
  /** Requests per minute with one X-API-Key value before that key is blocked. */
  rateLimitPerKey: number;
}

/** The ACL's CloudWatch metric name (the `WebACL` dimension of its AWS/WAFV2 metrics): `fxrates-web-acl` by default. */
export function webAclMetricName(stage: string | undefined): string {
  return `${stagePrefix(stage)}-web-acl`;
}

/** The window of the per-key rule: one minute, the unit of the plans' per-minute limits. */
export const KEY_RATE_WINDOW_SECONDS = 60;
/** The window of the per-IP rule. */
export const IP_RATE_WINDOW_SECONDS = 300;

/** The rules of the web ACL, by name, in the order WAF evaluates them. */
export const WAF_RULES = {
  ipReputation: 'aws-ip-reputation',
  ratePerKey: 'rate-limit-per-key',
  ratePerIp: 'rate-limit-per-ip',
  commonRuleSet: 'aws-common-rule-set',
} as const;

/** The common rule set's rule that blocks requests without a User-Agent; machine clients often send none. */
export const NO_USER_AGENT_RULE = 'NoUserAgent_HEADER';

/** The body WAF answers a rate-limited request with: the API's error envelope, as the authorizer would. */
export function rateLimitBody(message: string): string {
  return JSON.stringify({ success: false, error: { code: 'rate-limit-exceeded', message } });
}

/** Custom response bodies of the web ACL, by key. */
export const WAF_RESPONSE_BODIES = {
  'rate-limit-per-key': rateLimitBody(
    `Too many requests with this API key; the firewall refuses them until the rate falls (retry after ${KEY_RATE_WINDOW_SECONDS} seconds).`,
  ),
  'rate-limit-per-ip': rateLimitBody(
    `Too many requests from this address; the firewall refuses them until the rate falls (retry after ${KEY_RATE_WINDOW_SECONDS} seconds).`,
  ),
} as const;

/**
 * A regional WAFv2 web ACL on the API stage, its rules in this order:
 * 1. the AWS IP reputation list (addresses AWS threat intelligence links to bots and attacks);
 * 2. a rate-based rule per X-API-Key value over one minute, a little above the highest plan's per-minute limit: one
 *    leaked key cannot use up the stage throttle all tenants share, nor hammer its account's usage item, and WAF
 *    answers it 429 in the API's envelope with Retry-After before the authorizer runs;
 * 3. a rate-based rule per client IP over five minutes, answered alike;
 * 4. the AWS common rule set, with its rule against requests without a User-Agent set to count only (machine
 *    clients often send none).
 * Other blocks reach the client as the WAF_FILTERED gateway response (403). One web ACL serves every stage of the
 * service (`associate`): its fixed monthly price is per ACL, and its rules suit each stage.
 */
export class WebAcl extends Construct {
  readonly acl: wafv2.CfnWebACL;
  readonly association: wafv2.CfnWebACLAssociation;

  constructor(scope: Construct, id: string, props: WebAclProps) {
    super(scope, id);
    const visibility = (metricName: string): wafv2.CfnWebACL.VisibilityConfigProperty => ({
      cloudWatchMetricsEnabled: true,
      metricName,
      sampledRequestsEnabled: true,
    });
    const rateLimited = (bodyKey: keyof typeof WAF_RESPONSE_BODIES): wafv2.CfnWebACL.RuleActionProperty => ({
      block: {
        customResponse: {
          responseCode: ERROR_CATALOG['rate-limit-exceeded'].status,
          customResponseBodyKey: bodyKey,
          responseHeaders: [
            { name: 'Retry-After', value: String(KEY_RATE_WINDOW_SECONDS) },
            { name: 'Cache-Control', value: ERROR_CACHE_CONTROL },
          ],
        },
      },
    });
    this.acl = new wafv2.CfnWebACL(this, 'Acl', {
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      // The metric dimension `WebACL` of the whole ACL: per stage, or two stages in one region would add up.
      visibilityConfig: visibility(webAclMetricName(stageOf(this))),
      customResponseBodies: Object.fromEntries(
        Object.entries(WAF_RESPONSE_BODIES).map(([key, content]) => [
          key,
          { contentType: 'APPLICATION_JSON', content },
        ]),
      ),
      rules: [
        {
          name: WAF_RULES.ipReputation,
          priority: 0,
          overrideAction: { none: {} },
          statement: {
            managedRuleGroupStatement: { vendorName: 'AWS', name: 'AWSManagedRulesAmazonIpReputationList' },
          },
          visibilityConfig: visibility('fxrates-aws-ip-reputation'),
        },
        {
          name: WAF_RULES.ratePerKey,
          priority: 1,
          action: rateLimited('rate-limit-per-key'),
          statement: {
            rateBasedStatement: {
              limit: props.rateLimitPerKey,
              evaluationWindowSec: KEY_RATE_WINDOW_SECONDS,
              // Requests without the header are not counted here (the per-IP rule still sees them).
              aggregateKeyType: 'CUSTOM_KEYS',
              customKeys: [
                {
                  header: { name: API_KEY_HEADER.toLowerCase(), textTransformations: [{ priority: 0, type: 'NONE' }] },
                },
              ],
            },
          },
          visibilityConfig: visibility('fxrates-rate-limit-per-key'),
        },
        {
          name: WAF_RULES.ratePerIp,
          priority: 2,
          action: rateLimited('rate-limit-per-ip'),
          statement: {
            rateBasedStatement: {
              limit: props.rateLimitPerIp,
              aggregateKeyType: 'IP',
              evaluationWindowSec: IP_RATE_WINDOW_SECONDS,
            },
          },
          visibilityConfig: visibility('fxrates-rate-limit-per-ip'),
        },
        {
          name: WAF_RULES.commonRuleSet,
          priority: 3,
          overrideAction: { none: {} },
          statement: {
            managedRuleGroupStatement: {
              vendorName: 'AWS',
              name: 'AWSManagedRulesCommonRuleSet',
              ruleActionOverrides: [{ name: NO_USER_AGENT_RULE, actionToUse: { count: {} } }],
            },
          },
          visibilityConfig: visibility('fxrates-aws-common-rule-set'),
        },
      ],
    });
    this.association = new wafv2.CfnWebACLAssociation(this, 'Association', {
      resourceArn: props.stageArn,
      webAclArn: this.acl.attrArn,
    });
  }

  /**
   * Puts this web ACL in front of another stage. The association is created in `scope`, beside the stage it
   * protects. Requests that reach a stage through CloudFront come from CloudFront's addresses, so for such a stage
   * the per-IP rule caps each edge address rather than each person.
   */
  associate(scope: Construct, id: string, stageArn: string): wafv2.CfnWebACLAssociation {
    return new wafv2.CfnWebACLAssociation(scope, id, { resourceArn: stageArn, webAclArn: this.acl.attrArn });
  }
}
