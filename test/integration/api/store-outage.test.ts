import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { createMeteringClient, STORE_CALL_LIMITS } from '../../../lambdas/core/store/clients';
import { UsageStore } from '../../../lambdas/core/store/usage-store';
import { type ApiReply, startTestApi, type TestApi } from '../../support/api-service';
import { StoreFaults } from '../../support/store-faults';

/**
 * The authorizer's failure path on the local server: its store hangs, refuses, throttles or fails for the authorizer
 * alone (test/support/store-faults.ts), through the same clients, timeouts and retries as on Lambda.
 */

/** A hanging store: two attempts that each end at the request timeout, a back-off of at most 50 ms, and the HTTP hops. */
const HANG_BOUND_MS = STORE_CALL_LIMITS.maxAttempts * STORE_CALL_LIMITS.requestTimeoutMs + 1_000;
/** A store that answers at once with an error: at most one back-off (a second after throttling) and the hops. */
const FAST_FAILURE_BOUND_MS = 1_000;
const THROTTLED_BOUND_MS = 2_000;

const RATE_LIMIT_HEADERS = ['x-ratelimit-limit-minute', 'x-ratelimit-remaining-month', 'ratelimit', 'ratelimit-policy'];

async function timed(request: Promise<ApiReply>): Promise<{ reply: ApiReply; ms: number }> {
  const started = performance.now();
  const reply = await request;
  return { reply, ms: performance.now() - started };
}

