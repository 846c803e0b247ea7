import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { apiHandler } from '../../../lambdas/core/http/api-handler';
import { startTestApi, type TestApi } from '../../support/api-service';

/** Every row of the contract's error table, over real HTTP against the local server. */
describe('contract error table over HTTP', () => {
  let api: TestApi;
  let business: string;
  let pro: string;
  let free: string;

  beforeAll(async () => {
    api = await startTestApi();
    business = (await api.newKey('business')).key;
    pro = (await api.newKey('pro')).key;
    free = (await api.newKey('free')).key;
  });
  afterAll(() => api.close());

  const expectError = async (
    reply: Promise<Awaited<ReturnType<TestApi['get']>>>,
    status: number,
    code: string,
    param?: string,
  ) => {
    const r = await reply;
    expect({ status: r.status, code: r.json().error?.code }).toEqual({ status, code });
    const body = r.json();
    expect(body.success).toBe(false);
    expect(typeof body.error?.message).toBe('string');
    expect(body.error?.message).not.toMatch(/\n|\bat \w+ \(|Error:/);
    if (param) expect(body.error?.param).toBe(param);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.headers.get('x-request-id')).toBeTruthy();
    expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
    return body;
  };

  it.each([
    '-1',
    '+5',
    '1e3',
    '1,000',
    ' 5',
    '0',
    '0.000',
    '1000000000000',
    '1000000000000.5',
    'abc',
    '0x10',
    '.5',
    '5.',
    'NaN',
  ])('returns 400 invalid-amount for amount=%p', async (amount) => {
    await expectError(
      api.get(`rates/pair/USD/EUR?amount=${encodeURIComponent(amount)}`, business),
      400,
      'invalid-amount',
      'amount',
    );
  });

  it.each([
    ['2023-02-30', 'not a real calendar day'],
    ['2023-2-3', 'not YYYY-MM-DD'],
    ['20230203', 'not YYYY-MM-DD'],
    ['2026-10-01', 'after today'],
  ])('returns 400 invalid-date for %s (%s)', async (date) => {
    await expectError(api.get(`rates/history/USD/EUR/${date}`, business), 400, 'invalid-date', 'date');
  });

  it('returns 400 invalid-parameter for a parameter given twice', async () => {
    await expectError(api.get('rates/latest?base=USD&base=GBP', business), 400, 'invalid-parameter', 'base');
  });

  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])(
    'ignores a query parameter named %s, given once or twice',
    async (name) => {
      const once = await api.get(`rates/latest?${name}=1`, business);
      expect(once.status).toBe(200);
      const twice = await api.get(`rates/latest?${name}=1&${name}=2`);
      expect(twice.json().error?.code).toBe('missing-api-key');
    },
  );

  it('answers a request Node refuses to parse in the envelope, with a request id', async () => {
    const huge = await api.get(`rates/latest?x=${'a'.repeat(20_000)}`, business);
    expect(huge.status).toBe(400);
    expect(huge.json().error?.code).toBe('invalid-parameter');
    expect(huge.headers.get('x-request-id')).toBeTruthy();
    expect(huge.headers.get('cache-control')).toBe('no-store');
  });

  it('ignores unknown parameters, even repeated ones', async () => {
    const r = await api.get('rates/latest?base=USD&utm=a&utm=b&Base=GBP', business);
    expect(r.status).toBe(200);
    expect(r.json().data?.base).toBe('USD');
  });

  it('returns 400 invalid-parameter for an absurdly long value', async () => {
    await expectError(api.get(`rates/latest?base=${'U'.repeat(200)}`, business), 400, 'invalid-parameter', 'base');
    await expectError(api.get(`rates/pair/${'A'.repeat(100)}/EUR`, business), 400, 'invalid-parameter', 'from');
  });

  it.each(['api_key', 'apikey', 'key', 'access_key', 'x-api-key', 'API_KEY'])(
    'returns 400 api-key-in-url for ?%s= even beside a valid header',
    async (name) => {
      await expectError(api.get(`rates/latest?${name}=whatever`, business), 400, 'api-key-in-url');
    },
  );

  it('returns 401 missing-api-key without the header, and for an empty one', async () => {
    await expectError(api.get('rates/latest'), 401, 'missing-api-key', 'X-API-Key');
    await expectError(api.get('rates/latest', ''), 401, 'missing-api-key', 'X-API-Key');
  });

  it('returns 401 invalid-api-key for malformed, unknown and revoked keys', async () => {
    await expectError(api.get('rates/latest', 'not-a-key'), 401, 'invalid-api-key', 'X-API-Key');
    const almost = `${business.slice(0, -1)}${business.endsWith('A') ? 'B' : 'A'}`;
    await expectError(api.get('rates/latest', almost), 401, 'invalid-api-key');
    const { key, keyId } = await api.newKey('pro');
    await api.service.accounts.revokeKey(keyId);
    await expectError(api.get('rates/latest', key), 401, 'invalid-api-key');
  });

  it('refuses a revoked key within 60 s, even after it was used', async () => {
    const { key, keyId } = await api.newKey('pro');
    expect((await api.get('rates/latest', key)).status).toBe(200);
    await api.service.accounts.revokeKey(keyId);
    api.clock.advance(60_001);
    await expectError(api.get('rates/latest', key), 401, 'invalid-api-key');
  });

  it('returns 403 account-inactive for a suspended account', async () => {
    const { key, accountId } = await api.newKey('pro');
    await api.service.accounts.setStatus(accountId, 'suspended');
    await expectError(api.get('rates/latest', key), 403, 'account-inactive');
  });

  it('returns 403 plan-upgrade-required for history on Free and beyond the Pro window', async () => {
    await expectError(api.get('rates/history/USD/EUR/2026-04-13', free), 403, 'plan-upgrade-required');
    await expectError(api.get('rates/history/USD/EUR/2024-04-12', pro), 403, 'plan-upgrade-required');
  });

  it('returns 404 no-data-available on a weekend and before a currency existed', async () => {
    await expectError(api.get('rates/history/USD/EUR/2026-04-11', business), 404, 'no-data-available');
    await expectError(api.get('rates/history/TRY/EUR/1999-01-04', business), 404, 'no-data-available');
    await expectError(api.get('rates/history/USD/EUR/1998-12-31', business), 404, 'no-data-available');
  });

  it('returns 404 not-found for unknown paths and methods, in the envelope', async () => {
    await expectError(api.get('rates/oldest', business), 404, 'not-found');
    await expectError(api.get('rates/pair/USD', business), 404, 'not-found');
    await expectError(api.request('GET', '/v2/rates/latest', { 'X-API-Key': business }), 404, 'not-found');
    await expectError(api.request('POST', '/v1/rates/latest', { 'X-API-Key': business }), 404, 'not-found');
    await expectError(api.request('DELETE', '/v1/quota', { 'X-API-Key': business }), 404, 'not-found');
  });

  it.each([
    ['rates/latest?base=XYZ', 'base'],
    ['rates/pair/XYZ/EUR', 'from'],
    ['rates/pair/EUR/BTC', 'to'],
    ['rates/history/USD/XYZ/2026-04-13', 'to'],
    ['rates/enriched/ABC/EUR', 'from'],
    ['rates/latest?base=CYP', 'base'],
  ])('returns 422 unsupported-currency for %s', async (path, param) => {
    const body = await expectError(api.get(path, business), 422, 'unsupported-currency', param);
    expect(body.error?.message).toMatch(/^Currency '[A-Z]{3}' is not supported\.$/);
  });

  it('returns 422 for an active ISO code no source delivers, on history too and before the plan check', async () => {
    await expectError(api.get('rates/history/UYW/EUR/2026-04-13', business), 422, 'unsupported-currency', 'from');
    await expectError(api.get('rates/history/EUR/XUA/2026-04-13', free), 422, 'unsupported-currency', 'to');
  });

  it('echoes non-ASCII input as sent rather than as a code it could be mistaken for', async () => {
    const body = await expectError(api.get('rates/pair/%C4%B1nr/USD', business), 422, 'unsupported-currency', 'from');
    // A dotless ı upper-cases to I: echoing the upper-cased form would read 'INR', a supported code.
    expect(body.error?.message).toBe("Currency 'ınr' is not supported.");
  });

  it('accepts lower-case codes and upper-cases them first', async () => {
    const r = await api.get('rates/pair/usd/gbp', business);
    expect(r.status).toBe(200);
    expect(r.json().data).toMatchObject({ base: 'USD', target: 'GBP' });
  });

  it.each(['fr', 'EN', 'de-DE', ''])('returns 422 unsupported-locale for locale=%p', async (locale) => {
    await expectError(api.get(`currencies?locale=${locale}`, business), 422, 'unsupported-locale', 'locale');
  });

  it('returns 429 rate-limit-exceeded when the minute is used up, with Retry-After', async () => {
    const { key } = await api.newKey('free', { perMinute: 2 });
    expect((await api.get('rates/latest', key)).status).toBe(200);
    expect((await api.get('rates/latest', key)).status).toBe(200);
    const r = await api.get('rates/latest', key);
    await expectError(Promise.resolve(r), 429, 'rate-limit-exceeded');
    expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(r.headers.get('retry-after'))).toBeLessThanOrEqual(60);
  });

  it('returns 429 quota-exceeded when the month is used up, with Retry-After until next month', async () => {
    const { key } = await api.newKey('free', { monthlyLimit: 2, perMinute: 100 });
    await api.get('rates/latest', key);
    await api.get('rates/latest', key);
    const r = await api.get('rates/latest', key);
    await expectError(Promise.resolve(r), 429, 'quota-exceeded');
    const untilNextMonth = (Date.parse('2026-10-01T00:00:00Z') - api.clock.now().getTime()) / 1000;
    expect(r.headers.get('retry-after')).toBe(String(Math.ceil(untilNextMonth)));
  });

  it('returns 503 service-unavailable before any rates were ingested', async () => {
    const empty = await startTestApi({ loadRates: false });
    try {
      const { key } = await empty.newKey('pro');
      await expectError(empty.get('rates/latest', key), 503, 'service-unavailable');
      await expectError(empty.get('currencies', key), 503, 'service-unavailable');
      await expectError(empty.get('rates/history/USD/EUR/2026-04-13', key), 503, 'service-unavailable');
    } finally {
      await empty.close();
    }
  });
});

