/**
 * Issue 27: `npm start`'s admission write goes to the embedded store as a store call made by the usage store itself
 * (DirectAdmissionWrites), past the SDK's middleware. Its answers must be what the SDK's path gives, and anything
 * it does not read (an error, a timeout, a refusal other than the condition's) must go to the SDK's path on the
 * retries client, so that a request is counted once and the attempts in all stay the SDK's number.
 */
import { randomUUID } from 'node:crypto';
import { PLANS, type PlanLimits } from '../../../lambdas/core/domain/plans';
import type { MeterState } from '../../../lambdas/core/domain/quota';
import { createDocumentClient, createMeteringClient, STORE_CALL_LIMITS } from '../../../lambdas/core/store/clients';
import { isStoreUnavailable } from '../../../lambdas/core/store/store-errors';
import { ACCOUNTS_TABLE } from '../../../lambdas/core/store/tables';
import { UsageStore } from '../../../lambdas/core/store/usage-store';
import { createTable } from '../../../local-server/create-tables';
import { type EmbeddedStore, openEmbeddedStore } from '../../../local-server/embedded-store';
import {
  type LocalRequest,
  LocalRequestHandler,
  type LocalResponse,
  operationOf,
} from '../../../local-server/in-process-transport';
import { type DirectAdmissionWrites, SharedWriteUsageStore } from '../../../local-server/shared-write-usage-store';
import { type StoreAnswer, type StoreCall, sendStoreCalls } from '../../../local-server/store-calls';

const TABLE = 'direct-admission-accounts';
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

function limits(overrides: Partial<PlanLimits>): PlanLimits {
  return { ...PLANS.pro, monthlyLimit: 1_000_000, perMinute: 1_000_000, ...overrides };
}

/** Passes requests on to the store and keeps the operation of each. */
class Recording extends LocalRequestHandler {
  readonly operations: string[] = [];
  constructor(private readonly inner: LocalRequestHandler) {
    super();
  }
  handle(request: LocalRequest): Promise<{ response: LocalResponse }> {
    this.operations.push(operationOf(request.headers) ?? 'unknown');
    return this.inner.handle(request);
  }
}

