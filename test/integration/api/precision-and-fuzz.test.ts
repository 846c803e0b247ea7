import fc from 'fast-check';
import { addDays } from '../../../lambdas/core/domain/dates';
import { useTestApi } from '../../support/api-service';

/** Exact decimal product of two plain decimals, as a string; BigInt arithmetic, independent of big.js. */
function exactProduct(a: string, b: string): { digits: bigint; scale: number } {
  const split = (x: string) => {
    const [w = '0', f = ''] = x.split('.');
    return { digits: BigInt(w + f), scale: f.length };
  };
  const x = split(a);
  const y = split(b);
  return { digits: x.digits * y.digits, scale: x.scale + y.scale };
}

/** Half-even rounding of an exact decimal to 6 places, rendered as the service renders it. */
function roundHalfEven6({ digits, scale }: { digits: bigint; scale: number }): string {
  let value = digits;
  let s = scale;
  if (s > 6) {
    const divisor = 10n ** BigInt(s - 6);
    const quotient = value / divisor;
    const remainder = value % divisor;
    const twice = remainder * 2n;
    value = twice > divisor || (twice === divisor && quotient % 2n === 1n) ? quotient + 1n : quotient;
    s = 6;
  }
  const text = value.toString().padStart(s + 1, '0');
  const whole = text.slice(0, text.length - s);
  const fraction = text.slice(text.length - s).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

describe('conversion precision over HTTP', () => {
  const ctx = useTestApi();

  /** The converted value exactly as written in the response text, before any JSON parser rounds it. */
  const rawField = (text: string, field: string) => new RegExp(`"${field}":(-?[0-9.]+)`).exec(text)?.[1];

  it.each([
    ['0.000001', 'USD', 'JPY'],
    ['999999999999.999999', 'USD', 'JPY'],
    ['999999999999.999999', 'EUR', 'EUR'],
    ['0.1', 'EUR', 'USD'],
    ['0.3', 'GBP', 'CHF'],
    ['1.005', 'EUR', 'JPY'],
    ['123456789.123456789', 'CHF', 'GBP'],
  ])('converts %s %s→%s exactly: amount × shown rate, half-even to 6 places', async (amount, from, to) => {
    const r = await ctx.api.get(`rates/pair/${from}/${to}?amount=${amount}`, ctx.key);
    expect(r.status).toBe(200);
    const rate = rawField(r.text, 'rate') as string;
    expect(rawField(r.text, 'amount')).toBe(amount);
    expect(rawField(r.text, 'converted')).toBe(roundHalfEven6(exactProduct(amount, rate)));
  });

  it('echoes the amount as a plain decimal without leading or trailing zeros', async () => {
    const r = await ctx.api.get('rates/pair/EUR/EUR?amount=0010.500', ctx.key);
    expect(rawField(r.text, 'amount')).toBe('10.5');
    expect(rawField(r.text, 'converted')).toBe('10.5');
  });

  it('keeps the converted digits a binary double would lose', async () => {
    const r = await ctx.api.get('rates/pair/EUR/EUR?amount=999999999999.999999', ctx.key);
    expect(rawField(r.text, 'converted')).toBe('999999999999.999999');
    expect(String(r.json().data?.converted)).not.toBe('999999999999.999999');
  });
});

/** Seeded, bounded: random requests never produce a 5xx, a non-JSON body, a stack trace or a missing request id. */
describe('fuzzing the local server', () => {
  const ctx = useTestApi();

  const segment = fc.oneof(
    fc.constantFrom('USD', 'eur', 'XYZ', 'CYP', '1999-01-04', '2023-02-30', '', '..', '%00', '%E0%A4%A', 'rates', 'v1'),
    fc.string({ maxLength: 12 }).map(encodeURIComponent),
    fc.string({ unit: 'binary', maxLength: 8 }).map(encodeURIComponent),
  );
  const path = fc.oneof(
    fc
      .tuple(
        fc.constantFrom(
          'rates/pair',
          'rates/convert',
          'rates/enriched',
          'rates/history',
          'rates/latest',
          'currencies',
          'quota',
          'sources',
          'rates/timeseries',
          'rates',
        ),
        fc.array(segment, { maxLength: 4 }),
      )
      .map(([head, rest]) => [head, ...rest].join('/')),
    fc.array(segment, { maxLength: 5 }).map((parts) => parts.join('/')),
  );
  const query = fc.array(
    fc.tuple(
      fc.constantFrom(
        'base',
        'amount',
        'locale',
        'api_key',
        'x',
        'AMOUNT',
        'base',
        'to',
        'fallback',
        'expand',
        'start',
        'end',
        'format',
      ),
      fc.oneof(
        fc.string({ maxLength: 20 }),
        fc.constantFrom(
          '1e9',
          '-0',
          '0.0000001',
          '1'.repeat(300),
          'de',
          'USD',
          'EUR,jpy',
          'EUR,,USD',
          'usd,USD,',
          'previous',
          'sources',
          'Previous',
          '1999-01-04',
          '2025-12-31',
          '2026-09-29',
          '2026-02-30',
          'csv',
          'json',
        ),
        fc.array(fc.constantFrom('EUR', 'usd', 'XYZ', '', 'CYP', 'GBP'), { maxLength: 60 }).map((c) => c.join(',')),
      ),
    ),
    { maxLength: 4 },
  );
  const headerValue = fc.oneof(
    fc.constant(undefined),
    fc.constant(''),
    fc.string({ maxLength: 60 }).filter((s) => /^[\x20-\x7e]*$/.test(s)),
    fc.constant('fxr_'),
  );

  it('answers 300 random requests with a JSON envelope or 304, never a 5xx, always with X-Request-Id', async () => {
    await fc.assert(
      fc.asyncProperty(path, query, headerValue, fc.boolean(), async (p, q, header, useValidKey) => {
        const qs = q.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
        const headers: Record<string, string> = {};
        const apiKey = useValidKey ? ctx.key : header;
        if (apiKey !== undefined) headers['X-API-Key'] = apiKey;
        const r = await ctx.api.request('GET', `/v1/${p}${qs ? `?${qs}` : ''}`, headers);
        expect(r.status).toBeLessThan(500);
        expect(r.headers.get('x-request-id')).toBeTruthy();
        if (r.status === 304) return;
        // The time series' CSV variant, the one body that is not JSON.
        if (r.headers.get('content-type')?.startsWith('text/csv')) {
          expect([r.status, r.text.startsWith('date,rate\r\n')]).toEqual([200, true]);
          return;
        }
        const body = r.json();
        expect(typeof body.success).toBe('boolean');
        expect(r.text).not.toMatch(/\n\s+at |node_modules|Error:|\.ts:\d+/);
        if (!body.success) expect(body.error?.code).toMatch(/^[a-z]+(-[a-z]+)*$/);
      }),
      { numRuns: 300, seed: 20261122 },
    );
  });

  it('answers 200 random time series with well-formed days, or a documented refusal, never a 5xx', async () => {
    // Around the days the test data holds (January 1999, February 2024 on), and beyond both ends.
    const between = (min: string, max: string) =>
      fc
        .date({ min: new Date(`${min}T00:00:00Z`), max: new Date(`${max}T00:00:00Z`), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10));
    const day = fc.oneof(
      { arbitrary: between('2023-11-01', '2026-10-05'), weight: 4 },
      { arbitrary: between('1998-12-01', '1999-03-01'), weight: 1 },
    );
    const code = fc.constantFrom('USD', 'EUR', 'JPY', 'AED', 'CYP', 'HRK', 'chf', 'XYZ');
    let served = 0;
    await fc.assert(
      fc.asyncProperty(
        code,
        code,
        day,
        // Mostly ranges the route takes (up to 366 days), some longer, some reversed.
        fc.integer({ min: -3, max: 380 }),
        fc.constantFrom('', '&format=csv', '&format=json'),
        async (a, b, s, length, f) => {
          const e = addDays(s, length);
          const r = await ctx.api.get(`/rates/timeseries/${a}/${b}?start=${s}&end=${e}${f}`, ctx.key);
          expect(r.status).toBeLessThan(500);
          if (r.status !== 200) {
            expect(['invalid-date', 'invalid-parameter', 'unsupported-currency', 'no-data-available']).toContain(
              r.json().error?.code,
            );
            return;
          }
          const rows = f === '&format=csv' ? r.text.split('\r\n').slice(1, -1) : (r.json().data?.rates as unknown[]);
          expect(rows.length).toBeGreaterThan(0);
          served++;
          expect(rows.length).toBeLessThanOrEqual(366);
        },
      ),
      { numRuns: 200, seed: 20261123 },
    );
    expect(served).toBeGreaterThan(20);
  });
});
