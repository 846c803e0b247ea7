import fc from 'fast-check';
import { PLANS, type PlanLimits, resolveLimits } from '../../../lambdas/core/domain/plans';
import {
  decideAdmission,
  effectiveLimit,
  minuteKey,
  minuteOfMonth,
  monthKey,
  monthLengthSeconds,
  quotaReport,
  resetsAt,
  retryAfterSeconds,
  secondsUntilMinuteReset,
  secondsUntilMonthReset,
} from '../../../lambdas/core/domain/quota';
import { rateLimitHeaders } from '../../../lambdas/core/http/middleware';
import { proMeter } from '../../support/meter';

const at = (iso: string): number => Date.parse(iso);
const DAY_SECONDS = 86_400;

describe('effectiveLimit', () => {
  const limits = (monthlyLimit: number, overflowPercent: number, overflowAllowed = true) => ({
    monthlyLimit,
    overflowPercent,
    overflowAllowed,
  });

  it('adds the overflow percentage of the base when overflow is allowed', () => {
    expect(effectiveLimit(PLANS.pro)).toBe(30000 + 3000);
    expect(effectiveLimit(PLANS.business)).toBe(125000 + 25000);
  });

  it('is the base when overflow is not allowed, whatever percentage is recorded', () => {
    expect(effectiveLimit(PLANS.free)).toBe(PLANS.free.monthlyLimit);
    expect(effectiveLimit(limits(1000, 50, false))).toBe(1000);
  });

  it('is the base at 0 % and twice the base at 100 %', () => {
    expect(effectiveLimit(limits(1234, 0))).toBe(1234);
    expect(effectiveLimit(limits(1234, 100))).toBe(2468);
  });

  it('rounds the overflow down', () => {
    expect(effectiveLimit(limits(999, 10))).toBe(999 + 99);
    expect(effectiveLimit(limits(7, 15))).toBe(7 + 1);
    expect(effectiveLimit(limits(1, 99))).toBe(1);
  });

  it('equals base + floor(base × percent / 100) computed in integers for any base and percent', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.integer({ min: 0, max: 100 }), (base, pct) => {
        const overflow = (BigInt(base) * BigInt(pct)) / 100n;
        expect(effectiveLimit(limits(base, pct))).toBe(base + Number(overflow));
      }),
    );
  });

  it('honours per-account overrides resolved from the plan table', () => {
    expect(effectiveLimit(resolveLimits('pro', { monthlyLimit: 50000, overflowPercent: 25 }))).toBe(62500);
    expect(effectiveLimit(resolveLimits('business', { overflowAllowed: false }))).toBe(125000);
  });
});

describe('minute window', () => {
  it('rolls over between :59.999 and :00.000', () => {
    const last = at('2026-03-10T08:14:59.999Z');
    const first = at('2026-03-10T08:15:00.000Z');
    expect(minuteKey(last)).toBe('2026-03-10T08:14');
    expect(minuteKey(first)).toBe('2026-03-10T08:15');
    expect(minuteOfMonth(first)).toBe(minuteOfMonth(last) + 1);
    expect(secondsUntilMinuteReset(last)).toBe(1);
    expect(secondsUntilMinuteReset(first)).toBe(60);
  });

  it('counts seconds until the reset rounded up', () => {
    expect(secondsUntilMinuteReset(at('2026-03-10T08:14:19.000Z'))).toBe(41);
    expect(secondsUntilMinuteReset(at('2026-03-10T08:14:19.001Z'))).toBe(41);
    expect(secondsUntilMinuteReset(at('2026-03-10T08:14:30.500Z'))).toBe(30);
  });

  it('numbers the minutes of a month from 0 at the 1st, 00:00', () => {
    expect(minuteOfMonth(at('2026-03-01T00:00:00.000Z'))).toBe(0);
    expect(minuteOfMonth(at('2026-03-31T23:59:59.999Z'))).toBe(31 * 1440 - 1);
    expect(minuteOfMonth(at('2026-04-01T00:00:00.000Z'))).toBe(0);
  });

  it('accepts a Date as well as epoch milliseconds', () => {
    const ms = at('2026-03-10T08:14:59.999Z');
    expect(minuteKey(new Date(ms))).toBe(minuteKey(ms));
    expect(secondsUntilMinuteReset(new Date(ms))).toBe(secondsUntilMinuteReset(ms));
  });
});

