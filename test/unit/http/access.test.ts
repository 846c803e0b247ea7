import { METER_CONTEXT_KEYS, type MeterState } from '../../../lambdas/core/domain/quota';
import { type Access, accessContext, readAccess, type Verdict } from '../../../lambdas/core/http/access';
import { meteringHeaders, refusalHeaders, verdictError } from '../../../lambdas/core/http/metering-headers';

const AT = Date.parse('2026-09-15T10:20:19.000Z');

function meter(overrides: Partial<MeterState> = {}): MeterState {
  return {
    verdict: 'admitted',
    plan: 'Pro',
    minuteLimit: 60,
    minuteUsed: 1,
    monthLimit: 33000,
    monthUsed: 900,
    at: AT,
    ...overrides,
  };
}

const limits = { monthlyLimit: 30000, overflowAllowed: true, overflowPercent: 10, perMinute: 60 };

/** A proxy event whose authorizer context is a fresh object (readAccess memoizes per context object). */
const eventWith = (authorizer: Record<string, unknown> | null | undefined) =>
  ({ requestContext: { authorizer } }) as unknown as Parameters<typeof readAccess>[0];

describe('accessContext and readAccess', () => {
  it('round-trips an admitted, metered access', () => {
    const access: Access = { verdict: 'admitted', accountId: 'acc-1', plan: 'pro', limits, meter: meter() };
    expect(readAccess(eventWith(accessContext(access)))).toEqual(access);
  });

  it('round-trips refusals with their metering', () => {
    for (const verdict of ['rate-limit-exceeded', 'quota-exceeded'] as const) {
      const access: Access = { verdict, accountId: 'acc-2', plan: 'business', limits, meter: meter({ verdict }) };
      expect(readAccess(eventWith(accessContext(access)))).toEqual(access);
    }
  });

  it('round-trips verdicts reached without metering', () => {
    const inactive: Access = { verdict: 'account-inactive', accountId: 'acc-3', plan: 'free', limits };
    expect(readAccess(eventWith(accessContext(inactive)))).toEqual(inactive);
    const inUrl: Access = { verdict: 'api-key-in-url' };
    expect(readAccess(eventWith(accessContext(inUrl)))).toEqual(inUrl);
  });

  it('writes only string values, as API Gateway passes them on', () => {
    const context = accessContext({ verdict: 'admitted', accountId: 'a', plan: 'pro', limits, meter: meter() });
    for (const value of Object.values(context)) expect(typeof value).toBe('string');
  });

  it('reads numbers and booleans too, for a host that passes values through unconverted', () => {
    const context: Record<string, unknown> = {
      ...accessContext({ verdict: 'admitted', plan: 'pro', limits, meter: meter() }),
    };
    context.a_month_base = 30000;
    context.a_overflow = true;
    context[METER_CONTEXT_KEYS.minuteUsed] = 1;
    expect(readAccess(eventWith(context))).toMatchObject({ limits, meter: meter() });
  });

  it('is undefined without an authorizer context or with an unknown verdict', () => {
    expect(readAccess(eventWith(undefined))).toBeUndefined();
    expect(readAccess(eventWith(null))).toBeUndefined();
    expect(readAccess({} as Parameters<typeof readAccess>[0])).toBeUndefined();
    expect(readAccess(eventWith({}))).toBeUndefined();
    expect(readAccess(eventWith({ verdict: 'allowed' }))).toBeUndefined();
    expect(readAccess(eventWith({ verdict: 'toString' }))).toBeUndefined();
    expect(readAccess(eventWith({ principalId: 'x', integrationLatency: 3 }))).toBeUndefined();
  });

  it('ignores an unknown plan', () => {
    const access = readAccess(eventWith({ verdict: 'admitted', plan: 'enterprise', accountId: 'a' }));
    expect(access).toEqual({ verdict: 'admitted', accountId: 'a' });
  });

  it('ignores malformed limits as a whole', () => {
    const good = accessContext({ verdict: 'account-inactive', limits });
    for (const [key, value] of [
      ['a_month_base', '1.5'],
      ['a_month_base', 'lots'],
      ['a_per_minute', 'ten'],
      ['a_overflow_pct', 'NaN'],
      ['a_overflow', 'yes'],
      ['a_overflow', 'TRUE'],
    ] as const) {
      const access = readAccess(eventWith({ ...good, [key]: value }));
      expect([key, value, access]).toEqual([key, value, { verdict: 'account-inactive' }]);
    }
    const { a_per_minute: _dropped, ...missing } = good;
    expect(readAccess(eventWith(missing))).toEqual({ verdict: 'account-inactive' });
  });

  it('ignores malformed metering as a whole', () => {
    const good = accessContext({ verdict: 'admitted', meter: meter() });
    for (const [key, value] of [
      [METER_CONTEXT_KEYS.verdict, 'maybe'],
      [METER_CONTEXT_KEYS.minuteUsed, '-1'],
      [METER_CONTEXT_KEYS.monthUsed, '1e3'],
      [METER_CONTEXT_KEYS.at, ''],
      [METER_CONTEXT_KEYS.plan, ''],
    ] as const) {
      const access = readAccess(eventWith({ ...good, [key]: value }));
      expect([key, value, access]).toEqual([key, value, { verdict: 'admitted' }]);
    }
  });

  it('reads each context object once', () => {
    const context = accessContext({ verdict: 'admitted', accountId: 'acc-1' });
    const event = eventWith(context);
    expect(readAccess(event)).toBe(readAccess(event));
  });
});

