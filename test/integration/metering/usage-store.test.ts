import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { attachDdbCounter } from '../../../bench/support/ddb-counter';
import { PLANS, type PlanLimits } from '../../../lambdas/core/domain/plans';
import { effectiveLimit, type MeterState, minuteOfMonth } from '../../../lambdas/core/domain/quota';
import { createDocumentClient, createMeteringClient, STORE_CALL_LIMITS } from '../../../lambdas/core/store/clients';
import { isStoreUnavailable } from '../../../lambdas/core/store/store-errors';
import { usageKey } from '../../../lambdas/core/store/tables';
import { UsageStore } from '../../../lambdas/core/store/usage-store';
import { SharedWriteUsageStore } from '../../../local-server/shared-write-usage-store';
import { backends, freshTables, type TestTables } from '../../support/backends';
import { startStoreProxy } from '../../support/store-proxy';

const ms = (iso: string): number => Date.parse(iso);

function limits(overrides: Partial<PlanLimits>): PlanLimits {
  return { ...PLANS.pro, monthlyLimit: 1_000_000, perMinute: 1_000_000, ...overrides };
}

const admittedOf = (states: MeterState[]) => states.filter((s) => s.verdict === 'admitted');
const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/**
 * Drops the answer of the client's `nth` UpdateItem as a timeout, inside the retry loop: the write reaches the
 * table and the SDK tries it again. Returns how many answers it dropped.
 */
function loseAnswerOfUpdate(client: ReturnType<typeof createMeteringClient>, nth: number): () => number {
  let updates = 0;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      if (context.commandName === 'UpdateItemCommand' && ++updates === nth) {
        throw Object.assign(new Error('answer lost'), { name: 'TimeoutError', $metadata: {} });
      }
      return result;
    },
    { step: 'finalizeRequest', priority: 'low', name: 'loseAnswerOfUpdate' },
  );
  return () => (updates >= nth ? 1 : 0);
}

