import { createHash, randomBytes } from 'node:crypto';
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import {
  type AccountLookup,
  type Admission,
  type AuthorizerOutcome,
  createAuthorizer,
  KEY_QUERY_PARAMETERS,
  type KeyLookup,
  type StoreFailure,
} from '../../../lambdas/core/auth/authorizer';
import { generateApiKey } from '../../../lambdas/core/domain/api-key';
import { ERROR_CATALOG } from '../../../lambdas/core/domain/errors';
import {
  type LimitOverrides,
  PLANS,
  type PlanId,
  type PlanLimits,
  resolveLimits,
} from '../../../lambdas/core/domain/plans';
import { effectiveLimit, type MeterState, type MeterVerdict } from '../../../lambdas/core/domain/quota';
import { decodeAccess } from '../../../lambdas/core/http/authorizer-context';

const METHOD_ARN = 'arn:aws:execute-api:eu-central-1:123456789012:abcdef1234/v1/GET/rates/latest';
const NOW = Date.parse('2026-09-15T10:20:19.000Z');

type AccountRecord = NonNullable<Awaited<ReturnType<AccountLookup['findAccount']>>>;

/** In-memory key records by SHA-256, counting lookups. */
class FakeKeys implements KeyLookup {
  readonly records = new Map<string, { accountId: string; revokedAt?: string }>();
  readonly lookups: string[] = [];
  /** Thrown by the next lookups, as a store that cannot be read throws. */
  failure: unknown;
  async findKeyByHash(sha256: string) {
    this.lookups.push(sha256);
    if (this.failure !== undefined) throw this.failure;
    const record = this.records.get(sha256);
    return record && { ...record };
  }
}

/** In-memory accounts, counting lookups. */
class FakeAccounts implements AccountLookup {
  readonly records = new Map<string, AccountRecord>();
  readonly lookups: string[] = [];
  failure: unknown;
  async findAccount(accountId: string) {
    this.lookups.push(accountId);
    if (this.failure !== undefined) throw this.failure;
    const record = this.records.get(accountId);
    return record && { ...record };
  }
}