describe('verdictError', () => {
  it('is undefined for an admitted request', () => {
    expect(verdictError({ verdict: 'admitted' })).toBeUndefined();
  });

  it.each([
    ['api-key-in-url', 400, 'X-API-Key'],
    ['account-inactive', 403, undefined],
    ['rate-limit-exceeded', 429, undefined],
    ['quota-exceeded', 429, undefined],
  ] as const)('maps %s to the contract error with status %s', (verdict: Verdict, status, param) => {
    const error = verdictError({ verdict });
    expect(error?.code).toBe(verdict);
    expect(error?.status).toBe(status);
    expect(error?.param).toBe(param);
  });
});

describe('meteringHeaders', () => {
  it('adds the six rate-limit headers when the request was metered', () => {
    const headers = meteringHeaders({ verdict: 'admitted', meter: meter({ minuteUsed: 1, monthUsed: 900 }) });
    expect(headers).toEqual({
      'X-RateLimit-Limit-Minute': '60',
      'X-RateLimit-Remaining-Minute': '59',
      'X-RateLimit-Limit-Month': '33000',
      'X-RateLimit-Remaining-Month': '32100',
      // September has 30 days: w = 30 × 86400; the minute resets 41 s after 10:20:19.
      'RateLimit-Policy': `"minute";q=60;w=60, "month";q=33000;w=${30 * 86400}`,
      RateLimit: '"minute";r=59;t=41',
    });
  });

  it('adds nothing without metering', () => {
    expect(meteringHeaders({ verdict: 'api-key-in-url' })).toEqual({});
    expect(meteringHeaders({ verdict: 'account-inactive', accountId: 'a' })).toEqual({});
  });
});

describe('refusalHeaders', () => {
  it('sends Retry-After until the minute resets on a per-minute refusal', () => {
    const access: Access = {
      verdict: 'rate-limit-exceeded',
      meter: meter({ verdict: 'rate-limit-exceeded', minuteUsed: 60 }),
    };
    expect(refusalHeaders(access)).toEqual({ 'Retry-After': '41' });
  });

  it('sends Retry-After until the month resets on a quota refusal', () => {
    const access: Access = { verdict: 'quota-exceeded', meter: meter({ verdict: 'quota-exceeded', monthUsed: 33000 }) };
    const seconds = (Date.parse('2026-10-01T00:00:00Z') - AT) / 1000;
    expect(refusalHeaders(access)).toEqual({ 'Retry-After': String(seconds) });
  });

  it('sends at least 1 second at the very end of a window', () => {
    const end = Date.parse('2026-09-15T10:20:59.999Z');
    const access: Access = {
      verdict: 'rate-limit-exceeded',
      meter: meter({ verdict: 'rate-limit-exceeded', at: end }),
    };
    expect(Number(refusalHeaders(access)['Retry-After'])).toBeGreaterThanOrEqual(1);
  });

  it('sends nothing for an admitted or unmetered request', () => {
    expect(refusalHeaders({ verdict: 'admitted', meter: meter() })).toEqual({});
    expect(refusalHeaders({ verdict: 'account-inactive' })).toEqual({});
  });
});

describe('readAccess with malformed limits', () => {
  it('ignores limits written as empty, blank, signed, exponent or hex text', () => {
    const good = accessContext({ verdict: 'account-inactive', limits });
    for (const [key, value] of [
      ['a_per_minute', ''],
      ['a_per_minute', ' '],
      ['a_month_base', '-5'],
      ['a_month_base', '1e3'],
      ['a_overflow_pct', '0x10'],
    ] as const) {
      const access = readAccess(eventWith({ ...good, [key]: value }));
      expect([key, value, access]).toEqual([key, value, { verdict: 'account-inactive' }]);
    }
  });
});