const INTERNAL_ERROR: StoreAnswer = {
  statusCode: 500,
  headers: { 'content-type': 'application/x-amz-json-1.0' },
  body: JSON.stringify({ __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError', message: 'failed batch' }),
};

describe("npm start's admission write past the SDK", () => {
  let store: EmbeddedStore;
  let now: number;
  const clock = () => new Date(now);
  let accountId: string;

  beforeAll(async () => {
    store = await openEmbeddedStore();
    const client = sendStoreCalls(createDocumentClient(store.endpoint, store.transport));
    await createTable(client, ACCOUNTS_TABLE, TABLE);
    client.destroy();
  });
  afterAll(() => store?.close());
  beforeEach(() => {
    now = Date.parse('2026-09-15T10:20:19.000Z');
    accountId = `acct-${randomUUID()}`;
  });

  /** A metering client on a transport of its own that records what it sends; `maxAttempts` as the server sets it. */
  function metering(maxAttempts: number = STORE_CALL_LIMITS.maxAttempts) {
    const transport = new Recording(store.transport);
    const document = sendStoreCalls(createDocumentClient(store.endpoint, transport as never));
    const client = sendStoreCalls(createMeteringClient(document, store.endpoint, { failFast: true, maxAttempts }));
    return { client, sent: transport.operations };
  }

  /**
   * A usage store as the local authorizer builds it; `answer` may replace or follow the store's own answer to a
   * direct call. Returns it with the direct calls made and what the SDK sent on each client.
   */
  function directStore(answer?: (call: StoreCall) => Promise<StoreAnswer>) {
    const own = metering();
    const retries = metering(STORE_CALL_LIMITS.maxAttempts - 1);
    const direct: StoreCall[] = [];
    const writes: DirectAdmissionWrites = {
      send: async (call) => {
        direct.push(call);
        if (answer) return answer(call);
        return (await store.transport.handle(call)).response as StoreAnswer;
      },
      retries: retries.client,
    };
    const usage = new SharedWriteUsageStore(own.client, TABLE, { clock }, writes);
    return { usage, direct, sdk: own.sent, retries: retries.sent };
  }

  const reader = () => new UsageStore(metering().client, TABLE, { clock });

  it('admits 40 requests that arrive together with two direct writes, and the SDK sends none', async () => {
    const { usage, direct, sdk, retries } = directStore();
    const input = { accountId, limits: limits({}), countsTowardMonth: true };
    const states = await Promise.all(range(1, 40).map((i) => usage.admit({ ...input, requestId: `r-${i}` })));
    expect(states.map((s) => [s.verdict, s.minuteUsed, s.monthUsed])).toEqual(
      range(1, 40).map((n) => ['admitted', n, n]),
    );
    expect(direct.map((call) => call.operation)).toEqual(['UpdateItem', 'UpdateItem']);
    expect([sdk, retries]).toEqual([[], []]);
    expect(await reader().getMonthUsed(accountId)).toBe(40);
  });

  it('gives the same states as the SDK path, refusals at the minute limit included', async () => {
    const plan = limits({ perMinute: 3 });
    const run = async (usage: SharedWriteUsageStore, account: string) => {
      const states: MeterState[] = [];
      for (let i = 1; i <= 5; i++) {
        states.push(
          await usage.admit({ accountId: account, limits: plan, countsTowardMonth: true, requestId: `q${i}` }),
        );
      }
      return states;
    };
    const viaSdk = await run(new SharedWriteUsageStore(metering().client, TABLE, { clock }), `acct-${randomUUID()}`);
    const { usage, direct, sdk, retries } = directStore();
    const viaDirect = await run(usage, accountId);
    expect(viaDirect).toEqual(viaSdk);
    expect(viaDirect.map((s) => [s.verdict, s.minuteUsed])).toEqual([
      ['admitted', 1],
      ['admitted', 2],
      ['admitted', 3],
      ['rate-limit-exceeded', 3],
      ['rate-limit-exceeded', 3],
    ]);
    // Each refusal is read from the direct answer: the SDK only counts the refusal, once each, and retries nothing.
    expect(direct).toHaveLength(5);
    expect(sdk.filter((operation) => operation === 'UpdateItem')).toHaveLength(2);
    expect(retries).toEqual([]);
    expect((await reader().monthUsage(accountId)).refusedByDay.get(15)).toBe(2);
  });

  it('counts a request once when the direct answer is lost after its write: the SDK retry finds its slot', async () => {
    const { usage, direct, retries } = directStore(async (call) => {
      await store.transport.handle(call);
      throw Object.assign(new Error('the store did not answer within 1000 ms'), { name: 'TimeoutError' });
    });
    const input = { accountId, limits: limits({}), countsTowardMonth: true, requestId: 'lost-answer' };
    expect(await usage.admit(input)).toMatchObject({ verdict: 'admitted', minuteUsed: 1, monthUsed: 1 });
    expect(direct).toHaveLength(1);
    expect(retries).toEqual(['UpdateItem']);
    expect(await reader().getMonthUsed(accountId)).toBe(1);
  });

  it('hands an answer it does not read to the SDK, whose retry admits the request', async () => {
    const { usage, direct, retries } = directStore(async () => INTERNAL_ERROR);
    const input = { accountId, limits: limits({}), countsTowardMonth: true, requestId: 'after-500' };
    expect(await usage.admit(input)).toMatchObject({ verdict: 'admitted', monthUsed: 1 });
    expect([direct.length, retries]).toEqual([1, ['UpdateItem']]);
    expect(await reader().getMonthUsed(accountId)).toBe(1);
  });

  it('fails as unavailable after the SDK number of attempts when every one fails', async () => {
    const own = metering();
    const failing = new Recording({ handle: async () => ({ response: INTERNAL_ERROR }) } as never);
    const document = sendStoreCalls(createDocumentClient(store.endpoint, failing as never));
    const retries = sendStoreCalls(
      createMeteringClient(document, store.endpoint, {
        failFast: true,
        maxAttempts: STORE_CALL_LIMITS.maxAttempts - 1,
      }),
    );
    let directCalls = 0;
    const usage = new SharedWriteUsageStore(
      own.client,
      TABLE,
      { clock },
      {
        send: async () => {
          directCalls++;
          return INTERNAL_ERROR;
        },
        retries,
      },
    );
    const error = await usage.admit({ accountId, limits: limits({}), countsTowardMonth: true }).catch((e) => e);
    expect(isStoreUnavailable(error)).toBe(true);
    expect((error as Error).name).toBe('InternalServerError');
    expect(directCalls + failing.operations.length).toBe(STORE_CALL_LIMITS.maxAttempts);
    expect(await reader().getMonthUsed(accountId)).toBe(0);
  });

  it.each([
    ['not JSON', 'not json'],
    ['empty', ''],
    ['not an object', 'null'],
  ])('refuses to read a success whose body is %s rather than count from nothing', async (_, body) => {
    const { usage, retries } = directStore(async () => ({ statusCode: 200, headers: {}, body }));
    await expect(usage.admit({ accountId, limits: limits({}), countsTowardMonth: true })).rejects.toThrow(
      'the store answered an admission write with a body that is not a JSON object',
    );
    expect(retries).toEqual([]);
  });
});