/** An admission that answers with a chosen verdict and remembers what it was asked. */
class FakeAdmission implements Admission {
  verdict: MeterVerdict = 'admitted';
  /** Thrown by admit and peek; `hang` never answers. */
  failure: unknown;
  hang = false;
  readonly calls: { accountId: string; limits: PlanLimits; countsTowardMonth: boolean; requestId?: string }[] = [];
  constructor(private readonly now: () => number) {}
  async admit(input: { accountId: string; limits: PlanLimits; countsTowardMonth: boolean; requestId?: string }) {
    this.calls.push(input);
    if (this.hang) await new Promise(() => undefined);
    if (this.failure !== undefined) throw this.failure;
    const state: MeterState = {
      verdict: this.verdict,
      plan: input.limits.name,
      minuteLimit: input.limits.perMinute,
      minuteUsed: this.calls.length,
      monthLimit: effectiveLimit(input.limits),
      monthUsed: 100 + this.calls.length,
      at: this.now(),
    };
    return state;
  }
  readonly peeks: string[] = [];
  async peek(accountId: string, limits: PlanLimits): Promise<MeterState> {
    this.peeks.push(accountId);
    if (this.failure !== undefined) throw this.failure;
    return {
      verdict: 'admitted',
      plan: limits.name,
      minuteLimit: limits.perMinute,
      minuteUsed: 3,
      monthLimit: effectiveLimit(limits),
      monthUsed: 7,
      at: this.now(),
    };
  }
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

function setup() {
  let now = NOW;
  const clock = () => new Date(now);
  const keys = new FakeKeys();
  const accounts = new FakeAccounts();
  const usage = new FakeAdmission(() => now);
  const outcomes: AuthorizerOutcome[] = [];
  const unavailable: StoreFailure[] = [];
  const authorizer = createAuthorizer({
    keys,
    accounts,
    usage,
    clock,
    observe: (o) => outcomes.push(o),
    onUnavailable: (failure) => unavailable.push(failure),
  });

  function addKey(
    accountId: string,
    plan: PlanId = 'pro',
    options: { status?: 'active' | 'suspended'; overrides?: LimitOverrides } = {},
  ) {
    const key = generateApiKey((n) => randomBytes(n));
    keys.records.set(sha256(key), { accountId });
    accounts.records.set(accountId, {
      accountId,
      plan,
      status: options.status ?? 'active',
      overrides: options.overrides ?? {},
    });
    return key;
  }

  return {
    authorizer,
    keys,
    accounts,
    usage,
    outcomes,
    unavailable,
    addKey,
    advance: (ms: number) => {
      now += ms;
    },
    lookups: () => keys.lookups.length + accounts.lookups.length,
  };
}

function event(
  options: {
    key?: string;
    headers?: Record<string, string>;
    query?: Record<string, string>;
    multiQuery?: Record<string, string[]>;
    resource?: string;
    resourcePath?: string;
    requestId?: string;
  } = {},
): APIGatewayRequestAuthorizerEvent {
  const headers = options.headers ?? (options.key === undefined ? {} : { 'X-API-Key': options.key });
  return {
    type: 'REQUEST',
    methodArn: METHOD_ARN,
    resource: options.resource,
    path: `/v1${options.resource ?? '/rates/latest'}`,
    httpMethod: 'GET',
    headers,
    multiValueHeaders: null,
    pathParameters: null,
    queryStringParameters: options.query ?? null,
    multiValueQueryStringParameters: options.multiQuery ?? null,
    stageVariables: null,
    requestContext: { requestId: options.requestId ?? 'req-1', resourcePath: options.resourcePath },
  } as unknown as APIGatewayRequestAuthorizerEvent;
}

const effect = (result: APIGatewayAuthorizerResult) => result.policyDocument.Statement[0]?.Effect;
const accessOf = (result: APIGatewayAuthorizerResult) => decodeAccess({ ...result.context });

describe('authorizer: missing key', () => {
  it('denies a request without X-API-Key with missing-api-key and reads nothing', async () => {
    const t = setup();
    const result = await t.authorizer.authorize(event());
    expect(effect(result)).toBe('Deny');
    expect(result.context).toEqual({
      errorCode: 'missing-api-key',
      errorMessage: ERROR_CATALOG['missing-api-key'].message,
    });
    expect(t.lookups()).toBe(0);
    expect(t.usage.calls).toHaveLength(0);
    expect(t.outcomes).toEqual([{ kind: 'missing-api-key' }]);
  });

  it('treats an empty header or absent headers as missing', async () => {
    const t = setup();
    const empty = await t.authorizer.authorize(event({ headers: { 'X-API-Key': '' } }));
    expect(empty.context?.errorCode).toBe('missing-api-key');
    const noHeaders = await t.authorizer.authorize({ ...event(), headers: null });
    expect(noHeaders.context?.errorCode).toBe('missing-api-key');
  });

  it('reports a missing header before a key in the URL', async () => {
    const t = setup();
    const result = await t.authorizer.authorize(event({ query: { api_key: 'fxr_x' } }));
    expect(effect(result)).toBe('Deny');
    expect(result.context?.errorCode).toBe('missing-api-key');
  });

  it('finds the header whatever its case', async () => {
    const t = setup();
    const key = t.addKey('acc-1');
    for (const name of ['x-api-key', 'X-API-KEY', 'x-Api-Key']) {
      const result = await t.authorizer.authorize(event({ headers: { [name]: key } }));
      expect([name, effect(result), accessOf(result)?.verdict]).toEqual([name, 'Allow', 'admitted']);
    }
  });
});

describe('authorizer: key in the URL', () => {
  it.each(KEY_QUERY_PARAMETERS.flatMap((name) => [name, name.toUpperCase()]))(
    'allows with verdict api-key-in-url for ?%s= even beside a valid header, without a lookup',
    async (name) => {
      const t = setup();
      const key = t.addKey('acc-1');
      const result = await t.authorizer.authorize(event({ key, query: { base: 'USD', [name]: key } }));
      expect(effect(result)).toBe('Allow');
      expect(accessOf(result)).toEqual({ verdict: 'api-key-in-url' });
      expect(t.lookups()).toBe(0);
      expect(t.usage.calls).toHaveLength(0);
      expect(t.outcomes).toEqual([{ kind: 'api-key-in-url' }]);
    },
  );

  it('names exactly the parameters of the contract', () => {
    expect([...KEY_QUERY_PARAMETERS].sort()).toEqual(['access_key', 'api_key', 'apikey', 'key', 'x-api-key']);
  });

  it('sees the parameter in the multi-value query too', async () => {
    const t = setup();
    const key = t.addKey('acc-1');
    const result = await t.authorizer.authorize(event({ key, multiQuery: { Access_Key: ['x', 'y'] } }));
    expect(accessOf(result)?.verdict).toBe('api-key-in-url');
  });

  it('refuses a key in the URL beside a malformed header too', async () => {
    const t = setup();
    const result = await t.authorizer.authorize(event({ key: 'garbage', query: { key: 'garbage' } }));
    expect(accessOf(result)?.verdict).toBe('api-key-in-url');
  });

  it('ignores parameters that merely contain the word key', async () => {
    const t = setup();
    const key = t.addKey('acc-1');
    const query = { monkey: '1', keys: '2', apikeys: '3', key_id: '4', base: 'USD' };
    const result = await t.authorizer.authorize(event({ key, query }));
    expect(accessOf(result)?.verdict).toBe('admitted');
  });
});

describe('authorizer: key validity', () => {
  it('denies malformed keys with invalid-api-key without any lookup', async () => {
    const t = setup();
    const valid = t.addKey('acc-1');
    const typo = `${valid.slice(0, 10)}${valid[10] === 'a' ? 'b' : 'a'}${valid.slice(11)}`;
    for (const key of ['garbage', 'fxr_', typo, valid.slice(0, -1), `${valid}x`, valid.toUpperCase(), ` ${valid}`]) {
      const result = await t.authorizer.authorize(event({ key }));
      expect([key, effect(result), result.context?.errorCode]).toEqual([key, 'Deny', 'invalid-api-key']);
    }
    expect(t.lookups()).toBe(0);
    expect(t.usage.calls).toHaveLength(0);
  });

  it('denies an unknown well-formed key after one key lookup by its SHA-256', async () => {
    const t = setup();
    const key = generateApiKey((n) => randomBytes(n));
    const result = await t.authorizer.authorize(event({ key }));
    expect(effect(result)).toBe('Deny');
    expect(result.context).toEqual({
      errorCode: 'invalid-api-key',
      errorMessage: ERROR_CATALOG['invalid-api-key'].message,
    });
    expect(t.keys.lookups).toEqual([sha256(key)]);
    expect(t.accounts.lookups).toEqual([]);
    expect(t.outcomes).toEqual([{ kind: 'invalid-api-key' }]);
  });

  it('denies a revoked key without reading its account', async () => {
    const t = setup();
    const key = t.addKey('acc-1');
    t.keys.records.set(sha256(key), { accountId: 'acc-1', revokedAt: '2026-09-01T00:00:00Z' });
    const result = await t.authorizer.authorize(event({ key }));
    expect(result.context?.errorCode).toBe('invalid-api-key');
    expect(t.accounts.lookups).toEqual([]);
    expect(t.usage.calls).toHaveLength(0);
  });

  it('denies a key whose account no longer exists', async () => {
    const t = setup();
    const key = t.addKey('acc-1');
    t.accounts.records.delete('acc-1');
    const result = await t.authorizer.authorize(event({ key }));
    expect(result.context?.errorCode).toBe('invalid-api-key');
    expect(t.usage.calls).toHaveLength(0);
  });

  it('puts only JSON-safe text in a Deny, since the gateway inserts it into the body as it is', async () => {
    const t = setup();
    for (const e of [event(), event({ key: 'garbage' })]) {
      const result = await t.authorizer.authorize(e);
      for (const value of Object.values(result.context ?? {})) {
        expect(JSON.stringify(value)).toBe(`"${value}"`);
      }
    }
  });
});

describe('authorizer: account status', () => {
  it('allows a suspended account with verdict account-inactive, reading but not counting its usage', async () => {
    const t = setup();
    const key = t.addKey('acc-9', 'business', { status: 'suspended' });
    const result = await t.authorizer.authorize(event({ key }));
    expect(effect(result)).toBe('Allow');
    expect(result.principalId).toBe('acc-9');
    const { monthlyLimit, overflowAllowed, overflowPercent, perMinute } = PLANS.business;
    expect(accessOf(result)).toEqual({
      verdict: 'account-inactive',
      accountId: 'acc-9',
      plan: 'business',
      limits: { monthlyLimit, overflowAllowed, overflowPercent, perMinute },
      meter: expect.objectContaining({ verdict: 'admitted', minuteUsed: 3, monthUsed: 7 }),
    });
    expect(t.usage.calls).toHaveLength(0);
    expect(t.usage.peeks).toEqual(['acc-9']);
    expect(t.outcomes).toEqual([{ kind: 'account-inactive', accountId: 'acc-9', plan: 'business' }]);
  });
});

describe('authorizer: admission', () => {
  it('allows an admitted request with the verdict, limits and metering in the context', async () => {
    const t = setup();
    const key = t.addKey('acc-1', 'pro');
    const result = await t.authorizer.authorize(event({ key, resource: '/rates/latest', requestId: 'req-77' }));
    expect(effect(result)).toBe('Allow');
    expect(result.principalId).toBe('acc-1');
    expect(t.usage.calls).toEqual([
      { accountId: 'acc-1', limits: resolveLimits('pro'), countsTowardMonth: true, requestId: 'req-77' },
    ]);
    expect(accessOf(result)).toEqual({
      verdict: 'admitted',
      accountId: 'acc-1',
      plan: 'pro',
      limits: { monthlyLimit: 30000, overflowAllowed: true, overflowPercent: 10, perMinute: 60 },
      meter: {
        verdict: 'admitted',
        plan: 'Pro',
        minuteLimit: 60,
        minuteUsed: 1,
        monthLimit: 33000,
        monthUsed: 101,
        at: NOW,
      },
    });
    expect(t.outcomes).toEqual([
      { kind: 'metered', accountId: 'acc-1', plan: 'pro', meter: expect.objectContaining({ verdict: 'admitted' }) },
    ]);
  });

  it.each(['rate-limit-exceeded', 'quota-exceeded'] as const)(
    'allows a %s refusal so the endpoint can render 429 with headers',
    async (verdict) => {
      const t = setup();
      const key = t.addKey('acc-1', 'free');
      t.usage.verdict = verdict;
      const result = await t.authorizer.authorize(event({ key }));
      expect(effect(result)).toBe('Allow');
      const access = accessOf(result);
      expect(access?.verdict).toBe(verdict);
      expect(access?.meter?.verdict).toBe(verdict);
    },
  );

  it('applies the account overrides to the limits it meters with', async () => {
    const t = setup();
    const overrides = { monthlyLimit: 5000, perMinute: 25, overflowAllowed: false };
    const key = t.addKey('acc-1', 'pro', { overrides });
    const result = await t.authorizer.authorize(event({ key }));
    expect(t.usage.calls[0]?.limits).toEqual(resolveLimits('pro', overrides));
    expect(accessOf(result)?.limits).toEqual({
      monthlyLimit: 5000,
      overflowAllowed: false,
      overflowPercent: 0,
      perMinute: 25,
    });
  });

  it('does not count the quota report toward the month, and counts every other route', async () => {
    const t = setup();
    const key = t.addKey('acc-1');
    const cases: [Parameters<typeof event>[0], boolean][] = [
      [{ key, resource: '/quota' }, false],
      [{ key, resourcePath: '/quota' }, false],
      [{ key, resource: '/rates/latest' }, true],
      [{ key, resource: '/rates/pair/{from}/{to}' }, true],
      [{ key, resource: '/rates/history/{from}/{to}/{date}' }, true],
      [{ key, resource: '/currencies' }, true],
      [{ key, resource: '/rates/enriched/{from}/{to}' }, true],
      [{ key, resource: '/no/such/route' }, true],
    ];
    for (const [options] of cases) await t.authorizer.authorize(event(options));
    expect(t.usage.calls.map((c) => c.countsTowardMonth)).toEqual(cases.map(([, counts]) => counts));
  });
});

describe('authorizer: policy', () => {
  it('grants or denies exactly the method ARN of the request', async () => {
    const t = setup();
    const key = t.addKey('acc-1');
    const suspended = t.addKey('acc-2', 'pro', { status: 'suspended' });
    const results = [
      await t.authorizer.authorize(event()),
      await t.authorizer.authorize(event({ key: 'garbage' })),
      await t.authorizer.authorize(event({ key, query: { apikey: 'x' } })),
      await t.authorizer.authorize(event({ key: suspended })),
      await t.authorizer.authorize(event({ key })),
    ];
    for (const result of results) {
      expect(result.policyDocument).toEqual({
        Version: '2012-10-17',
        Statement: [{ Action: 'execute-api:Invoke', Effect: effect(result), Resource: METHOD_ARN }],
      });
      for (const value of Object.values(result.context ?? {})) expect(typeof value).toBe('string');
    }
    expect(results.map(effect)).toEqual(['Deny', 'Deny', 'Allow', 'Allow', 'Allow']);
  });

  it('observes each decision exactly once', async () => {
    const t = setup();
    const key = t.addKey('acc-1');
    await t.authorizer.authorize(event());
    await t.authorizer.authorize(event({ key: 'garbage' }));
    await t.authorizer.authorize(event({ key }));
    expect(t.outcomes.map((o) => o.kind)).toEqual(['missing-api-key', 'invalid-api-key', 'metered']);
  });
});

describe('authorizer: record cache', () => {
  it('reads key and account once per minute while metering every request', async () => {
    const t = setup();
    const key = t.addKey('acc-1');
    for (let i = 0; i < 5; i++) await t.authorizer.authorize(event({ key }));
    expect(t.keys.lookups).toHaveLength(1);
    expect(t.accounts.lookups).toHaveLength(1);
    expect(t.usage.calls).toHaveLength(5);
  });

  it('sees a revocation once the cache time to live of 60 s has passed', async () => {
    const t = setup();
    const key = t.addKey('acc-1');
    await t.authorizer.authorize(event({ key }));
    t.keys.records.set(sha256(key), { accountId: 'acc-1', revokedAt: '2026-09-15T10:20:20Z' });
    t.advance(59_999);
    expect(effect(await t.authorizer.authorize(event({ key })))).toBe('Allow');
    t.advance(1);
    const result = await t.authorizer.authorize(event({ key }));
    expect(effect(result)).toBe('Deny');
    expect(result.context?.errorCode).toBe('invalid-api-key');
  });

  it('sees a suspension once the cache time to live has passed', async () => {
    const t = setup();
    const key = t.addKey('acc-1');
    await t.authorizer.authorize(event({ key }));
    const account = t.accounts.records.get('acc-1');
    if (account) t.accounts.records.set('acc-1', { ...account, status: 'suspended' });
    expect(accessOf(await t.authorizer.authorize(event({ key })))?.verdict).toBe('admitted');
    t.advance(60_000);
    expect(accessOf(await t.authorizer.authorize(event({ key })))?.verdict).toBe('account-inactive');
  });

  it('remembers unknown keys, so repeating one costs no further read within the minute', async () => {
    const t = setup();
    const key = generateApiKey((n) => randomBytes(n));
    await t.authorizer.authorize(event({ key }));
    await t.authorizer.authorize(event({ key }));
    expect(t.keys.lookups).toHaveLength(1);
  });

  it('shares the account record among the keys of one account', async () => {
    const t = setup();
    const first = t.addKey('acc-1');
    const second = generateApiKey((n) => randomBytes(n));
    t.keys.records.set(sha256(second), { accountId: 'acc-1' });
    await t.authorizer.authorize(event({ key: first }));
    await t.authorizer.authorize(event({ key: second }));
    expect(t.keys.lookups).toHaveLength(2);
    expect(t.accounts.lookups).toEqual(['acc-1']);
  });

  it('reads again after clearCaches', async () => {
    const t = setup();
    const key = t.addKey('acc-1');
    await t.authorizer.authorize(event({ key }));
    t.authorizer.clearCaches();
    await t.authorizer.authorize(event({ key }));
    expect(t.keys.lookups).toHaveLength(2);
    expect(t.accounts.lookups).toHaveLength(2);
  });
});

describe('authorizer: secrecy of the key', () => {
  it('never puts the key in a result or an observed outcome', async () => {
    const t = setup();
    const key = t.addKey('acc-1');
    const suspended = t.addKey('acc-2', 'free', { status: 'suspended' });
    const revoked = t.addKey('acc-3');
    t.keys.records.set(sha256(revoked), { accountId: 'acc-3', revokedAt: '2026-09-01T00:00:00Z' });
    const unknown = generateApiKey((n) => randomBytes(n));
    const cases = [
      { key, query: { key } },
      { key },
      { key: suspended },
      { key: revoked },
      { key: unknown },
      { key: `${key}x` },
    ];
    t.usage.verdict = 'quota-exceeded';
    for (const options of cases) {
      const result = await t.authorizer.authorize(event(options));
      const text = JSON.stringify(result);
      const secret = options.key.slice(4, 36);
      expect(text).not.toContain(secret);
    }
    const observed = JSON.stringify(t.outcomes);
    for (const secret of [key, suspended, revoked, unknown].map((k) => k.slice(4, 36))) {
      expect(observed).not.toContain(secret);
    }
    expect(t.outcomes).toHaveLength(cases.length);
  });
});

describe('authorizer: the store cannot answer', () => {
  const timeout = () => Object.assign(new Error('the store did not answer within 1000 ms'), { name: 'TimeoutError' });
  const throttled = () =>
    Object.assign(new Error('Throughput exceeds the current capacity'), {
      name: 'ProvisionedThroughputExceededException',
      $metadata: { httpStatusCode: 400 },
    });
  const refused = () => Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });

  it('allows with verdict unavailable when the key cannot be looked up, and counts nothing', async () => {
    const t = setup();
    const key = t.addKey('acc-1');
    t.keys.failure = timeout();
    const result = await t.authorizer.authorize(event({ key }));
    expect(effect(result)).toBe('Allow');
    expect(result.principalId).toBe('anonymous');
    expect(result.context).toEqual({ verdict: 'unavailable' });
    expect(accessOf(result)).toEqual({ verdict: 'unavailable' });
    expect(t.usage.calls).toHaveLength(0);
    expect(t.outcomes).toEqual([]);
    expect(t.unavailable).toEqual([{ stage: 'key', error: t.keys.failure }]);
  });

  it('answers unavailable when the account cannot be read, throttled past the retries', async () => {
    const t = setup();
    const key = t.addKey('acc-1');
    t.accounts.failure = throttled();
    const result = await t.authorizer.authorize(event({ key }));
    expect(accessOf(result)).toEqual({ verdict: 'unavailable' });
    expect(t.unavailable.map((f) => f.stage)).toEqual(['account']);
    expect(t.usage.calls).toHaveLength(0);
  });

  it('answers unavailable when the admission write fails, naming the account it knows and nothing more', async () => {
    const t = setup();
    const key = t.addKey('acc-1', 'business');
    t.usage.failure = refused();
    const result = await t.authorizer.authorize(event({ key }));
    expect(effect(result)).toBe('Allow');
    expect(result.principalId).toBe('acc-1');
    expect(result.context).toEqual({ verdict: 'unavailable', accountId: 'acc-1', plan: 'business' });
    expect(t.unavailable).toEqual([{ stage: 'usage', accountId: 'acc-1', error: t.usage.failure }]);
    expect(t.outcomes).toEqual([]);
  });