describe('unexpected failures', () => {
  it('returns 500 internal-error in the envelope, without internals, when an endpoint throws', async () => {
    const handler = apiHandler('latest', async () => {
      throw new TypeError("Cannot read properties of undefined (reading 'rates')");
    });
    const event = {
      requestContext: { requestId: 'req-1', authorizer: { verdict: 'admitted' } },
      headers: {},
    } as unknown as APIGatewayProxyEvent;
    const response = await handler(event, {} as Context);
    expect(response.statusCode).toBe(500);
    expect(JSON.parse(response.body)).toEqual({
      success: false,
      error: { code: 'internal-error', message: 'An unexpected error occurred.' },
    });
    expect(response.headers).toMatchObject({ 'X-Request-Id': 'req-1', 'Cache-Control': 'no-store' });
  });

  it('returns 500 internal-error, as API Gateway does for a failing authorizer, when the accounts table is gone', async () => {
    const api = await startTestApi({ loadRates: false });
    try {
      const { key } = await api.newKey('pro');
      await api.service.client.send(new DeleteTableCommand({ TableName: api.service.accounts.tableName }));
      const r = await api.get('rates/latest', key);
      expect(r.status).toBe(500);
      expect(r.json().error?.code).toBe('internal-error');
      expect(r.headers.get('x-request-id')).toBeTruthy();
    } finally {
      await api.close();
    }
  });
});