function expectUnavailable(reply: ApiReply): void {
  expect({ status: reply.status, body: reply.json() }).toEqual({
    status: 503,
    body: {
      success: false,
      error: { code: 'service-unavailable', message: 'The service is temporarily unavailable; please retry later.' },
    },
  });
  expect(reply.headers.get('retry-after')).toBe('5');
  expect(reply.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  expect(reply.headers.get('cache-control')).toBe('no-store');
  // Nothing was metered, so there is nothing to report.
  for (const name of RATE_LIMIT_HEADERS) expect(reply.headers.get(name)).toBeNull();
}

describe('a store outage seen by the authorizer', () => {
  const faults = new StoreFaults();
  let api: TestApi;
  let key: string;
  let accountId: string;
  /** Requests of `key` answered 200 on a route that counts toward the month. */
  let admitted = 0;

  const monthUsed = (id: string) =>
    new UsageStore(
      createMeteringClient(api.service.client, api.service.dynamoEndpoint),
      api.service.accounts.tableName,
      {
        clock: api.clock.now,
      },
    ).getMonthUsed(id);

  const admit = async () => {
    const reply = await api.get('rates/latest', key);
    expect(reply.status).toBe(200);
    admitted++;
    return reply;
  };

  beforeAll(async () => {
    api = await startTestApi({ authorizerTransport: faults.wrap });
    ({ key, accountId } = await api.newKey('business'));
  });
  afterAll(() => api?.close());
  afterEach(() => {
    faults.mode = 'pass';
  });

  it('admits and counts requests while the store answers', async () => {
    await admit();
    await admit();
    expect(await monthUsed(accountId)).toBe(admitted);
  });

  it('answers 503 with Retry-After within the two request timeouts when the store hangs, and reads no rates', async () => {
    faults.mode = 'hang';
    const writesBefore = faults.count('UpdateItem');
    await api.service.storeRequests(true);
    const { reply, ms } = await timed(api.get('rates/latest', key));
    expectUnavailable(reply);
    expect(ms).toBeGreaterThanOrEqual(STORE_CALL_LIMITS.maxAttempts * STORE_CALL_LIMITS.requestTimeoutMs - 100);
    expect(ms).toBeLessThan(HANG_BOUND_MS);
    // The key and account came from the authorizer's cache: only the admission write was tried, twice.
    expect(faults.count('UpdateItem') - writesBefore).toBe(STORE_CALL_LIMITS.maxAttempts);
    // Nothing reached the store: not the write, and not a single read of rates by the endpoint.
    expect(await api.service.storeRequests()).toEqual({});
  });

  it('answers 503 for a key whose own lookup hangs, and on the quota route too', async () => {
    const fresh = await api.newKey('pro');
    faults.mode = 'hang';
    const readsBefore = faults.count('GetItem');
    const { reply, ms } = await timed(api.get('quota', fresh.key));
    expectUnavailable(reply);
    expect(ms).toBeLessThan(HANG_BOUND_MS);
    expect(faults.count('GetItem') - readsBefore).toBe(STORE_CALL_LIMITS.maxAttempts);
    faults.mode = 'pass';
    expect((await api.get('quota', fresh.key)).status).toBe(200);
  });

  it.each([
    ['refuses connections', 'refuse', FAST_FAILURE_BOUND_MS],
    ['answers 500', 'server-error', FAST_FAILURE_BOUND_MS],
    ['throttles every attempt', 'throttle', THROTTLED_BOUND_MS],
  ] as const)('answers 503 with Retry-After when the store %s, after two attempts', async (_, mode, bound) => {
    faults.mode = mode;
    const writesBefore = faults.count('UpdateItem');
    const { reply, ms } = await timed(api.get('rates/latest', key));
    expectUnavailable(reply);
    expect(ms).toBeLessThan(bound);
    expect(faults.count('UpdateItem') - writesBefore).toBe(STORE_CALL_LIMITS.maxAttempts);
  });

  it('still refuses a missing or malformed key with 401 at once: no store is asked', async () => {
    faults.mode = 'hang';
    const before = faults.operations.length;
    const missing = await timed(api.get('rates/latest'));
    expect({ status: missing.reply.status, code: missing.reply.json().error?.code }).toEqual({
      status: 401,
      code: 'missing-api-key',
    });
    const malformed = await timed(api.get('rates/latest', 'fxr_not-a-key'));
    expect({ status: malformed.reply.status, code: malformed.reply.json().error?.code }).toEqual({
      status: 401,
      code: 'invalid-api-key',
    });
    expect(Math.max(missing.ms, malformed.ms)).toBeLessThan(FAST_FAILURE_BOUND_MS);
    expect(faults.operations.length).toBe(before);
  });

  it('counts once a request whose write was applied but whose answer was lost: the retry finds its slot', async () => {
    faults.mode = 'lose-next-write';
    const writesBefore = faults.count('UpdateItem');
    const { reply, ms } = await timed(admit());
    expect(reply.headers.get('x-ratelimit-remaining-month')).not.toBeNull();
    expect(ms).toBeGreaterThanOrEqual(STORE_CALL_LIMITS.requestTimeoutMs - 100);
    expect(faults.count('UpdateItem') - writesBefore).toBe(2);
    expect(await monthUsed(accountId)).toBe(admitted);
  });

  it('admits again once the store is back, and the month holds exactly the admitted requests', async () => {
    for (let i = 0; i < 3; i++) await admit();
    expect(admitted).toBe(6);
    expect(await monthUsed(accountId)).toBe(admitted);
  });
});

describe('a rate store that is wired wrong (a deployment fault, not an outage)', () => {
  let api: TestApi;
  let key: string;

  beforeAll(async () => {
    api = await startTestApi();
    ({ key } = await api.newKey('business'));
    // The endpoints' table is gone, as after a deploy that points them at a wrong name; the authorizer's is intact.
    await api.service.client.send(new DeleteTableCommand({ TableName: api.service.ratesStore.tableName }));
  });
  afterAll(() => api?.close());

  it.each(['rates/latest', 'rates/history/EUR/USD/2026-09-14'])(
    'answers GET %s with 500 internal-error and no Retry-After, so clients do not retry a fault',
    async (path) => {
      const reply = await api.get(path, key);
      expect({ status: reply.status, body: reply.json() }).toEqual({
        status: 500,
        body: { success: false, error: { code: 'internal-error', message: 'An unexpected error occurred.' } },
      });
      expect(reply.headers.get('retry-after')).toBeNull();
      expect(reply.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    },
  );
});