  it("answers unavailable when an inactive account's usage cannot be read", async () => {
    const t = setup();
    const key = t.addKey('acc-1', 'pro', { status: 'suspended' });
    t.usage.failure = Object.assign(new Error('oops'), {
      name: 'InternalServerError',
      $metadata: { httpStatusCode: 500 },
    });
    const result = await t.authorizer.authorize(event({ key }));
    expect(accessOf(result)?.verdict).toBe('unavailable');
    expect(t.outcomes).toEqual([]);
  });

  it('still refuses a missing or malformed key with 401, and a key in the URL with 400, asking no store', async () => {
    const t = setup();
    t.keys.failure = timeout();
    t.accounts.failure = timeout();
    t.usage.failure = timeout();
    expect((await t.authorizer.authorize(event())).context?.errorCode).toBe('missing-api-key');
    expect((await t.authorizer.authorize(event({ key: 'fxr_garbage' }))).context?.errorCode).toBe('invalid-api-key');
    const inUrl = await t.authorizer.authorize(event({ key: 'fxr_garbage', query: { api_key: 'x' } }));
    expect(accessOf(inUrl)?.verdict).toBe('api-key-in-url');
    expect(t.lookups()).toBe(0);
    expect(t.unavailable).toEqual([]);
  });

  it('serves a cached key and account and fails only on the write, and recovers once the store answers', async () => {
    const t = setup();
    const key = t.addKey('acc-1');
    expect(accessOf(await t.authorizer.authorize(event({ key })))?.verdict).toBe('admitted');
    t.keys.failure = timeout();
    t.accounts.failure = timeout();
    t.usage.failure = timeout();
    expect(accessOf(await t.authorizer.authorize(event({ key })))?.verdict).toBe('unavailable');
    expect(t.unavailable.map((f) => f.stage)).toEqual(['usage']);
    t.usage.failure = undefined;
    expect(accessOf(await t.authorizer.authorize(event({ key })))?.verdict).toBe('admitted');
    expect(t.lookups()).toBe(2);
  });

