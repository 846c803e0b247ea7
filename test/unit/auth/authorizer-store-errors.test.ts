import { randomBytes } from 'node:crypto';
import {
  DynamoDBClient,
  InternalServerError,
  ProvisionedThroughputExceededException,
  ResourceNotFoundException,
  UpdateItemCommand,
} from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { createAuthorizer, type StoreFailure } from '../../../lambdas/core/auth/authorizer';
import { generateApiKey, hashApiKey } from '../../../lambdas/core/domain/api-key';
import { decodeAccess } from '../../../lambdas/core/http/authorizer-context';
import { AccountsReadStore } from '../../../lambdas/core/store/accounts-read-store';
import { accountKey, apiKeyKey } from '../../../lambdas/core/store/tables';
import { UsageStore } from '../../../lambdas/core/store/usage-store';

/**
 * The authorizer on its real stores, their DynamoDB clients mocked: the errors DynamoDB and the SDK raise once the
 * SDK's own retries are spent (throttling, timeouts, 5xx), which no emulator produces on demand.
 */
const now = Date.parse('2026-09-15T10:20:19.000Z');
const document = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'local' }));
const metering = new DynamoDBClient({ region: 'local', cacheMiddleware: true });
const reads = mockClient(document);
const writes = mockClient(metering);
const key = generateApiKey((n) => randomBytes(n));

function authorizer() {
  const accounts = new AccountsReadStore(document, 'accounts');
  const failures: StoreFailure[] = [];
  const authorize = createAuthorizer({
    keys: accounts,
    accounts,
    usage: new UsageStore(metering, 'accounts', { clock: () => new Date(now) }),
    clock: () => new Date(now),
    onUnavailable: (failure) => failures.push(failure),
  }).authorize;
  return { authorize, failures };
}

function event(): APIGatewayRequestAuthorizerEvent {
  return {
    type: 'REQUEST',
    methodArn: 'arn:aws:execute-api:eu-central-1:123456789012:abcdef1234/v1/GET/rates/latest',
    resource: '/rates/latest',
    headers: { 'X-API-Key': key },
    requestContext: { requestId: 'req-1' },
  } as unknown as APIGatewayRequestAuthorizerEvent;
}

/** The key and its active Pro account, as the accounts table holds them. */
function storedAccount() {
  reads.on(GetCommand, { Key: { pk: apiKeyKey(hashApiKey(key)) } }).resolves({
    Item: { key_id: 'k1', key_account_id: 'acc-1', name: 'test', created_at: '2026-01-01T00:00:00Z' },
  });
  reads.on(GetCommand, { Key: { pk: accountKey('acc-1') } }).resolves({
    Item: {
      account_id: 'acc-1',
      plan: 'pro',
      status: 'active',
      verified: true,
      active_keys: 1,
      created_at: '2026-01-01T00:00:00Z',
    },
  });
}

const meta = { $metadata: { httpStatusCode: 400, attempts: 2 } };
const timeout = () =>
  Object.assign(
    new Error('@smithy/node-http-handler - a request has exceeded the configured 1000 ms requestTimeout.'),
    {
      name: 'TimeoutError',
      code: 'ETIMEDOUT',
    },
  );

describe('the authorizer on its stores when DynamoDB fails', () => {
  beforeEach(() => {
    reads.reset();
    writes.reset();
  });

  it.each([
    ['throttled past the retries', () => new ProvisionedThroughputExceededException({ message: 'slow down', ...meta })],
    ['timing out', timeout],
    [
      'answering 500',
      () => new InternalServerError({ message: 'Internal server error', $metadata: { httpStatusCode: 500 } }),
    ],
  ])('answers unavailable when the admission write fails %s, and writes nothing else', async (_, failure) => {
    storedAccount();
    writes.on(UpdateItemCommand).rejects(failure());
    const { authorize, failures } = authorizer();
    const result = await authorize(event());
    expect(result.policyDocument.Statement[0]?.Effect).toBe('Allow');
    expect(decodeAccess({ ...result.context })).toEqual({ verdict: 'unavailable', accountId: 'acc-1', plan: 'pro' });
    expect(failures.map((f) => f.stage)).toEqual(['usage']);
    // The one admission write; no refusal counted and no stale-minute cleanup after it.
    expect(writes.commandCalls(UpdateItemCommand)).toHaveLength(1);
  });

  it('answers unavailable when the key cannot be read, before any account read or write', async () => {
    reads.on(GetCommand).rejects(timeout());
    const { authorize, failures } = authorizer();
    const result = await authorize(event());
    expect(result.context).toEqual({ verdict: 'unavailable' });
    expect(failures.map((f) => f.stage)).toEqual(['key']);
    expect(reads.commandCalls(GetCommand)).toHaveLength(1);
    expect(writes.commandCalls(UpdateItemCommand)).toHaveLength(0);
  });

  it('throws a missing table, which is the deployment at fault, not the store being down', async () => {
    storedAccount();
    writes.on(UpdateItemCommand).rejects(new ResourceNotFoundException({ message: 'no such table', ...meta }));
    const { authorize, failures } = authorizer();
    await expect(authorize(event())).rejects.toBeInstanceOf(ResourceNotFoundException);
    expect(failures).toEqual([]);
  });
});