describe.each(backends())('UsageStore on $name', (backend) => {
  let tables: TestTables;
  let now: number;
  const clock = () => new Date(now);
  const meteringClient = () => createMeteringClient(createDocumentClient(backend.endpoint), backend.endpoint);
  const storeAt = (instant: number, client = meteringClient()) =>
    new UsageStore(client, tables.accountsTable, { clock: () => new Date(instant) });
  let store: UsageStore;
  let accountId: string;

  beforeAll(async () => {
    tables = await freshTables(backend);
  });

  beforeEach(() => {
    now = ms('2026-09-15T10:20:19.000Z');
    store = new UsageStore(meteringClient(), tables.accountsTable, { clock });
    accountId = `acct-${randomUUID()}`;
  });

  async function admitMany(s: UsageStore, n: number, input: Omit<Parameters<UsageStore['admit']>[0], 'accountId'>) {
    return Promise.all(Array.from({ length: n }, () => s.admit({ accountId, ...input })));
  }

  it('admits exactly the 50 requests the month has left out of 200 concurrent ones', async () => {
    // 50 base + 20 % overflow = 60 effective; 10 are used first, leaving 50.
    const plan = limits({ monthlyLimit: 50, overflowAllowed: true, overflowPercent: 20 });
    expect(effectiveLimit(plan)).toBe(60);
    for (let i = 0; i < 10; i++) {
      expect((await store.admit({ accountId, limits: plan, countsTowardMonth: true })).verdict).toBe('admitted');
    }
    const states = await admitMany(store, 200, { limits: plan, countsTowardMonth: true });
    const admitted = admittedOf(states);
    expect(admitted).toHaveLength(50);
    expect(sorted(admitted.map((s) => s.monthUsed))).toEqual(range(11, 60));
    expect(states.filter((s) => s.verdict === 'quota-exceeded')).toHaveLength(150);
    expect(await store.getMonthUsed(accountId)).toBe(60);
  });

  it('peeks at the counts without counting anything', async () => {
    const plan = limits({ perMinute: 10, monthlyLimit: 100, overflowAllowed: false });
    expect(await store.peek(accountId, plan)).toMatchObject({ minuteUsed: 0, monthUsed: 0, monthLimit: 100 });
    for (let i = 0; i < 3; i++) await store.admit({ accountId, limits: plan, countsTowardMonth: true });
    const seen = await store.peek(accountId, plan);
    expect(seen).toMatchObject({ verdict: 'admitted', minuteUsed: 3, monthUsed: 3, minuteLimit: 10 });
    expect((await store.peek(accountId, plan)).monthUsed).toBe(3);
    expect(await store.getMonthUsed(accountId)).toBe(3);
  });

  it('admits exactly the per-minute limit out of 200 concurrent requests and counts only those', async () => {
    const plan = limits({ perMinute: 50 });
    const states = await admitMany(store, 200, { limits: plan, countsTowardMonth: true });
    const admitted = admittedOf(states);
    expect(admitted).toHaveLength(50);
    expect(sorted(admitted.map((s) => s.minuteUsed))).toEqual(range(1, 50));
    const refused = states.filter((s) => s.verdict === 'rate-limit-exceeded');
    expect(refused).toHaveLength(150);
    expect(refused.every((s) => s.minuteUsed === 50 && s.minuteLimit === 50)).toBe(true);
    expect(await store.getMonthUsed(accountId)).toBe(50);
  });

  it('gives each of two minutes its own budget when concurrent requests straddle the rollover', async () => {
    const plan = limits({ perMinute: 20 });
    const before = storeAt(ms('2026-09-15T10:20:59.999Z'));
    const after = storeAt(ms('2026-09-15T10:21:00.000Z'));
    const input = { accountId, limits: plan, countsTowardMonth: true };
    const states = await Promise.all(
      Array.from({ length: 200 }, (_, i) => (i % 2 === 0 ? before : after).admit(input)),
    );
    const early = admittedOf(states.filter((_, i) => i % 2 === 0));
    const late = admittedOf(states.filter((_, i) => i % 2 === 1));
    expect(sorted(early.map((s) => s.minuteUsed))).toEqual(range(1, 20));
    expect(sorted(late.map((s) => s.minuteUsed))).toEqual(range(1, 20));
    expect(await store.getMonthUsed(accountId)).toBe(40);
    expect((await after.admit(input)).verdict).toBe('rate-limit-exceeded');
  });

  describe("npm start's store, when requests to one usage item arrive together", () => {
    let shared: SharedWriteUsageStore;
    beforeEach(() => {
      shared = new SharedWriteUsageStore(meteringClient(), tables.accountsTable, { clock });
    });

    it('admits 40 of them with two writes, each given the counts of its turn', async () => {
      const client = meteringClient();
      const counter = attachDdbCounter(client);
      const together = new SharedWriteUsageStore(client, tables.accountsTable, { clock });
      const input = { accountId, limits: limits({}), countsTowardMonth: true };
      const states = await Promise.all(range(1, 40).map((i) => together.admit({ ...input, requestId: `r-${i}` })));
      expect(states.every((s) => s.verdict === 'admitted')).toBe(true);
      expect(states.map((s) => s.monthUsed)).toEqual(range(1, 40));
      expect(states.map((s) => s.minuteUsed)).toEqual(range(1, 40));
      // The first request's write, then one for the 39 that arrived while it was on its way.
      expect(counter.snapshot()).toMatchObject({ writes: 2, reads: 0 });
      expect(await store.getMonthUsed(accountId)).toBe(40);
      expect((await store.monthUsage(accountId)).admittedByDay.get(15)).toBe(40);
    });

    it('admits only the room the month has left when those that gathered do not all fit', async () => {
      const plan = limits({ monthlyLimit: 60, overflowAllowed: false });
      await admitMany(shared, 50, { limits: plan, countsTowardMonth: true });
      // The first takes the 51st place alone; the other 19 would fit the limit, not the 9 places left.
      const states = await admitMany(shared, 20, { limits: plan, countsTowardMonth: true });
      expect(sorted(admittedOf(states).map((s) => s.monthUsed))).toEqual(range(51, 60));
      expect(states.filter((s) => s.verdict === 'quota-exceeded')).toHaveLength(10);
      expect(await store.getMonthUsed(accountId)).toBe(60);
      expect((await store.monthUsage(accountId)).refusedByDay.get(15)).toBe(10);
    });

    it('admits no more than the minute allows when those that gathered start a new minute', async () => {
      const input = { accountId, limits: limits({ perMinute: 5 }), countsTowardMonth: true };
      now = ms('2026-09-15T10:20:59.000Z');
      const pending = Array.from({ length: 20 }, () => shared.admit(input));
      // The first write is on its way in 10:20; the 19 that wait for it are sent in 10:21, a minute of no count.
      now = ms('2026-09-15T10:21:00.000Z');
      const states = await Promise.all(pending);
      expect(states[0]).toMatchObject({ verdict: 'admitted', minuteUsed: 1 });
      expect(sorted(admittedOf(states.slice(1)).map((s) => s.minuteUsed))).toEqual(range(1, 5));
      expect(states.filter((s) => s.verdict === 'rate-limit-exceeded')).toHaveLength(14);
      expect(await store.getMonthUsed(accountId)).toBe(6);
    });

    it('counts them once when the SDK retries their write whose answer was lost', async () => {
      const client = meteringClient();
      const counter = attachDdbCounter(client);
      const lost = loseAnswerOfUpdate(client, 2);
      const flaky = new SharedWriteUsageStore(client, tables.accountsTable, { clock });
      const input = { accountId, limits: limits({}), countsTowardMonth: true };
      const states = await Promise.all(range(1, 10).map((i) => flaky.admit({ ...input, requestId: `r-${i}` })));
      expect(states.map((s) => [s.verdict, s.monthUsed])).toEqual(range(1, 10).map((n) => ['admitted', n]));
      // The first request's write, the shared write, and its retry refused by the slot of its request id.
      expect(lost()).toBe(1);
      expect(counter.snapshot()).toMatchObject({ writes: 3, failedConditions: 1 });
      expect(await store.getMonthUsed(accountId)).toBe(10);
    });
  });

  it('starts a fresh minute at :00.000 after the minute was used up at :59.999', async () => {
    const plan = limits({ perMinute: 3 });
    const input = { accountId, limits: plan, countsTowardMonth: true };
    now = ms('2026-09-15T10:20:59.999Z');
    await admitMany(store, 3, input);
    const refused = await store.admit(input);
    expect(refused).toMatchObject({ verdict: 'rate-limit-exceeded', minuteUsed: 3, monthUsed: 3 });
    now = ms('2026-09-15T10:21:00.000Z');
    expect(await store.admit(input)).toMatchObject({ verdict: 'admitted', minuteUsed: 1, monthUsed: 4 });
  });

  it('starts a fresh month at midnight after the month was used up on its last day', async () => {
    const plan = limits({ monthlyLimit: 4, overflowAllowed: false });
    const input = { accountId, limits: plan, countsTowardMonth: true };
    now = ms('2026-09-30T23:59:59.999Z');
    await admitMany(store, 4, input);
    expect((await store.admit(input)).verdict).toBe('quota-exceeded');
    now = ms('2026-10-01T00:00:00.000Z');
    expect(await store.admit(input)).toMatchObject({ verdict: 'admitted', minuteUsed: 1, monthUsed: 1 });
    expect(await store.getMonthUsed(accountId, ms('2026-09-30T12:00:00Z'))).toBe(4);
    expect(await store.getMonthUsed(accountId)).toBe(1);
  });

  it('makes the keys of one account share one budget, apart from other accounts', async () => {
    // Two authorizer instances with their own clients, each admitting requests made with a different key.
    const plan = limits({ monthlyLimit: 30, overflowAllowed: false });
    const keyA = new UsageStore(meteringClient(), tables.accountsTable, { clock });
    const keyB = new UsageStore(meteringClient(), tables.accountsTable, { clock });
    const input = { limits: plan, countsTowardMonth: true };
    expect(admittedOf(await admitMany(keyA, 20, input))).toHaveLength(20);
    const [a, b] = await Promise.all([admitMany(keyA, 40, input), admitMany(keyB, 40, input)]);
    expect(admittedOf(a).length + admittedOf(b).length).toBe(10);
    expect((await keyB.admit({ ...input, accountId })).verdict).toBe('quota-exceeded');
    expect(await keyB.getMonthUsed(accountId)).toBe(30);
    const other = await keyA.admit({ ...input, accountId: `acct-${randomUUID()}` });
    expect(other).toMatchObject({ verdict: 'admitted', monthUsed: 1 });
  });

  it('admits a request that counts toward the minute only when the month is used up', async () => {
    const plan = limits({ monthlyLimit: 5, overflowAllowed: false });
    await admitMany(store, 5, { limits: plan, countsTowardMonth: true });
    expect((await store.admit({ accountId, limits: plan, countsTowardMonth: true })).verdict).toBe('quota-exceeded');
    const quota = await store.admit({ accountId, limits: plan, countsTowardMonth: false });
    expect(quota).toMatchObject({ verdict: 'admitted', monthUsed: 5, monthLimit: 5, minuteUsed: 6 });
    expect(await store.getMonthUsed(accountId)).toBe(5);
  });

  it('refuses a minute-only request with rate-limit-exceeded when the minute is used up', async () => {
    const plan = limits({ perMinute: 2 });
    await admitMany(store, 2, { limits: plan, countsTowardMonth: false });
    const refused = await store.admit({ accountId, limits: plan, countsTowardMonth: false });
    expect(refused).toMatchObject({ verdict: 'rate-limit-exceeded', minuteUsed: 2, monthUsed: 0 });
    expect(await store.getMonthUsed(accountId)).toBe(0);
  });

  it('does not change any count for refused requests', async () => {
    const plan = limits({ perMinute: 3, monthlyLimit: 3, overflowAllowed: false });
    await admitMany(store, 3, { limits: plan, countsTowardMonth: true });
    const minuteFull = limits({ perMinute: 3 });
    const refused = [
      ...(await admitMany(store, 10, { limits: plan, countsTowardMonth: true })),
      ...(await admitMany(store, 10, { limits: minuteFull, countsTowardMonth: true })),
      ...(await admitMany(store, 10, { limits: minuteFull, countsTowardMonth: false })),
    ];
    expect(refused.map((s) => s.verdict)).toEqual([
      ...Array(10).fill('quota-exceeded'),
      ...Array(20).fill('rate-limit-exceeded'),
    ]);
    expect(refused.every((s) => s.minuteUsed === 3 && s.monthUsed === 3)).toBe(true);
    expect(await store.getMonthUsed(accountId)).toBe(3);
    now += 60_000;
    expect(await store.admit({ accountId, limits: minuteFull, countsTowardMonth: true })).toMatchObject({
      verdict: 'admitted',
      minuteUsed: 1,
      monthUsed: 4,
    });
  });

  it('counts a repeated write of the same request id once, even when it took the last slot', async () => {
    const plan = limits({ monthlyLimit: 2, overflowAllowed: false });
    const input = { accountId, limits: plan, countsTowardMonth: true };
    const first = await store.admit({ ...input, requestId: 'req-1' });
    expect(first).toMatchObject({ verdict: 'admitted', minuteUsed: 1, monthUsed: 1 });
    expect(await store.admit({ ...input, requestId: 'req-1' })).toEqual(first);
    const second = await store.admit({ ...input, requestId: 'req-2' });
    expect(second).toMatchObject({ verdict: 'admitted', monthUsed: 2 });
    expect(await store.admit({ ...input, requestId: 'req-2' })).toEqual(second);
    expect((await store.admit({ ...input, requestId: 'req-3' })).verdict).toBe('quota-exceeded');
    expect(await store.getMonthUsed(accountId)).toBe(2);
  });

  it('counts a request once when the SDK retries a write whose answer was lost', async () => {
    const client = meteringClient();
    const counter = attachDdbCounter(client);
    const lost = loseAnswerOfUpdate(client, 1);
    const flaky = new UsageStore(client, tables.accountsTable, { clock });
    const input = { accountId, limits: limits({ monthlyLimit: 1, overflowAllowed: false }), countsTowardMonth: true };
    expect(await flaky.admit({ ...input, requestId: 'retried' })).toMatchObject({ verdict: 'admitted', monthUsed: 1 });
    expect(lost()).toBe(1);
    expect(counter.snapshot()).toMatchObject({ writes: 2, failedConditions: 1 });
    expect(await store.getMonthUsed(accountId)).toBe(1);
  });

  describe("with the functions' clients (timeouts and two attempts) behind a proxy that loses answers", () => {
    const failFastThrough = (endpoint: string) =>
      createMeteringClient(createDocumentClient(endpoint, undefined, { failFast: true }), endpoint, { failFast: true });

    it('counts once a write that was applied but whose answer timed out: the retry is refused by its slot', async () => {
      const proxy = await startStoreProxy(backend.endpoint);
      try {
        const flaky = new UsageStore(failFastThrough(proxy.endpoint), tables.accountsTable, { clock });
        const input = { accountId, limits: limits({}), countsTowardMonth: true };
        proxy.mode = 'lose-next-write';
        const started = Date.now();
        expect(await flaky.admit({ ...input, requestId: 'lost-answer' })).toMatchObject({
          verdict: 'admitted',
          monthUsed: 1,
        });
        // The first attempt ran into the request timeout; the SDK's retry was refused by the request-id slot.
        expect(Date.now() - started).toBeGreaterThanOrEqual(STORE_CALL_LIMITS.requestTimeoutMs - 50);
        expect(proxy.operations.filter((op) => op === 'UpdateItem')).toHaveLength(2);
        expect(proxy.mode).toBe('pass');
        expect(await store.getMonthUsed(accountId)).toBe(1);
        // The next request is counted as usual.
        expect(await flaky.admit({ ...input, requestId: 'next' })).toMatchObject({ verdict: 'admitted', monthUsed: 2 });
        expect(await store.getMonthUsed(accountId)).toBe(2);
      } finally {
        await proxy.close();
      }
    });

    it('counts nothing when the store holds every attempt, and fails as unavailable within the two timeouts', async () => {
      const proxy = await startStoreProxy(backend.endpoint);
      try {
        const stalled = new UsageStore(failFastThrough(proxy.endpoint), tables.accountsTable, { clock });
        proxy.mode = 'hold';
        const started = Date.now();
        const error = await stalled
          .admit({ accountId, limits: limits({}), countsTowardMonth: true, requestId: 'held' })
          .catch((e: unknown) => e);
        const elapsed = Date.now() - started;
        expect(error).toMatchObject({ name: 'TimeoutError' });
        expect(isStoreUnavailable(error)).toBe(true);
        expect(proxy.operations).toEqual(['UpdateItem', 'UpdateItem']);
        expect(elapsed).toBeGreaterThanOrEqual(2 * STORE_CALL_LIMITS.requestTimeoutMs - 50);
        expect(elapsed).toBeLessThan((STORE_CALL_LIMITS.maxAttempts + 1) * STORE_CALL_LIMITS.requestTimeoutMs);
        expect(await store.getMonthUsed(accountId)).toBe(0);
      } finally {
        await proxy.close();
      }
    });
  });

  it('spends one write and no read on an admitted request, and two writes on a refused one', async () => {
    const client = meteringClient();
    const counter = attachDdbCounter(client);
    const metered = new UsageStore(client, tables.accountsTable, { clock });
    const input = { accountId, limits: limits({ perMinute: 5 }), countsTowardMonth: true };
    for (let i = 0; i < 5; i++) {
      counter.reset();
      expect((await metered.admit({ ...input, requestId: `ok-${i}` })).verdict).toBe('admitted');
      expect(counter.snapshot()).toMatchObject({ writes: 1, reads: 0 });
    }
    counter.reset();
    expect((await metered.admit({ ...input, requestId: 'refused' })).verdict).toBe('rate-limit-exceeded');
    // The failed conditional write, then the day's refusal counter. DynamoDB Local returns the old item with the
    // failed condition; dynalite does not, so it costs a read there.
    expect(counter.snapshot()).toMatchObject({
      writes: 2,
      failedConditions: 1,
      reads: backend.name === 'dynalite' ? 1 : 0,
    });
  });

  it('counts admitted and refused requests on their day of the month, which the month read returns', async () => {
    const plan = limits({ perMinute: 2 });
    const input = { accountId, limits: plan, countsTowardMonth: true };
    now = ms('2026-09-03T23:59:00.000Z');
    await admitMany(store, 3, input);
    now = ms('2026-09-04T00:00:00.000Z');
    await store.admit({ ...input, countsTowardMonth: false });
    await admitMany(store, 4, input);
    const usage = await store.monthUsage(accountId, new Date(now));
    expect(usage.monthUsed).toBe(3);
    expect(usage.admittedByDay).toEqual(
      new Map([
        [3, 2],
        [4, 2],
      ]),
    );
    expect(usage.refusedByDay).toEqual(
      new Map([
        [3, 1],
        [4, 3],
      ]),
    );
    const other = await store.monthUsage(`acct-${randomUUID()}`, new Date(now));
    expect(other).toEqual({ monthUsed: 0, admittedByDay: new Map(), refusedByDay: new Map() });
  });

  it('still answers a refusal when counting it fails, and reports the failure', async () => {
    const client = meteringClient();
    const failures: unknown[] = [];
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const input = (args as { input?: { UpdateExpression?: string } }).input;
        if (context.commandName === 'UpdateItemCommand' && input?.UpdateExpression?.startsWith('ADD #day')) {
          throw Object.assign(new Error('throttled'), { name: 'ThrottlingException', $metadata: {} });
        }
        return next(args);
      },
      { step: 'initialize', name: 'failRefusalCount' },
    );
    const flaky = new UsageStore(client, tables.accountsTable, { clock, onCleanupError: (e) => failures.push(e) });
    const input = { accountId, limits: limits({ perMinute: 1 }), countsTowardMonth: true };
    expect((await flaky.admit(input)).verdict).toBe('admitted');
    expect((await flaky.admit(input)).verdict).toBe('rate-limit-exceeded');
    expect(failures).toHaveLength(1);
    expect((await store.monthUsage(accountId)).refusedByDay.size).toBe(0);
  });

  it('spends one write per request across consecutive minutes, the first of each minute included', async () => {
    const client = meteringClient();
    const counter = attachDdbCounter(client);
    const metered = new UsageStore(client, tables.accountsTable, { clock });
    const input = { accountId, limits: limits({}), countsTowardMonth: true };
    await metered.admit(input);
    counter.reset();
    for (let minute = 1; minute <= 5; minute++) {
      now += 60_000;
      await metered.admit(input);
      await metered.admit(input);
    }
    expect(counter.snapshot()).toMatchObject({ writes: 10, reads: 0 });
  });

  it('keeps the usage item to a few minute counters after traffic with gaps', async () => {
    const input = { accountId, limits: limits({}), countsTowardMonth: true };
    now = ms('2026-09-15T00:00:30.000Z');
    for (let i = 0; i < 30; i++) {
      await store.admit(input);
      now += (i % 3) * 60_000 + 60_000;
    }
    const raw = await tables.client.send(
      new GetCommand({ TableName: tables.accountsTable, Key: { pk: usageKey(accountId, '2026-09') } }),
    );
    const counters = Object.keys(raw.Item ?? {}).filter((name) => /^m\d+$/.test(name));
    expect(counters.length).toBeGreaterThan(0);
    expect(counters.length).toBeLessThanOrEqual(2);
    expect(raw.Item?.month_count).toBe(30);
  });

  it('sets expires_at three months after the end of the month', async () => {
    await store.admit({ accountId, limits: limits({}), countsTowardMonth: true });
    const raw = await tables.client.send(
      new GetCommand({ TableName: tables.accountsTable, Key: { pk: usageKey(accountId, '2026-09') } }),
    );
    expect(raw.Item?.expires_at).toBe(Date.UTC(2027, 0, 1) / 1000);
  });

  it('refuses every request of an account whose per-minute limit is 0, without writing', async () => {
    const client = meteringClient();
    const counter = attachDdbCounter(client);
    const metered = new UsageStore(client, tables.accountsTable, { clock });
    const refused = await metered.admit({ accountId, limits: limits({ perMinute: 0 }), countsTowardMonth: true });
    expect(refused).toMatchObject({ verdict: 'rate-limit-exceeded', minuteUsed: 0, minuteLimit: 0 });
    expect(counter.snapshot().writes).toBe(0);
  });

  it('reports the minute of the admission and the plan name in the state', async () => {
    const state = await store.admit({ accountId, limits: PLANS.business, countsTowardMonth: true });
    expect(state).toEqual({
      verdict: 'admitted',
      plan: 'Business',
      minuteLimit: PLANS.business.perMinute,
      minuteUsed: 1,
      monthLimit: effectiveLimit(PLANS.business),
      monthUsed: 1,
      at: now,
    });
    expect(minuteOfMonth(state.at)).toBe(minuteOfMonth(now));
  });

  it('reads 0 used for an account without usage this month', async () => {
    expect(await store.getMonthUsed(`acct-${randomUUID()}`)).toBe(0);
  });
});
