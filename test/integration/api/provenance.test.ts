import { useTestApi } from '../../support/api-service';

/**
 * published_at, next_update_at and expand=sources on latest, pair and enriched over real HTTP. The bundled test
 * data's LATEST is currency-api's 2026-09-29 alone (the bundled ECB history ends in April); the mix of both
 * sources is tested in sources-endpoint.test.ts after a real ingestion run.
 */
describe('provenance and freshness of the current rates', () => {
  const ctx = useTestApi();
  const NOW = '2026-09-30T12:00:00Z';
  afterEach(() => ctx.api.clock.set(NOW));

  it('says when the rates served were published: the latest snapshot, as ingested, on all three', async () => {
    const stored = await ctx.api.service.ratesStore.getLatest();
    expect(stored?.publishedAt).toBe('2026-09-29T00:00:00Z');
    const latest = (await ctx.api.get('rates/latest?base=USD', ctx.key)).json().data;
    expect(latest?.published_at).toBe(stored?.publishedAt);
    expect(latest?.updated_at).toBe(stored?.publishedAt);
    for (const path of ['rates/pair/USD/JPY', 'rates/pair/USD/JPY?amount=5', 'rates/enriched/EUR/GBP']) {
      expect([path, (await ctx.api.get(path, ctx.key)).json().data?.published_at]).toEqual([path, stored?.publishedAt]);
    }
  });

  it('expects the next update at the next currency-api publication while only currency-api feeds latest', async () => {
    const next = async () => (await ctx.api.get('rates/latest', ctx.key)).json().data?.next_update_at;
    expect(await next()).toBe('2026-10-01T00:00:00Z');
    // Within LATEST's 60 s in memory, the same snapshot: the memoized body must not keep a passed next update.
    ctx.api.clock.set('2026-09-30T23:59:40Z');
    expect(await next()).toBe('2026-10-01T00:00:00Z');
    ctx.api.clock.set('2026-10-01T00:00:00Z');
    expect(await next()).toBe('2026-10-02T00:00:00Z');
    ctx.api.clock.set('2026-10-01T00:00:20Z');
    expect(await next()).toBe('2026-10-02T00:00:00Z');
  });

  it('names the source of every quote of latest except EUR with expand=sources, and nothing more without it', async () => {
    const plain = await ctx.api.get('rates/latest?base=USD', ctx.key);
    const expanded = await ctx.api.get('rates/latest?base=USD&expand=sources', ctx.key);
    const data = expanded.json().data as { rates: Record<string, number>; sources: Record<string, string> };
    expect(Object.keys(data)).toEqual(['base', 'updated_at', 'published_at', 'next_update_at', 'rates', 'sources']);
    expect(Object.keys(data.sources).sort()).toEqual(Object.keys(data.rates).filter((c) => c !== 'EUR'));
    expect(new Set(Object.values(data.sources))).toEqual(new Set(['currency-api']));
    expect(plain.json().data?.sources).toBeUndefined();
    const { sources: _, ...rest } = data;
    expect(rest).toEqual(plain.json().data);
    expect(expanded.headers.get('etag')).not.toBe(plain.headers.get('etag'));
  });

  it('names the sources of the pair on pair and enriched, EUR left out', async () => {
    expect((await ctx.api.get('rates/pair/USD/AED?amount=10&expand=sources', ctx.key)).json().data).toMatchObject({
      base: 'USD',
      target: 'AED',
      amount: 10,
      sources: { USD: 'currency-api', AED: 'currency-api' },
    });
    expect((await ctx.api.get('rates/pair/EUR/USD?expand=sources', ctx.key)).json().data?.sources).toEqual({
      USD: 'currency-api',
    });
    expect((await ctx.api.get('rates/pair/EUR/EUR?expand=sources', ctx.key)).json().data?.sources).toEqual({});
    const enriched = (await ctx.api.get('rates/enriched/GBP/EUR?expand=sources&locale=de', ctx.key)).json().data;
    expect(Object.keys(enriched ?? {})).toEqual([
      'base',
      'target',
      'rate',
      'base_detail',
      'target_detail',
      'published_at',
      'sources',
    ]);
    expect(enriched?.sources).toEqual({ GBP: 'currency-api' });
  });

  it.each(['rates/latest?', 'rates/pair/USD/JPY?', 'rates/enriched/USD/JPY?', 'rates/history/USD/CHF/2026-04-10?'])(
    'refuses a bad or repeated expand on %s with 400 naming expand, before a 422',
    async (prefix) => {
      for (const query of ['expand=', 'expand=all', 'expand=sources&expand=sources']) {
        const r = await ctx.api.get(`${prefix}${query}`, ctx.key);
        expect([query, r.status, r.json().error?.param]).toEqual([query, 400, 'expand']);
      }
      const unsupported = prefix.replace('USD', 'XYZ').replace('latest?', 'latest?base=XYZ&');
      const r = await ctx.api.get(`${unsupported}expand=x`, ctx.key);
      expect([r.status, r.json().error?.param]).toEqual([400, 'expand']);
    },
  );
});
