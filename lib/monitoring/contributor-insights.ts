import { type Duration, Stack } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type { Construct } from 'constructs';
import { DECISION_FIELDS, REFUSAL_VERDICTS } from '../../lambdas/core/metric-names';

/** The Contributor Insights rules over the authorizer's decision lines, by their name after the stack's. */
export const INSIGHT_RULES = {
  requests: 'requests-by-account',
  refusals: 'refusals-by-account',
  quota: 'quota-used-by-account',
} as const;

export type InsightRules = Readonly<Record<keyof typeof INSIGHT_RULES, cloudwatch.CfnInsightRule>>;

interface InsightRuleFilter {
  Match: string;
  In?: readonly string[];
  EqualTo?: number;
  IsPresent?: boolean;
}

/** The rules that name accounts, read from the authorizer's log group. */
export function createInsightRules(scope: Construct, authorizerLogGroupName: string): InsightRules {
  const stack = Stack.of(scope);
  const field = (name: string) => `$.${name}`;
  const rule = (
    key: keyof typeof INSIGHT_RULES,
    contribution: { Keys: string[]; ValueOf?: string; Filters: InsightRuleFilter[] },
    aggregateOn: 'Count' | 'Sum',
  ) =>
    new cloudwatch.CfnInsightRule(scope, `${key[0]?.toUpperCase()}${key.slice(1)}InsightRule`, {
      ruleName: `${stack.stackName}-${INSIGHT_RULES[key]}`,
      ruleState: 'ENABLED',
      ruleBody: stack.toJsonString({
        Schema: { Name: 'CloudWatchLogRule', Version: 1 },
        LogGroupNames: [authorizerLogGroupName],
        LogFormat: 'JSON',
        Contribution: contribution,
        AggregateOn: aggregateOn,
      }),
    });
  const decisionLine: InsightRuleFilter = { Match: field(DECISION_FIELDS.verdict), IsPresent: true };
  const ofAnAccount: InsightRuleFilter = { Match: field(DECISION_FIELDS.accountId), IsPresent: true };
  return {
    // Every request whose key named an account, admitted or not.
    requests: rule(
      'requests',
      { Keys: [field(DECISION_FIELDS.accountId), field(DECISION_FIELDS.plan)], Filters: [decisionLine, ofAnAccount] },
      'Count',
    ),
    // Refusals of valid keys, by account and reason.
    refusals: rule(
      'refusals',
      {
        Keys: [field(DECISION_FIELDS.accountId), field(DECISION_FIELDS.verdict)],
        Filters: [{ Match: field(DECISION_FIELDS.verdict), In: REFUSAL_VERDICTS }, ofAnAccount],
      },
      'Count',
    ),
    // One sample per account and minute, so a contributor's value in a one-minute period is its percentage.
    quota: rule(
      'quota',
      {
        Keys: [field(DECISION_FIELDS.accountId), field(DECISION_FIELDS.plan)],
        ValueOf: field(DECISION_FIELDS.percentUsed),
        Filters: [{ Match: field(DECISION_FIELDS.quotaSample), EqualTo: 1 }],
      },
      'Sum',
    ),
  };
}

/** A dashboard graph of a Contributor Insights rule's top contributors (CDK has no widget for it). */
export class ContributorInsightsWidget extends cloudwatch.ConcreteWidget {
  constructor(
    private readonly props: {
      title: string;
      ruleName: string;
      region: string;
      orderBy: 'Sum' | 'Maximum';
      period: Duration;
      width: number;
      height: number;
    },
  ) {
    super(props.width, props.height);
  }

  toJson(): unknown[] {
    return [
      {
        type: 'metric',
        width: this.width,
        height: this.height,
        x: this.x,
        y: this.y,
        properties: {
          title: this.props.title,
          region: this.props.region,
          view: 'timeSeries',
          stacked: false,
          period: this.props.period.toSeconds(),
          insightRule: { maxContributorCount: 10, orderBy: this.props.orderBy, ruleName: this.props.ruleName },
          legend: { position: 'right' },
        },
      },
    ];
  }
}
