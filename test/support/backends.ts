import { randomUUID } from 'node:crypto';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../../lambdas/core/store/clients';
import { ACCOUNTS_TABLE, RATES_TABLE } from '../../lambdas/core/store/tables';
import { createTable } from '../../local-server/create-tables';

/** The two real DynamoDB implementations every store test runs against; started by the global setup. */
export interface Backend {
  name: 'dynalite' | 'dynamodb-local';
  endpoint: string;
}

export function backends(): Backend[] {
  const dynalite = process.env.FXRATES_TEST_DYNALITE_ENDPOINT;
  const local = process.env.FXRATES_TEST_DYNAMODB_LOCAL_ENDPOINT;
  if (!dynalite || !local) {
    throw new Error(
      'integration backends are not running: the jest globalSetup (test/integration/global-setup.ts) starts them',
    );
  }
  return [
    { name: 'dynalite', endpoint: dynalite },
    { name: 'dynamodb-local', endpoint: local },
  ];
}

export interface TestTables {
  client: DynamoDBDocumentClient;
  ratesTable: string;
  accountsTable: string;
}

/** Fresh, uniquely named tables on one backend, so test files never see each other's items. */
export async function freshTables(backend: Backend): Promise<TestTables> {
  const client = createDocumentClient(backend.endpoint);
  const suffix = randomUUID().slice(0, 8);
  const ratesTable = `rates-${suffix}`;
  const accountsTable = `accounts-${suffix}`;
  await createTable(client, RATES_TABLE, ratesTable);
  await createTable(client, ACCOUNTS_TABLE, accountsTable);
  return { client, ratesTable, accountsTable };
}
