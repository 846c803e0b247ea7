import { type RunningDynamoDbLocal, startDynamoDbLocal } from '../../bench/support/dynamodb-local';
import { type RunningDynalite, startDynalite } from '../../local-server/dynalite-server';

declare global {
  var __FXRATES_BACKENDS__: { dynalite: RunningDynalite; dynamoDbLocal: RunningDynamoDbLocal } | undefined;
}

/** Starts both DynamoDB implementations once for the whole integration project; workers inherit the env. */
export default async function globalSetup(): Promise<void> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const [dynalite, dynamoDbLocal] = await Promise.all([startDynalite(), startDynamoDbLocal()]);
  globalThis.__FXRATES_BACKENDS__ = { dynalite, dynamoDbLocal };
  process.env.FXRATES_TEST_DYNALITE_ENDPOINT = dynalite.endpoint;
  process.env.FXRATES_TEST_DYNAMODB_LOCAL_ENDPOINT = dynamoDbLocal.endpoint;
}
