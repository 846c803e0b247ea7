import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUNDLED_WRITES_FILE_ENV, bundledWrites } from '../../bench/support/bundled-rates';
import { type RunningDynamoDbLocal, startDynamoDbLocal } from '../../bench/support/dynamodb-local';
import { type RunningDynalite, startDynalite } from '../../local-server/dynalite-server';

declare global {
  var __FXRATES_BACKENDS__: { dynalite: RunningDynalite; dynamoDbLocal: RunningDynamoDbLocal } | undefined;
  var __FXRATES_SCRATCH__: string | undefined;
}

/**
 * Starts both DynamoDB implementations once for the whole integration project, and parses the bundled rates the API
 * tests load (bench/support/bundled-rates.ts) while DynamoDB Local starts; workers inherit the env.
 */
export default async function globalSetup(): Promise<void> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const starting = Promise.all([startDynalite(), startDynamoDbLocal()]);
  const scratch = mkdtempSync(join(tmpdir(), 'fxrates-test-setup-'));
  globalThis.__FXRATES_SCRATCH__ = scratch;
  const writesFile = join(scratch, 'bundled-writes.json');
  try {
    // Parsed once the servers' processes are on their way, as it holds this thread for a second or two.
    await new Promise((resolve) => setImmediate(resolve));
    writeFileSync(writesFile, JSON.stringify(bundledWrites()));
    process.env[BUNDLED_WRITES_FILE_ENV] = writesFile;
  } catch (error) {
    const [dynalite, dynamoDbLocal] = await starting;
    await Promise.all([dynalite.close(), dynamoDbLocal.stop()]);
    throw error;
  }
  const [dynalite, dynamoDbLocal] = await starting;
  globalThis.__FXRATES_BACKENDS__ = { dynalite, dynamoDbLocal };
  process.env.FXRATES_TEST_DYNALITE_ENDPOINT = dynalite.endpoint;
  process.env.FXRATES_TEST_DYNAMODB_LOCAL_ENDPOINT = dynamoDbLocal.endpoint;
}
