import { CURRENCY_STATUS } from '../../../lambdas/core/domain/currency-table';
import { useTestApi } from '../../support/api-service';

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/** Every field of every response shape, and the headers the contract gives each endpoint. */
describe('response shapes over HTTP', () => {
  const ctx = useTestApi();

  it('serves the latest table: base, updated_at, every served currency, the base at 1', async () => {
    const r = await ctx.api.get('rates/latest?base=USD', ctx.key);
    expect(r.status).toBe(200);
    const body = r.json();
    expect(Object.keys(body)).toEqual(['success', 'data']);
    expect(body.success).toBe(true);
    const data = body.data as { base: string; updated_at: string; rates: Record<string, number> };
    expect(Object.keys(data)).toEqual(['base', 'updated_at', 'published_at', 'next_update_at', 'rates']);
    expect(data.base).toBe('USD');
    // currency-api's 2026-09-29 is the newest contributing day: D 00:00 UTC
    expect(data.updated_at).toBe('2026-09-29T00:00:00Z');
    expect(data.rates.USD).toBe(1);
    expect(Object.keys(data.rates).length).toBeGreaterThan(100);
    for (const [code, rate] of Object.entries(data.rates)) {
      expect(CURRENCY_STATUS[code]).toBe(false);
      expect(rate).toBeGreaterThan(0);
      expect(
        String(rate)
          .replace(/^0\.0*|\.|e.*$/g, '')
          .replace(/^0+/, '').length,
      ).toBeLessThanOrEqual(8);
    }
    expect(data.rates.BTC).toBeUndefined();
    expect(r.headers.get('cache-control')).toBe('private, max-age=86400');
  });

  it('defaults the latest base to EUR', async () => {
    const data = (await ctx.api.get('rates/latest', ctx.key)).json().data as {
      base: string;
      rates: Record<string, number>;
    };
    expect(data.base).toBe('EUR');
    expect(data.rates.EUR).toBe(1);
  });

  it('serves a pair without amount fields, and with them when an amount is given', async () => {
    const plain = await ctx.api.get('rates/pair/EUR/USD', ctx.key);
    expect(Object.keys(plain.json().data ?? {})).toEqual(['base', 'target', 'rate', 'published_at']);
    expect(plain.headers.get('cache-control')).toBeNull();
    const withAmount = (await ctx.api.get('rates/pair/EUR/USD?amount=100', ctx.key)).json().data;
    expect(Object.keys(withAmount ?? {})).toEqual(['base', 'target', 'rate', 'amount', 'converted', 'published_at']);
    expect(withAmount?.amount).toBe(100);
    expect(withAmount?.converted).toBeCloseTo((withAmount?.rate as number) * 100, 6);
  });

  it('serves a historical rate with its date and the immutable cache policy', async () => {
    const r = await ctx.api.get('rates/history/EUR/USD/1999-01-04', ctx.key);
    expect(r.json().data).toEqual({
      base: 'EUR',
      target: 'USD',
      date: '1999-01-04',
      rate: 1.1789,
      published_at: '1999-01-04T15:00:00Z',
    });
    expect(r.headers.get('cache-control')).toBe('private, max-age=604800, immutable');
  });

  it('derives history cross rates through EUR (ECB 1999-01-04: USD→JPY 113.43625)', async () => {
    expect((await ctx.api.get('rates/history/USD/JPY/1999-01-04', ctx.key)).json().data?.rate).toBe(113.43625);
  });

  it('serves withdrawn currencies on the days they have data', async () => {
    const r = await ctx.api.get('rates/history/CYP/EUR/1999-01-04', ctx.key);
    expect(r.status).toBe(200);
    expect(r.json().data?.rate).toBeCloseTo(1 / 0.58231, 6);
  });

  it('lists the served currencies with English names by default and German on request', async () => {
    const en = await ctx.api.get('currencies', ctx.key);
    const de = await ctx.api.get('currencies?locale=de', ctx.key);
    const enList = en.json().data?.currencies as Record<string, string>;
    const deList = de.json().data?.currencies as Record<string, string>;
    expect(Object.keys(en.json().data ?? {})).toEqual(['currencies']);
    expect(enList.USD).toBe('US Dollar');
    expect(deList.USD).toBe('US-Dollar');
    expect(Object.keys(enList)).toEqual(Object.keys(deList));
    const latest = (await ctx.api.get('rates/latest', ctx.key)).json().data?.rates as Record<string, number>;
    expect(Object.keys(enList).sort()).toEqual(Object.keys(latest).sort());
    expect(en.headers.get('cache-control')).toBe('private, max-age=2592000');
  });

  it('serves an enriched pair with localized names and narrow symbols', async () => {
    const data = (await ctx.api.get('rates/enriched/usd/gbp?locale=de', ctx.key)).json().data;
    expect(data).toEqual({
      base: 'USD',
      target: 'GBP',
      rate: (await ctx.api.get('rates/pair/USD/GBP', ctx.key)).json().data?.rate,
      base_detail: { name: 'US-Dollar', symbol: '$' },
      target_detail: { name: 'Britisches Pfund', symbol: '£' },
      published_at: '2026-09-29T00:00:00Z',
    });
    const en = (await ctx.api.get('rates/enriched/JPY/CHF', ctx.key)).json().data;
    expect(en?.base_detail).toEqual({ name: 'Japanese Yen', symbol: '¥' });
    expect(en?.target_detail).toEqual({ name: 'Swiss Franc', symbol: 'CHF' });
  });

  it('reports the quota with plan, limits, usage, reset and meta.timestamp', async () => {
    const pro = await ctx.api.newKey('pro', {});
    await ctx.api.get('rates/latest', pro.key);
    const r = await ctx.api.get('quota', pro.key);
    const body = r.json();
    expect(Object.keys(body)).toEqual(['success', 'data', 'meta']);
    expect(body.data).toEqual({
      plan: 'Pro',
      quota: {
        base_limit: 30000,
        effective_limit: 33000,
        used: 1,
        remaining: 32999,
        overflow_allowed: true,
        overflow_percent: 10,
      },
      resets_at: '2026-10-01T00:00:00Z',
    });
    expect(body.meta?.timestamp).toMatch(TIMESTAMP);
    expect(body.meta?.timestamp).toBe('2026-09-30T12:00:00Z');
    expect(r.headers.get('cache-control')).toBe('no-store');
  });

  it('puts X-Request-Id and the JSON content type on every response, unique per request', async () => {
    const ids = new Set<string>();
    for (const path of ['rates/latest', 'rates/pair/EUR/USD', 'quota', 'nothing-here', 'currencies?locale=xx']) {
      const r = await ctx.api.get(path, ctx.key);
      expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
      ids.add(r.headers.get('x-request-id') ?? '');
    }
    const anonymous = await ctx.api.get('rates/latest');
    ids.add(anonymous.headers.get('x-request-id') ?? '');
    expect(ids.size).toBe(6);
    expect(ids.has('')).toBe(false);
  });

  it('sends no CORS headers', async () => {
    const r = await ctx.api.get('rates/latest', ctx.key, { Origin: 'https://example.com' });
    expect([...r.headers.keys()].filter((h) => h.startsWith('access-control-'))).toEqual([]);
  });

  it.each([
    'rates/latest?base=GBP',
    'rates/pair/EUR/CHF',
    'rates/history/EUR/GBP/2026-04-13',
    'rates/enriched/EUR/JPY',
  ])('answers a matching If-None-Match on %s with 304 and no body, and it still counts', async (path) => {
    const counted = await ctx.api.newKey('pro', {});
    const first = await ctx.api.get(path, counted.key);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^".+"$/);
    const second = await ctx.api.get(path, counted.key, { 'If-None-Match': etag ?? '' });
    expect(second.status).toBe(304);
    expect(second.text).toBe('');
    expect(second.headers.get('etag')).toBe(etag);
    const other = await ctx.api.get(path, counted.key, { 'If-None-Match': '"something-else"' });
    expect(other.status).toBe(200);
    const quota = (await ctx.api.get('quota', counted.key)).json().data as { quota: { used: number } };
    expect(quota.quota.used).toBe(3);
  });

  it('gives different pairs different ETags', async () => {
    const a = (await ctx.api.get('rates/pair/EUR/USD', ctx.key)).headers.get('etag');
    const b = (await ctx.api.get('rates/pair/EUR/GBP', ctx.key)).headers.get('etag');
    expect(a).not.toBe(b);
  });
});