  it('throws what is not an outage (a missing table, a refused permission, a bug): API Gateway answers 500', async () => {
    for (const failure of [
      Object.assign(new Error('Requested resource not found'), {
        name: 'ResourceNotFoundException',
        $metadata: { httpStatusCode: 400 },
      }),
      Object.assign(new Error('not authorized'), { name: 'AccessDeniedException', $metadata: { httpStatusCode: 400 } }),
      new TypeError('x is undefined'),
    ]) {
      const t = setup();
      const key = t.addKey('acc-1');
      t.usage.failure = failure;
      await expect(t.authorizer.authorize(event({ key }))).rejects.toBe(failure);
      expect(t.unavailable).toEqual([]);
    }
  });

  it('answers unavailable at its deadline rather than running into the function timeout', async () => {
    const t = setup();
    const key = t.addKey('acc-1');
    t.usage.hang = true;
    const started = Date.now();
    const result = await t.authorizer.authorize(event({ key }), { deadlineMs: 100 });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(effect(result)).toBe('Allow');
    expect(result.context).toEqual({ verdict: 'unavailable' });
    expect(t.unavailable).toEqual([{ stage: 'deadline' }]);
  });

  it('answers as usual when the decision ends before its deadline', async () => {
    const t = setup();
    const key = t.addKey('acc-1');
    const result = await t.authorizer.authorize(event({ key }), { deadlineMs: 4_500 });
    expect(accessOf(result)?.verdict).toBe('admitted');
    expect(t.unavailable).toEqual([]);
  });
});