describe('month window', () => {
  it('rolls over between 23:59:59.999 on the last day and midnight', () => {
    const last = at('2026-04-30T23:59:59.999Z');
    const first = at('2026-05-01T00:00:00.000Z');
    expect(monthKey(last)).toBe('2026-04');
    expect(monthKey(first)).toBe('2026-05');
    expect(secondsUntilMonthReset(last)).toBe(1);
    expect(secondsUntilMonthReset(first)).toBe(31 * DAY_SECONDS);
    expect(resetsAt(last)).toBe('2026-05-01T00:00:00Z');
    expect(resetsAt(first)).toBe('2026-06-01T00:00:00Z');
  });

  it('resets a December quota on the 1st of January of the next year', () => {
    const last = at('2026-12-31T23:59:59.999Z');
    expect(monthKey(last)).toBe('2026-12');
    expect(resetsAt(last)).toBe('2027-01-01T00:00:00Z');
    expect(monthKey(at('2027-01-01T00:00:00.000Z'))).toBe('2027-01');
  });

  it('measures the calendar month in seconds, leap years included', () => {
    expect(monthLengthSeconds(at('2028-02-10T00:00:00Z'))).toBe(2505600);
    expect(monthLengthSeconds(at('2027-02-10T00:00:00Z'))).toBe(28 * DAY_SECONDS);
    expect(monthLengthSeconds(at('2000-02-29T12:00:00Z'))).toBe(29 * DAY_SECONDS);
    expect(monthLengthSeconds(at('2100-02-01T00:00:00Z'))).toBe(28 * DAY_SECONDS);
    expect(monthLengthSeconds(at('2026-09-01T00:00:00Z'))).toBe(2592000);
    expect(monthLengthSeconds(at('2026-10-31T23:59:59.999Z'))).toBe(31 * DAY_SECONDS);
  });

  it('resets after 29 February in a leap year', () => {
    expect(resetsAt(at('2028-02-29T23:59:59.999Z'))).toBe('2028-03-01T00:00:00Z');
    expect(secondsUntilMonthReset(at('2028-02-28T23:59:59.000Z'))).toBe(DAY_SECONDS + 1);
  });
});

describe('quotaReport', () => {
  const now = at('2026-09-15T10:20:19.000Z');

  it('returns exactly the data fields of GET /v1/quota', () => {
    expect(quotaReport(PLANS.pro, 900, now)).toEqual({
      plan: 'Pro',
      quota: {
        base_limit: 30000,
        effective_limit: 33000,
        used: 900,
        remaining: 32100,
        overflow_allowed: true,
        overflow_percent: 10,
      },
      resets_at: '2026-10-01T00:00:00Z',
    });
  });

  it('reports 0 % overflow and the base as effective limit when overflow is not allowed', () => {
    const limits: PlanLimits = { ...PLANS.free, overflowPercent: 30 };
    const report = quotaReport(limits, 0, now);
    expect(report.quota).toMatchObject({ overflow_allowed: false, overflow_percent: 0, effective_limit: 1500 });
    expect(report.quota.remaining).toBe(1500);
  });

  it('never reports a negative remaining, even when a lowered limit leaves usage above it', () => {
    const report = quotaReport(resolveLimits('pro', { monthlyLimit: 100, overflowAllowed: false }), 250, now);
    expect(report.quota.used).toBe(250);
    expect(report.quota.remaining).toBe(0);
  });
});

describe('decideAdmission', () => {
  const limits = { minuteLimit: 10, monthLimit: 100 };

  it('admits while both the minute and the month have room', () => {
    expect(decideAdmission({ minuteUsed: 9, monthUsed: 99 }, limits, true)).toBe('admitted');
  });

  it('refuses with rate-limit-exceeded when the minute is used up', () => {
    expect(decideAdmission({ minuteUsed: 10, monthUsed: 5 }, limits, true)).toBe('rate-limit-exceeded');
  });

  it('refuses with quota-exceeded when the month is used up, even if the minute is too', () => {
    expect(decideAdmission({ minuteUsed: 3, monthUsed: 100 }, limits, true)).toBe('quota-exceeded');
    expect(decideAdmission({ minuteUsed: 10, monthUsed: 100 }, limits, true)).toBe('quota-exceeded');
  });

  it('admits a request that does not count toward the month when the month is used up', () => {
    expect(decideAdmission({ minuteUsed: 3, monthUsed: 100 }, limits, false)).toBe('admitted');
    expect(decideAdmission({ minuteUsed: 10, monthUsed: 100 }, limits, false)).toBe('rate-limit-exceeded');
  });
});

