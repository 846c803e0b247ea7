import fc from 'fast-check';
import { addDays } from '../../../lambdas/core/domain/dates';
import { useTestApi } from '../../support/api-service';

/**
 * `fallback=previous` on history over real HTTP, on the bundled ECB history (business days only) and the bundled
 * currency-api days (every day of 2026-09). The test clock stands at 2026-09-30T12:00:00Z unless a test moves it.
 */
describe('history with fallback=previous', () => {
  const ctx = useTestApi();
  const NOW = '2026-09-30T12:00:00Z';
  afterEach(() => ctx.api.clock.set(NOW));

  const history = (path: string, key = ctx.key, headers: Record<string, string> = {}) =>
    ctx.api.get(`rates/history/${path}`, key, headers);

  it.each([
    ['a Saturday', '2026-04-11', '2026-04-10'],
    ['a Sunday', '2026-04-12', '2026-04-10'],
    ['Good Friday', '2026-04-03', '2026-04-02'],
    ['Easter Monday, four closed days back', '2026-04-06', '2026-04-02'],
    ['Christmas Day', '2025-12-25', '2025-12-24'],
    ['26 December', '2025-12-26', '2025-12-24'],
    ['1 January', '2026-01-01', '2025-12-31'],
    ['1 May', '2025-05-01', '2025-04-30'],
  ])('serves %s with the nearest earlier ECB day: %s → %s', async (_, date, effective) => {
    const r = await history(`USD/CHF/${date}?fallback=previous`);
    expect(r.status).toBe(200);
    const served = (await history(`USD/CHF/${effective}`)).json().data;
    const stored = await ctx.api.service.ratesStore.getDay(effective);
    expect(r.json().data).toEqual({
      base: 'USD',
      target: 'CHF',
      date,
      effective_date: effective,
      rate: served?.rate,
      published_at: stored?.publishedAt,
    });
    // Without the parameter the day still has no rate, as the contract says.
    const plain = await history(`USD/CHF/${date}`);
    expect(plain.status).toBe(404);
    expect(plain.json().error).toEqual({
      code: 'no-data-available',
      message: `No rate is available for USD/CHF on ${date}.`,
    });
  });

  it('names the requested day as effective_date when that day has a rate, and adds it only with the parameter', async () => {
    const withFallback = await history('USD/CHF/2026-04-10?fallback=previous');
    const plain = await history('USD/CHF/2026-04-10');
    expect(withFallback.json().data).toEqual({
      ...plain.json().data,
      effective_date: '2026-04-10',
    });
    expect(Object.keys(withFallback.json().data ?? {})).toEqual([
      'base',
      'target',
      'date',
      'effective_date',
      'rate',
      'published_at',
    ]);
    expect(Object.keys(plain.json().data ?? {})).toEqual(['base', 'target', 'date', 'rate', 'published_at']);
    // The bodies differ, so do their entity tags: one variant's tag never revalidates the other.
    const etag = plain.headers.get('etag') ?? '';
    expect(withFallback.headers.get('etag')).not.toBe(etag);
    expect((await history('USD/CHF/2026-04-10?fallback=previous', ctx.key, { 'If-None-Match': etag })).status).toBe(
      200,
    );
  });

  it('answers every pair and variant of a day it has already served with its own body, in any order', async () => {
    const day = '2026-09-28';
    const variants = [
      ['USD/AED', '', ['base', 'target', 'date', 'rate', 'published_at']],
      ['USD/AED', '?expand=sources', ['base', 'target', 'date', 'rate', 'published_at', 'sources']],
      ['USD/AED', '?fallback=previous', ['base', 'target', 'date', 'effective_date', 'rate', 'published_at']],
      ['EUR/AED', '', ['base', 'target', 'date', 'rate', 'published_at']],
      ['USD/AED', '', ['base', 'target', 'date', 'rate', 'published_at']],
    ] as const;
    const rates: number[] = [];
    for (const [pair, query, keys] of variants) {
      const data = (await history(`${pair}/${day}${query}`)).json().data ?? {};
      expect(Object.keys(data)).toEqual(keys);
      expect(`${data.base}/${data.target}`).toBe(pair);
      rates.push(data.rate as number);
    }
    // The same pair's rate in every variant; the other pair's differs.
    expect(new Set([rates[0], rates[1], rates[2], rates[4]]).size).toBe(1);
    expect(rates[3]).not.toBe(rates[0]);
  });

  it('serves every day of currency-api (it publishes daily) without falling back', async () => {
    const r = await history('USD/AED/2026-09-05?fallback=previous');
    expect(r.json().data).toMatchObject({ date: '2026-09-05', effective_date: '2026-09-05' });
    expect(r.json().data?.published_at).toBe('2026-09-05T00:00:00Z');
  });

  it('looks back 7 days at most: the 7th day before is served, beyond it is 404 naming the window', async () => {
    // The bundled ECB history ends on Monday 2026-04-13; the currency-api days start on 2026-09-01.
    const seventh = await history('USD/CHF/2026-04-20?fallback=previous');
    expect(seventh.status).toBe(200);
    expect(seventh.json().data?.effective_date).toBe('2026-04-13');
    for (const date of ['2026-04-21', '2026-05-01', '2026-08-31']) {
      const r = await history(`USD/CHF/${date}?fallback=previous`);
      expect(r.status).toBe(404);
      expect(r.json().error).toEqual({
        code: 'no-data-available',
        message: `No rate is available for USD/CHF on ${date} or the 7 days before it.`,
      });
      expect(r.headers.get('cache-control')).toBe('no-store');
    }
    // Before the first ECB day (1999-01-04) there is nothing to fall back to.
    const first = await history('EUR/USD/1999-01-03?fallback=previous');
    expect(first.status).toBe(404);
  });

  it('falls back per pair: a day that lacks one currency of the pair serves the earlier day that has both', async () => {
    // AED is quoted by currency-api only, which has no day in the ECB history's window.
    const r = await history('USD/AED/2026-04-10?fallback=previous');
    expect(r.status).toBe(404);
    expect(r.json().error?.message).toBe('No rate is available for USD/AED on 2026-04-10 or the 7 days before it.');
  });

  it.each(['next', '', 'PREVIOUS', 'previous,previous', ' previous', 'true'])(
    'refuses fallback=%j with 400 invalid-parameter naming fallback',
    async (value) => {
      const r = await history(`USD/CHF/2026-04-11?fallback=${encodeURIComponent(value)}`);
      expect(r.status).toBe(400);
      expect(r.json().error).toEqual({
        code: 'invalid-parameter',
        message: "The parameter 'fallback' must be 'previous'.",
        param: 'fallback',
      });
    },
  );

  it('refuses fallback given twice, and a malformed fallback outranks an unsupported currency', async () => {
    const twice = await history('USD/CHF/2026-04-11?fallback=previous&fallback=previous');
    expect(twice.status).toBe(400);
    expect(twice.json().error?.param).toBe('fallback');
    const both = await history('XYZ/CHF/2026-04-11?fallback=nope');
    expect(both.status).toBe(400);
    expect(both.json().error?.param).toBe('fallback');
  });

  it('reads the requested day, then the 7 days before it together: 8 reads cold, none warm', async () => {
    // Warm the key, the account and LATEST; only the day reads remain.
    await history('USD/CHF/2026-04-10');
    await ctx.api.service.storeRequests(true);
    // 2024-03-30 is Easter Saturday: Good Friday (03-29) is closed, Thursday 03-28 is served.
    const cold = await history('USD/CHF/2024-03-30?fallback=previous');
    expect(cold.json().data?.effective_date).toBe('2024-03-28');
    expect(await ctx.api.service.storeRequests(true)).toEqual({ GetItem: 8, UpdateItem: 1 });
    const warm = await history('USD/CHF/2024-03-30?fallback=previous');
    expect(warm.json().data).toEqual(cold.json().data);
    expect(await ctx.api.service.storeRequests(true)).toEqual({ UpdateItem: 1 });
    // A day with its rate reads only itself.
    await history('USD/CHF/2024-03-20?fallback=previous');
    expect(await ctx.api.service.storeRequests(true)).toEqual({ GetItem: 1, UpdateItem: 1 });
  });

  it('serves, for any day, the nearest earlier day within 7 that plain history answers, or 404 (property)', async () => {
    const start = Date.parse('2024-02-01T00:00:00Z');
    const days = Math.round((Date.parse('2026-09-30T00:00:00Z') - start) / 86_400_000);
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: days }),
        fc.constantFrom('USD/CHF', 'GBP/AED', 'EUR/JPY'),
        async (n, pair) => {
          const date = addDays('2024-02-01', n);
          const r = await history(`${pair}/${date}?fallback=previous`);
          expect([200, 404]).toContain(r.status);
          const earlier = Array.from({ length: 8 }, (_, i) => addDays(date, -i));
          const plain = await Promise.all(earlier.map((day) => history(`${pair}/${day}`)));
          const nearest = plain.findIndex((reply) => reply.status === 200);
          if (nearest === -1) {
            expect(r.status).toBe(404);
            return;
          }
          expect(r.json().data).toEqual({
            ...plain[nearest]?.json().data,
            date,
            effective_date: earlier[nearest],
          });
        },
      ),
      { numRuns: 40, seed: 20261123 },
    );
  });

  describe('caching', () => {
    it('gives a fallback for a day within the last 7 days a one-hour private policy, and keeps history’s otherwise', async () => {
      ctx.api.clock.set('2026-04-12T18:00:00Z');
      const recent = await history('USD/CHF/2026-04-11?fallback=previous');
      expect(recent.json().data?.effective_date).toBe('2026-04-10');
      expect(recent.headers.get('cache-control')).toBe('private, max-age=3600');
      // The day has its own rate: final, whatever the parameter.
      const own = await history('USD/CHF/2026-04-10?fallback=previous');
      expect(own.headers.get('cache-control')).toBe('private, max-age=604800, immutable');
      // The 7th day before today still can change; the 8th cannot.
      ctx.api.clock.set('2026-04-18T12:00:00Z');
      expect((await history('USD/CHF/2026-04-11?fallback=previous')).headers.get('cache-control')).toBe(
        'private, max-age=3600',
      );
      ctx.api.clock.set('2026-04-19T12:00:00Z');
      expect((await history('USD/CHF/2026-04-11?fallback=previous')).headers.get('cache-control')).toBe(
        'private, max-age=604800, immutable',
      );
      ctx.api.clock.set(NOW);
      const old = await history('USD/CHF/2026-04-11?fallback=previous');
      expect(old.headers.get('cache-control')).toBe('private, max-age=604800, immutable');
      // A 304 carries the policy of the answer it stands for.
      ctx.api.clock.set('2026-04-12T18:00:00Z');
      const again = await history('USD/CHF/2026-04-11?fallback=previous', ctx.key, {
        'If-None-Match': recent.headers.get('etag') ?? '',
      });
      expect(again.status).toBe(304);
      expect(again.headers.get('cache-control')).toBe('private, max-age=3600');
    });
    it("serves a nearer day's rate that arrives late instead of the answer it gave before", async () => {
      // Saturday 2024-06-15 has no ECB rate; Friday 06-14 is served until a late source fills the Saturday.
      ctx.api.clock.set('2024-06-16T12:00:00Z');
      const before = await history('USD/CHF/2024-06-15?fallback=previous');
      expect(before.json().data).toMatchObject({ date: '2024-06-15', effective_date: '2024-06-14' });
      const friday = await ctx.api.service.ratesStore.getDay('2024-06-14');
      if (!friday) throw new Error('the bundled history has no 2024-06-14');
      const late = { ...friday, date: '2024-06-15', publishedAt: '2024-06-15T09:00:00Z' };
      late.rates = { ...friday.rates, CHF: (friday.rates.CHF ?? 1) * 1.01 };
      await ctx.api.service.ratesStore.putDay(late);
      // The day's absence is remembered for a minute, as the reader's cache says; then its own rate is served.
      ctx.api.clock.set('2024-06-16T12:01:01Z');
      const after = await history('USD/CHF/2024-06-15?fallback=previous');
      expect(after.json().data).toMatchObject({
        date: '2024-06-15',
        effective_date: '2024-06-15',
        published_at: '2024-06-15T09:00:00Z',
      });
      expect(after.json().data?.rate).not.toBe(before.json().data?.rate);
      expect(after.json().data?.rate).toBe((await history('USD/CHF/2024-06-15')).json().data?.rate);
      expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
      // The Sunday still falls back, now to the Saturday.
      expect((await history('USD/CHF/2024-06-16?fallback=previous')).json().data?.effective_date).toBe('2024-06-15');
    });
  });

  describe('plan rules judge the requested date', () => {
    it('serves a Pro request at the window edge from the day before it, and refuses the day before the edge', async () => {
      const pro = await ctx.api.newKey('pro');
      // Easter Sunday 2026: the Pro window starts on Saturday 2025-04-05, whose rate is Friday 2025-04-04's.
      ctx.api.clock.set('2026-04-05T12:00:00Z');
      const edge = await history('USD/CHF/2025-04-05?fallback=previous', pro.key);
      expect(edge.status).toBe(200);
      expect(edge.json().data).toMatchObject({ date: '2025-04-05', effective_date: '2025-04-04' });
      for (const path of ['USD/CHF/2025-04-04?fallback=previous', 'USD/CHF/2025-04-04']) {
        const before = await history(path, pro.key);
        expect(before.status).toBe(403);
        expect(before.json().error).toEqual({
          code: 'plan-upgrade-required',
          message:
            'Your plan includes history back to 2025-04-05; upgrade to Business for the full history since 1999.',
          param: 'date',
        });
      }
      // Without the parameter the edge day has no rate.
      expect((await history('USD/CHF/2025-04-05', pro.key)).status).toBe(404);
    });

    it('refuses Free with 403 whatever the fallback', async () => {
      const free = await ctx.api.newKey('free');
      const r = await history('USD/CHF/2026-04-11?fallback=previous', free.key);
      expect(r.status).toBe(403);
      expect(r.json().error?.code).toBe('plan-upgrade-required');
    });
  });

  describe('published_at and expand=sources', () => {
    it("gives the served day's publication: 16:00 Berlin time for an ECB day, summer and winter", async () => {
      expect((await history('USD/CHF/2026-04-10')).json().data?.published_at).toBe('2026-04-10T14:00:00Z');
      expect((await history('EUR/USD/1999-01-04')).json().data?.published_at).toBe('1999-01-04T15:00:00Z');
      expect((await history('USD/CHF/2026-04-11?fallback=previous')).json().data?.published_at).toBe(
        '2026-04-10T14:00:00Z',
      );
      const stored = await ctx.api.service.ratesStore.getDay('2025-12-24');
      expect((await history('USD/CHF/2025-12-25?fallback=previous')).json().data?.published_at).toBe(
        stored?.publishedAt,
      );
    });

    it("names each currency's source on the served day, EUR left out", async () => {
      expect((await history('USD/CHF/2026-04-10?expand=sources')).json().data?.sources).toEqual({
        USD: 'ecb',
        CHF: 'ecb',
      });
      expect((await history('EUR/USD/2026-04-11?fallback=previous&expand=sources')).json().data).toEqual({
        base: 'EUR',
        target: 'USD',
        date: '2026-04-11',
        effective_date: '2026-04-10',
        rate: (await history('EUR/USD/2026-04-10')).json().data?.rate,
        published_at: '2026-04-10T14:00:00Z',
        sources: { USD: 'ecb' },
      });
      expect((await history('USD/AED/2026-09-05?expand=sources')).json().data?.sources).toEqual({
        USD: 'currency-api',
        AED: 'currency-api',
      });
      // A withdrawn code on its historical day.
      expect((await history('CYP/EUR/1999-01-04?expand=sources')).json().data?.sources).toEqual({ CYP: 'ecb' });
    });

    it.each(['', 'source', 'Sources', 'sources,rates'])('refuses expand=%j with 400 naming expand', async (value) => {
      const r = await history(`USD/CHF/2026-04-10?expand=${encodeURIComponent(value)}`);
      expect(r.status).toBe(400);
      expect(r.json().error).toEqual({
        code: 'invalid-parameter',
        message: "The parameter 'expand' must be 'sources'.",
        param: 'expand',
      });
    });
  });
});
