import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as sns from 'aws-cdk-lib/aws-sns';
import { Construct } from 'constructs';
import { createAlarmTopic } from './monitoring/alarm-topic';
import { createAlarms } from './monitoring/alarms';
import { createInsightRules, type InsightRules } from './monitoring/contributor-insights';
import { createDashboard } from './monitoring/dashboard';
import { type MonitoringProps, monitoringMetrics } from './monitoring/metrics';

export { ALARM_TOPIC_KEY_PENDING_WINDOW } from './monitoring/alarm-topic';
export { INSIGHT_RULES } from './monitoring/contributor-insights';
export { NEAREST_LIMIT_QUERY } from './monitoring/dashboard';
export { METRICS, type MonitoringProps } from './monitoring/metrics';
export { ALARM_THRESHOLDS, ingestionAlarmFigures, scheduleIntervalHours } from './monitoring/thresholds';

/** The operators' dashboard, the alarms that page them, and the Contributor Insights rules that name accounts. */
export class Monitoring extends Construct {
  readonly dashboard: cloudwatch.Dashboard;
  readonly topic: sns.Topic;
  /** Every alarm, by a stable key (`sourceFailures:<source>`, `lambdaThrottles:<group>` for the per-item ones). */
  readonly alarms: Readonly<Record<string, cloudwatch.Alarm>>;
  readonly insightRules: InsightRules;

  // Every part is created in this construct's scope, not a child's: the construct paths make the logical ids.
  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    const { config } = props;
    this.topic = createAlarmTopic(this, config);
    const alarmActions: cloudwatch.IAlarmAction[] = [new actions.SnsAction(this.topic)];
    if (config.alarmTopicArn) {
      alarmActions.push(
        new actions.SnsAction(sns.Topic.fromTopicArn(this, 'ExistingAlarmTopic', config.alarmTopicArn)),
      );
    }
    const metrics = monitoringMetrics(this, props);
    this.insightRules = createInsightRules(this, props.api.authorizerFunction.logGroup.logGroupName);
    this.alarms = createAlarms(this, props, metrics, this.insightRules, alarmActions);
    this.dashboard = createDashboard(this, props, metrics, this.insightRules, this.alarms);
  }
}
