import { startTestApi, type TestApi } from '../../support/api-service';

const HEADERS = [
  'x-ratelimit-limit-minute',
  'x-ratelimit-remaining-minute',
  'x-ratelimit-limit-month',
  'x-ratelimit-remaining-month',
  'ratelimit-policy',
  'ratelimit',
];

const used = async (api: TestApi, key: string) =>
  ((await api.get('quota', key)).json().data as { quota: { used: number; remaining: number } }).quota;

describe('metering over HTTP', () => {
  let api: TestApi;
  beforeAll(async () => {
    // 2026-09-30 12:00:19Z: 41 s left in the minute, 30 days in September.
    api = await startTestApi({ now: '2026-09-30T12:00:19Z' });
  });
  afterAll(() => api.close());

  it('puts the six rate-limit headers on a success exactly as the contract shows them', async () => {
    const { key } = await api.newKey('pro', {});
    const r = await api.get('rates/latest', key);
    expect(r.status).toBe(200);
    expect(Object.fromEntries(HEADERS.map((h) => [h, r.headers.get(h)]))).toEqual({
      'x-ratelimit-limit-minute': '60',
      'x-ratelimit-remaining-minute': '59',
      'x-ratelimit-limit-month': '33000',
      'x-ratelimit-remaining-month': '32999',
      'ratelimit-policy': '"minute";q=60;w=60, "month";q=33000;w=2592000',
      ratelimit: '"minute";r=59;t=41',
    });
    expect(r.headers.get('retry-after')).toBeNull();
  });

  it('puts them on a 4xx after admission too, counting that request', async () => {
    const { key } = await api.newKey('pro', {});
    const r = await api.get('rates/pair/XYZ/EUR', key);
    expect(r.status).toBe(422);
    expect(r.headers.get('x-ratelimit-remaining-minute')).toBe('59');
    expect(r.headers.get('x-ratelimit-remaining-month')).toBe('32999');
  });

  it('puts them on a 429 with Retry-After until the minute resets, and the 429 does not count', async () => {
    const { key } = await api.newKey('free', { perMinute: 3 });
    for (let i = 0; i < 3; i++) expect((await api.get('rates/latest', key)).status).toBe(200);
    const refused = await api.get('rates/latest', key);
    expect(refused.status).toBe(429);
    expect(refused.json().error?.code).toBe('rate-limit-exceeded');
    for (const h of HEADERS) expect(refused.headers.get(h)).not.toBeNull();
    expect(refused.headers.get('x-ratelimit-remaining-minute')).toBe('0');
    expect(refused.headers.get('retry-after')).toBe('41');
    expect(refused.headers.get('ratelimit')).toBe('"minute";r=0;t=41');
    api.clock.advance(41_000);
    const quota = await used(api, key);
    expect(quota.used).toBe(3);
    api.clock.advance(-41_000);
  });

  it('puts them on a 403 account-inactive, which counts nothing', async () => {
    const { key, accountId } = await api.newKey('pro', {});
    await api.get('rates/latest', key);
    await api.service.accounts.setStatus(accountId, 'suspended');
    api.clock.advance(60_001);
    try {
      const r = await api.get('rates/latest', key);
      expect(r.status).toBe(403);
      expect(r.headers.get('x-ratelimit-remaining-month')).toBe('32999');
      expect(r.headers.get('x-ratelimit-limit-minute')).toBe('60');
      expect(r.headers.get('retry-after')).toBeNull();
      await api.service.accounts.setStatus(accountId, 'active');
      api.clock.advance(60_001);
      expect((await api.get('quota', key)).json().data).toMatchObject({ quota: { used: 1 } });
    } finally {
      api.clock.advance(-120_002);
    }
  });

  it('answers GET /v1/quota when the month is used up, counting it toward the minute only', async () => {
    const { key } = await api.newKey('free', { monthlyLimit: 2, perMinute: 100 });
    await api.get('rates/latest', key);
    await api.get('rates/latest', key);
    expect((await api.get('rates/latest', key)).json().error?.code).toBe('quota-exceeded');
    const q1 = await api.get('quota', key);
    expect(q1.status).toBe(200);
    expect(q1.json().data).toMatchObject({ quota: { used: 2, remaining: 0, effective_limit: 2 } });
    expect(q1.headers.get('x-ratelimit-remaining-month')).toBe('0');
    // two admitted, the 429 not counted, and this quota request: 100 − 3
    expect(q1.headers.get('x-ratelimit-remaining-minute')).toBe('97');
  });

  it('moves the quota report by exactly the requests made', async () => {
    const { key } = await api.newKey('business', {});
    const before = await used(api, key);
    for (let i = 0; i < 7; i++) await api.get('rates/pair/EUR/USD', key);
    await api.get('rates/history/USD/EUR/1999-01-02', key);
    const after = await used(api, key);
    expect(after.used - before.used).toBe(8);
    expect(before.remaining - after.remaining).toBe(8);
  });

  it('shares one budget between two keys of one account', async () => {
    const { key, accountId } = await api.newKey('pro', { monthlyLimit: 1000, perMinute: 1000 });
    const second = await api.service.accounts.createKey(accountId, 'second');
    await api.get('rates/latest', key);
    await api.get('rates/latest', second.key);
    expect((await used(api, second.key)).used).toBe(2);
  });

  it('admits exactly n of m parallel requests when n are left', async () => {
    const { key } = await api.newKey('pro', { monthlyLimit: 20, perMinute: 1000, overflowAllowed: false });
    const replies = await Promise.all(Array.from({ length: 60 }, () => api.get('rates/pair/EUR/GBP', key)));
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40);
    expect((await used(api, key)).used).toBe(20);
  });

  it('gives each of 30 parallel requests the remaining counts of its own turn', async () => {
    // The local server admits requests that arrive together with one write; each still reads as counted alone.
    const { key } = await api.newKey('pro', { monthlyLimit: 1000, perMinute: 100, overflowAllowed: false });
    const replies = await Promise.all(Array.from({ length: 30 }, () => api.get('rates/pair/EUR/GBP', key)));
    expect(replies.every((r) => r.status === 200)).toBe(true);
    const remaining = (header: string) => replies.map((r) => Number(r.headers.get(header))).sort((a, b) => b - a);
    const turns = Array.from({ length: 30 }, (_, i) => i + 1);
    expect(remaining('x-ratelimit-remaining-month')).toEqual(turns.map((n) => 1000 - n));
    expect(remaining('x-ratelimit-remaining-minute')).toEqual(turns.map((n) => 100 - n));
    expect((await used(api, key)).used).toBe(30);
  });

  it('applies overflow: Pro may go 10 % above its base limit', async () => {
    const { key } = await api.newKey('pro', { monthlyLimit: 10, perMinute: 1000 });
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) statuses.push((await api.get('rates/latest', key)).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(11);
    expect(statuses.at(-1)).toBe(429);
  });

  it('starts a new month at 00:00 UTC on the 1st', async () => {
    const { key } = await api.newKey('free', { monthlyLimit: 1, perMinute: 100 });
    expect((await api.get('rates/latest', key)).status).toBe(200);
    expect((await api.get('rates/latest', key)).status).toBe(429);
    const saved = api.clock.now().toISOString();
    api.clock.set('2026-10-01T00:00:00Z');
    try {
      expect((await api.get('rates/latest', key)).status).toBe(200);
    } finally {
      api.clock.set(saved);
    }
  });
});
