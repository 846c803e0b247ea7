import { startTestApi, type TestApi } from '../../support/api-service';

describe('order of checks (contract: 401, 400 key in URL, 401, 403, 429, 400/422, 403 plan, 404)', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi();
  });
  afterAll(() => api.close());

  it('gives a Free key asking history for XYZ 422, and for USD/EUR 403', async () => {
    const { key } = await api.newKey('free');
    expect((await api.get('rates/history/XYZ/EUR/2026-04-13', key)).json().error?.code).toBe('unsupported-currency');
    expect((await api.get('rates/history/USD/EUR/2026-04-13', key)).json().error?.code).toBe('plan-upgrade-required');
  });

  it('checks the plan before the data: a Free key on a weekend gets 403, not 404', async () => {
    const { key } = await api.newKey('free');
    expect((await api.get('rates/history/USD/EUR/2026-04-11', key)).status).toBe(403);
  });

  it('refuses a key in the URL before looking at the key itself', async () => {
    const r = await api.get('rates/latest?apikey=fxr_x', 'garbage');
    expect(r.json().error?.code).toBe('api-key-in-url');
  });

  it('refuses a missing key before a key in the URL', async () => {
    expect((await api.get('rates/latest?api_key=x')).json().error?.code).toBe('missing-api-key');
  });

  it('reports an inactive account before limits and input', async () => {
    const { key, accountId } = await api.newKey('pro', { perMinute: 1 });
    await api.service.accounts.setStatus(accountId, 'suspended');
    expect((await api.get('rates/pair/XYZ/EUR?amount=-1', key)).json().error?.code).toBe('account-inactive');
  });

  it('reports limits before input validation', async () => {
    const { key } = await api.newKey('pro', { perMinute: 1 });
    await api.get('rates/latest', key);
    expect((await api.get('rates/pair/XYZ/EUR?amount=-1', key)).json().error?.code).toBe('rate-limit-exceeded');
  });

  it('reports malformed input (400) before unsupported input (422)', async () => {
    const { key } = await api.newKey('pro');
    expect((await api.get('rates/pair/XYZ/EUR?amount=-1', key)).json().error?.code).toBe('invalid-amount');
    expect((await api.get('rates/history/XYZ/EUR/2023-02-30', key)).json().error?.code).toBe('invalid-date');
  });

  it('does not count refusals of a key in the URL, inactive accounts or 429s, but counts admitted 4xx', async () => {
    const { key } = await api.newKey('pro', { perMinute: 1000, monthlyLimit: 1000 });
    await api.get('rates/latest?key=x', key);
    await api.get('rates/pair/XYZ/EUR', key);
    await api.get('rates/history/USD/EUR/1999-01-04', key);
    const used = ((await api.get('quota', key)).json().data as { quota: { used: number } }).quota.used;
    expect(used).toBe(2);
  });
});

describe('Pro history window at its edges (injected clock)', () => {
  const cases: [string, string, string, number, number][] = [
    // [today, asked date, description, Pro status, Business status]
    ['2026-04-13T10:00:00Z', '2025-04-13', 'today − 1 year exactly (a Sunday: inside, no data)', 404, 404],
    ['2026-04-13T10:00:00Z', '2025-04-14', 'inside the window, a Monday with ECB data', 200, 200],
    ['2026-04-13T10:00:00Z', '2025-04-11', 'a day with data before the window', 403, 200],
    ['2026-04-14T10:00:00Z', '2025-04-14', 'today − 1 year exactly, with data', 200, 200],
    ['2026-04-15T10:00:00Z', '2025-04-14', 'one day before the window', 403, 200],
    ['2028-02-29T10:00:00Z', '2027-02-28', '29 February maps to 28 February: inside, no data', 404, 404],
    ['2028-02-29T10:00:00Z', '2027-02-27', '29 February: the day before 28 February is outside', 403, 404],
  ];

  it.each(cases)(
    'on %s asking %s (%s) answers Pro %d, Business %d',
    async (now, date, _label, status, businessStatus) => {
      const api = await startTestApi({ now });
      try {
        const { key } = await api.newKey('pro');
        const r = await api.get(`rates/history/EUR/USD/${date}`, key);
        expect(r.status).toBe(status);
        const business = await api.newKey('business');
        const unlimited = await api.get(`rates/history/EUR/USD/${date}`, business.key);
        expect(unlimited.status).toBe(businessStatus);
      } finally {
        await api.close();
      }
    },
  );
});