describe('rateLimitHeaders', () => {
  it('renders the headers exactly as the contract shows them', () => {
    expect(rateLimitHeaders(proMeter())).toEqual({
      'X-RateLimit-Limit-Minute': '60',
      'X-RateLimit-Remaining-Minute': '59',
      'X-RateLimit-Limit-Month': '33000',
      'X-RateLimit-Remaining-Month': '32100',
      'RateLimit-Policy': '"minute";q=60;w=60, "month";q=33000;w=2592000',
      RateLimit: '"minute";r=59;t=41',
    });
  });

  it('names the month when it has fewer remaining, with the seconds until the 1st of next month', () => {
    const s = proMeter({ monthUsed: 32990, at: at('2026-09-30T23:59:00.000Z') });
    expect(rateLimitHeaders(s).RateLimit).toBe('"month";r=10;t=60');
  });

  it('names the month on a tie, because only its reset restores service', () => {
    expect(rateLimitHeaders(proMeter({ minuteUsed: 55, monthUsed: 32995 })).RateLimit).toMatch(/^"month";r=5;t=\d+$/);
    const spent = proMeter({ verdict: 'quota-exceeded', minuteUsed: 60, monthUsed: 33000 });
    expect(rateLimitHeaders(spent).RateLimit).toBe(`"month";r=0;t=${secondsUntilMonthReset(spent.at)}`);
  });

  it('uses the length of the current month as the month window, 29 days in February 2028', () => {
    const s = proMeter({ at: at('2028-02-29T12:00:00.000Z') });
    expect(rateLimitHeaders(s)['RateLimit-Policy']).toBe('"minute";q=60;w=60, "month";q=33000;w=2505600');
  });

  it('never shows a negative remaining', () => {
    const headers = rateLimitHeaders(proMeter({ minuteLimit: 10, minuteUsed: 14, monthLimit: 1500, monthUsed: 1600 }));
    expect(headers['X-RateLimit-Remaining-Minute']).toBe('0');
    expect(headers['X-RateLimit-Remaining-Month']).toBe('0');
    expect(headers.RateLimit).toMatch(/;r=0;/);
  });

  it('keeps every remaining figure between 0 and its limit for any counts', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1000 }),
        fc.integer({ min: 0, max: 2000 }),
        fc.integer({ min: 0, max: 200_000 }),
        fc.integer({ min: 0, max: 400_000 }),
        fc.integer({ min: at('2000-01-01T00:00:00Z'), max: at('2100-01-01T00:00:00Z') }),
        (minuteLimit, minuteUsed, monthLimit, monthUsed, t) => {
          const h = rateLimitHeaders(proMeter({ minuteLimit, minuteUsed, monthLimit, monthUsed, at: t }));
          const minuteRemaining = Number(h['X-RateLimit-Remaining-Minute']);
          const monthRemaining = Number(h['X-RateLimit-Remaining-Month']);
          expect(minuteRemaining).toBe(Math.max(0, minuteLimit - minuteUsed));
          expect(monthRemaining).toBe(Math.max(0, monthLimit - monthUsed));
          const m = /^"(minute|month)";r=(\d+);t=(\d+)$/.exec(h.RateLimit ?? '');
          expect(m).not.toBeNull();
          expect(Number(m?.[2])).toBe(Math.min(minuteRemaining, monthRemaining));
          expect(Number(m?.[3])).toBeGreaterThanOrEqual(1);
        },
      ),
    );
  });
});

describe('retryAfterSeconds', () => {
  it('is undefined for an admitted request', () => {
    expect(retryAfterSeconds(proMeter())).toBeUndefined();
  });

  it('waits until the minute resets for rate-limit-exceeded', () => {
    expect(retryAfterSeconds(proMeter({ verdict: 'rate-limit-exceeded' }))).toBe(41);
    expect(retryAfterSeconds(proMeter({ verdict: 'rate-limit-exceeded', at: at('2026-09-15T10:20:59.999Z') }))).toBe(1);
    expect(retryAfterSeconds(proMeter({ verdict: 'rate-limit-exceeded', at: at('2026-09-15T10:21:00.000Z') }))).toBe(
      60,
    );
  });

  it('waits until the month resets for quota-exceeded', () => {
    expect(retryAfterSeconds(proMeter({ verdict: 'quota-exceeded', at: at('2026-09-30T23:59:59.999Z') }))).toBe(1);
    expect(retryAfterSeconds(proMeter({ verdict: 'quota-exceeded', at: at('2026-09-30T00:00:00.000Z') }))).toBe(
      DAY_SECONDS,
    );
  });
});
