import { MAX_CONVERT_TARGETS } from '../../../lambdas/core/http/parameters';
import { useTestApi } from '../../support/api-service';

interface Conversions {
  base: string;
  amount?: number;
  published_at: string;
  conversions: { target: string; rate: number; converted?: number }[];
}

/** GET /v1/rates/convert/{from}: several targets in one call, each exactly as the pair endpoint answers it. */
describe('several conversions in one call over HTTP', () => {
  const ctx = useTestApi();

  const convert = (query: string, key = ctx.key) => ctx.api.get(`rates/convert/${query}`, key);

  async function servedCodes(): Promise<string[]> {
    const latest = (await ctx.api.get('rates/latest', ctx.key)).json().data as { rates: Record<string, number> };
    return Object.keys(latest.rates);
  }

  it('answers every target in the order given, each rate and converted amount equal to the pair endpoint', async () => {
    // ECB codes, a code only currency-api delivers (AED), the euro, and the base itself.
    const targets = ['EUR', 'jpy', 'GBP', 'AED', 'USD', 'CHF'];
    const r = await convert(`USD?to=${targets.join(',')}&amount=250`);
    expect(r.status).toBe(200);
    const data = r.json().data as unknown as Conversions;
    expect(Object.keys(data)).toEqual(['base', 'amount', 'published_at', 'conversions']);
    expect(data.base).toBe('USD');
    expect(data.amount).toBe(250);
    expect(data.conversions.map((c) => c.target)).toEqual(['EUR', 'JPY', 'GBP', 'AED', 'USD', 'CHF']);
    for (const entry of data.conversions) {
      const pair = (await ctx.api.get(`rates/pair/USD/${entry.target}?amount=250`, ctx.key)).json().data;
      expect(entry).toEqual({ target: entry.target, rate: pair?.rate, converted: pair?.converted });
    }
    expect(data.conversions.find((c) => c.target === 'USD')).toEqual({ target: 'USD', rate: 1, converted: 250 });
  });

  it('keeps the converted amounts exact: decimal arithmetic, half-even to 6 places, as the pair endpoint', async () => {
    const amount = '123456789.123456789';
    const r = await convert(`GBP?to=JPY,ISK,KWD&amount=${amount}`);
    expect(r.status).toBe(200);
    // The raw text, not a parsed double: the digits are the contract.
    for (const target of ['JPY', 'ISK', 'KWD']) {
      const pair = await ctx.api.get(`rates/pair/GBP/${target}?amount=${amount}`, ctx.key);
      const converted = /"converted":([0-9.]+)/.exec(pair.text)?.[1];
      expect(converted).toBeDefined();
      expect(r.text).toContain(`{"target":"${target}","rate":${pair.json().data?.rate},"converted":${converted}}`);
    }
    expect(r.text).toContain(`"amount":${amount}`);
  });

  it('returns only target and rate without an amount, and says when the rates were published', async () => {
    const r = await convert('EUR?to=USD,JPY');
    const data = r.json().data as unknown as Conversions;
    expect(Object.keys(data)).toEqual(['base', 'published_at', 'conversions']);
    expect(data.conversions.map((c) => Object.keys(c))).toEqual([
      ['target', 'rate'],
      ['target', 'rate'],
    ]);
    const latest = (await ctx.api.get('rates/latest', ctx.key)).json().data as { updated_at: string };
    expect(data.published_at).toBe(latest.updated_at);
    expect(r.headers.get('cache-control')).toBeNull();
    expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  it(`takes ${MAX_CONVERT_TARGETS} targets in one counted request`, async () => {
    const counted = await ctx.api.newKey('free');
    const codes = (await servedCodes()).slice(0, MAX_CONVERT_TARGETS);
    expect(codes).toHaveLength(MAX_CONVERT_TARGETS);
    const r = await convert(`CHF?to=${codes.join(',')}&amount=10`, counted.key);
    expect(r.status).toBe(200);
    expect((r.json().data as unknown as Conversions).conversions).toHaveLength(MAX_CONVERT_TARGETS);
    expect(r.headers.get('x-ratelimit-remaining-month')).not.toBeNull();
    const quota = (await ctx.api.get('quota', counted.key)).json().data as { quota: { used: number } };
    expect(quota.quota.used).toBe(1);
  });

  it('answers 304 to a matching If-None-Match, and gives other target lists other ETags', async () => {
    const first = await convert('USD?to=EUR,JPY');
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^".+"$/);
    const again = await ctx.api.get('rates/convert/USD?to=EUR,JPY', ctx.key, { 'If-None-Match': etag ?? '' });
    expect(again.status).toBe(304);
    expect((await convert('USD?to=JPY,EUR')).headers.get('etag')).not.toBe(etag);
    expect((await convert('USD?to=EUR,JPY&amount=2')).headers.get('etag')).not.toBe(etag);
  });

  describe('refusals name the offending item', () => {
    const refusal = async (query: string) => {
      const r = await convert(query);
      const body = r.json();
      expect(body.success).toBe(false);
      expect(r.headers.get('cache-control')).toBe('no-store');
      return { status: r.status, ...body.error };
    };

    it('refuses an empty item with 400 invalid-parameter, naming its position', async () => {
      expect(await refusal('USD?to=EUR,,JPY')).toEqual({
        status: 400,
        code: 'invalid-parameter',
        param: 'to',
        message: "Item 2 of the parameter 'to' is empty.",
      });
      expect((await refusal('USD?to=EUR,')).message).toBe("Item 2 of the parameter 'to' is empty.");
      expect((await refusal('USD?to=')).message).toBe("Item 1 of the parameter 'to' is empty.");
    });

    it('refuses a code listed twice (in any case) with 400 invalid-parameter, naming it and both positions', async () => {
      expect(await refusal('USD?to=EUR,jpy,GBP,JPY')).toEqual({
        status: 400,
        code: 'invalid-parameter',
        param: 'to',
        message: "Currency 'JPY' is listed twice in the parameter 'to' (items 2 and 4).",
      });
    });

    it('refuses an unsupported code with 422 unsupported-currency, naming it', async () => {
      expect(await refusal('USD?to=EUR,XYZ,JPY')).toEqual({
        status: 422,
        code: 'unsupported-currency',
        param: 'to',
        message: "Currency 'XYZ' is not supported.",
      });
      // Crypto tokens and withdrawn codes are not served as today's rates.
      expect((await refusal('USD?to=EUR,BTC')).message).toBe("Currency 'BTC' is not supported.");
      expect((await refusal('USD?to=HRK')).message).toBe("Currency 'HRK' is not supported.");
      expect((await refusal('USD?to=EUR, JPY')).message).toBe("Currency ' JPY' is not supported.");
    });

    it('puts a malformed item (400) before an unsupported one (422), wherever it stands', async () => {
      expect(await refusal('USD?to=XYZ,EUR,EUR')).toMatchObject({
        status: 400,
        message: "Currency 'EUR' is listed twice in the parameter 'to' (items 2 and 3).",
      });
      expect(await refusal('XYZ?to=EUR,')).toMatchObject({ status: 400, param: 'to' });
    });

    it(`refuses more than ${MAX_CONVERT_TARGETS} targets, and a list too long to read`, async () => {
      const codes = (await servedCodes()).slice(0, MAX_CONVERT_TARGETS + 1);
      expect(await refusal(`USD?to=${codes.join(',')}`)).toEqual({
        status: 400,
        code: 'invalid-parameter',
        param: 'to',
        message: `The parameter 'to' lists ${MAX_CONVERT_TARGETS + 1} currencies; at most ${MAX_CONVERT_TARGETS} are allowed.`,
      });
      expect(await refusal(`USD?to=${'EUR'.repeat(200)}`)).toEqual({
        status: 400,
        code: 'invalid-parameter',
        param: 'to',
        message: "The parameter 'to' is too long.",
      });
    });

    it("refuses a missing or repeated 'to', a bad amount and an unsupported base", async () => {
      expect(await refusal('USD')).toEqual({
        status: 400,
        code: 'invalid-parameter',
        param: 'to',
        message: "The parameter 'to' is required.",
      });
      expect(await refusal('USD?amount=5')).toMatchObject({ status: 400, param: 'to' });
      expect(await refusal('USD?to=EUR&to=JPY')).toMatchObject({
        status: 400,
        code: 'invalid-parameter',
        param: 'to',
      });
      expect(await refusal('USD?to=EUR&amount=-1')).toMatchObject({
        status: 400,
        code: 'invalid-amount',
        param: 'amount',
      });
      expect(await refusal('XYZ?to=EUR')).toMatchObject({ status: 422, code: 'unsupported-currency', param: 'from' });
    });
  });
});
