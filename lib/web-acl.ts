import * as wafv2 from 'aws-cdk-lib/aws-wafv2';
import { Construct } from 'constructs';

export interface WebAclProps {
  /** ARN of the API Gateway stage to protect. */
  stageArn: string;
  /** Requests per five minutes from one IP address before it is blocked. */
  rateLimitPerIp: number;
}

/**
 * A regional WAFv2 web ACL on the API stage: a rate-based rule per client IP, which caps one address far
 * below the stage throttle so a single client cannot exhaust it for everyone, and the AWS common rule set.
 * Blocked requests reach the client as the WAF_FILTERED gateway response. One web ACL serves every stage of the
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
    this.acl = new wafv2.CfnWebACL(this, 'Acl', {
      scope: 'REGIONAL',
      defaultAction: { allow: {} },
      visibilityConfig: visibility('fxrates-web-acl'),
      rules: [
        {
          name: 'rate-limit-per-ip',
          priority: 0,
          action: { block: {} },
          statement: {
            rateBasedStatement: {
              limit: props.rateLimitPerIp,
              aggregateKeyType: 'IP',
              evaluationWindowSec: 300,
            },
          },
          visibilityConfig: visibility('fxrates-rate-limit-per-ip'),
        },
        {
          name: 'aws-common-rule-set',
          priority: 1,
          overrideAction: { none: {} },
          statement: { managedRuleGroupStatement: { vendorName: 'AWS', name: 'AWSManagedRulesCommonRuleSet' } },
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
