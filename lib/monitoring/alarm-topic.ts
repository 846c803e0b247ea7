import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type { Construct } from 'constructs';
import type { DeployConfig } from '../config';

/** How long KMS waits before deleting the alarm topic's key once the stack is deleted: 7 days, its minimum. */
export const ALARM_TOPIC_KEY_PENDING_WINDOW = Duration.days(7);

/** The service's own topic, encrypted with a key CloudWatch may use; the alarm e-mail subscribes to it. */
export function createAlarmTopic(scope: Construct, config: DeployConfig): sns.Topic {
  const stack = Stack.of(scope);
  // CloudWatch can publish to an encrypted topic only with a customer managed key whose policy lets it.
  const key = new kms.Key(scope, 'AlarmTopicKey', {
    description: 'fxrates alarm notifications',
    enableKeyRotation: true,
    // It encrypts only notifications in flight, gone with the topic: no reason to leave it billed.
    removalPolicy: RemovalPolicy.DESTROY,
    pendingWindow: ALARM_TOPIC_KEY_PENDING_WINDOW,
  });
  const cloudwatchPrincipal = new iam.ServicePrincipal('cloudwatch.amazonaws.com');
  key.addToResourcePolicy(
    new iam.PolicyStatement({
      principals: [cloudwatchPrincipal],
      actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
      resources: ['*'],
      conditions: { StringEquals: { 'aws:SourceAccount': stack.account } },
    }),
  );
  const topic = new sns.Topic(scope, 'AlarmTopic', {
    displayName: 'fxrates alarms',
    masterKey: key,
    enforceSSL: true,
  });
  // The topic policy replaces SNS's default one, so the alarms' publisher must be allowed explicitly.
  topic.addToResourcePolicy(
    new iam.PolicyStatement({
      principals: [cloudwatchPrincipal],
      actions: ['sns:Publish'],
      resources: [topic.topicArn],
      conditions: {
        StringEquals: { 'aws:SourceAccount': stack.account },
        ArnLike: { 'aws:SourceArn': `arn:${stack.partition}:cloudwatch:${stack.region}:${stack.account}:alarm:*` },
      },
    }),
  );
  if (config.alarmEmail) topic.addSubscription(new subscriptions.EmailSubscription(config.alarmEmail));
  return topic;
}
