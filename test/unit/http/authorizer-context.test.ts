import fc from 'fast-check';
import { PLAN_IDS, PLANS, type PlanId, resolveLimits } from '../../../lambdas/core/domain/plans';
import { effectiveLimit, type MeterState } from '../../../lambdas/core/domain/quota';
import {
  type Access,
  type AccessLimits,
  decodeAccess,
  encodeAccess,
  isUnavailable,
  VERDICTS,
} from '../../../lambdas/core/http/authorizer-context';
import { proMeter } from '../../support/meter';

const limits: AccessLimits = { monthlyLimit: 30000, overflowAllowed: true, overflowPercent: 10, perMinute: 60 };

const pro = (verdict: Access['verdict'], meterOverrides: Partial<MeterState> = {}): Access => ({
  verdict,
  accountId: 'acc-1',
  plan: 'pro',
  limits,
  meter: proMeter(meterOverrides),
});

describe('encodeAccess and decodeAccess', () => {
  it('round-trips an admitted, metered access', () => {
    expect(decodeAccess(encodeAccess(pro('admitted')))).toEqual(pro('admitted'));
  });

  it('round-trips refusals with their metering', () => {
    for (const verdict of ['rate-limit-exceeded', 'quota-exceeded'] as const) {
      expect(decodeAccess(encodeAccess(pro(verdict, { verdict })))).toEqual(pro(verdict, { verdict }));
    }
  });

  it("round-trips an inactive account, whose meter was read rather than admitted and so says 'admitted'", () => {
    const inactive = pro('account-inactive');
    expect(inactive.meter?.verdict).toBe('admitted');
    expect(decodeAccess(encodeAccess(inactive))).toEqual(inactive);
  });

  it('round-trips verdicts reached without metering', () => {
    const inactive: Access = { verdict: 'account-inactive', accountId: 'acc-3', plan: 'free', limits };
    expect(decodeAccess(encodeAccess(inactive))).toEqual(inactive);
    expect(decodeAccess(encodeAccess({ verdict: 'api-key-in-url' }))).toEqual({ verdict: 'api-key-in-url' });
  });

  it('round-trips an unavailable store in a small context: the verdict, and the account and plan when known', () => {
    expect(encodeAccess({ verdict: 'unavailable' })).toEqual({ verdict: 'unavailable' });
    expect(decodeAccess({ verdict: 'unavailable' })).toEqual({ verdict: 'unavailable' });
    const known: Access = { verdict: 'unavailable', accountId: 'acc-4', plan: 'business' };
    expect(encodeAccess(known)).toEqual({ verdict: 'unavailable', accountId: 'acc-4', plan: 'business' });
    expect(decodeAccess(encodeAccess(known))).toEqual(known);
  });

  it('round-trips every plan, override and count the authorizer can produce', () => {
    const arbitrary = fc.record({
      // The verdicts that come with a meter: the key in the URL and an unavailable store are decided without one.
      verdict: fc.constantFrom(...VERDICTS.filter((v) => v !== 'api-key-in-url' && v !== 'unavailable')),
      plan: fc.constantFrom(...PLAN_IDS),
      monthlyLimit: fc.option(fc.integer({ min: 0, max: 10 ** 12 }), { nil: undefined }),
      perMinute: fc.option(fc.integer({ min: 0, max: 10 ** 6 }), { nil: undefined }),
      overflowAllowed: fc.option(fc.boolean(), { nil: undefined }),
      overflowPercent: fc.option(fc.integer({ min: 0, max: 100 }), { nil: undefined }),
      minuteUsed: fc.nat(),
      monthUsed: fc.nat(),
      at: fc.integer({ min: 0, max: Date.parse('2200-01-01T00:00:00Z') }),
    });
    fc.assert(
      fc.property(arbitrary, (input) => {
        const { verdict, plan, minuteUsed, monthUsed, at, ...overrides } = input;
        const resolved = resolveLimits(plan as PlanId, JSON.parse(JSON.stringify(overrides)));
        const access: Access = {
          verdict,
          accountId: 'acc',
          plan,
          limits: {
            monthlyLimit: resolved.monthlyLimit,
            overflowAllowed: resolved.overflowAllowed,
            overflowPercent: resolved.overflowPercent,
            perMinute: resolved.perMinute,
          },
          meter: {
            verdict: verdict === 'account-inactive' ? 'admitted' : verdict,
            plan: resolved.name,
            minuteLimit: resolved.perMinute,
            minuteUsed,
            monthLimit: effectiveLimit(resolved),
            monthUsed,
            at,
          },
        };
        const context = encodeAccess(access);
        expect(Object.values(context).every((value) => typeof value === 'string')).toBe(true);
        expect(decodeAccess(context)).toEqual(access);
      }),
    );
  });

  it('carries each fact once: no plan name and no limit of the meter, which follow from the plan and limits', () => {
    const context = encodeAccess(pro('admitted'));
    expect(Object.values(context)).not.toContain('Pro');
    expect(Object.values(context)).not.toContain('33000');
    expect(Object.keys(context).sort()).toEqual(
      [
        'accountId',
        'meteredAt',
        'minuteUsed',
        'monthUsed',
        'monthlyLimit',
        'overflowAllowed',
        'overflowPercent',
        'perMinute',
        'plan',
        'verdict',
      ].sort(),
    );
  });

  it('derives the meter from the plan: its name and the limits with overflow', () => {
    const context = encodeAccess({ ...pro('admitted'), plan: 'business' });
    expect(decodeAccess(context)?.meter).toMatchObject({ plan: PLANS.business.name, monthLimit: 33000 });
  });

  it('reads numbers and booleans too, for a host that passes values through unconverted', () => {
    const context: Record<string, unknown> = { ...encodeAccess(pro('admitted')) };
    context.monthlyLimit = 30000;
    context.overflowAllowed = true;
    context.minuteUsed = 1;
    expect(decodeAccess(context)).toEqual(pro('admitted'));
  });

  it('is undefined without a context or with an unknown verdict', () => {
    expect(decodeAccess(undefined)).toBeUndefined();
    expect(decodeAccess(null)).toBeUndefined();
    expect(decodeAccess({})).toBeUndefined();
    expect(decodeAccess({ verdict: 'allowed' })).toBeUndefined();
    expect(decodeAccess({ verdict: 'toString' })).toBeUndefined();
    expect(decodeAccess({ principalId: 'x', integrationLatency: 3 })).toBeUndefined();
  });

  it('ignores an unknown plan, and the meter that would follow from it', () => {
    const context = { ...encodeAccess(pro('admitted')), plan: 'enterprise' };
    expect(decodeAccess(context)).toEqual({ verdict: 'admitted', accountId: 'acc-1', limits });
  });

  const limitsDropped = { verdict: 'account-inactive', accountId: 'acc-1', plan: 'pro' };
  const meterDropped = { verdict: 'admitted', accountId: 'acc-1', plan: 'pro', limits };
  it.each([
    ['monthlyLimit', '1.5', 'account-inactive', limitsDropped],
    ['monthlyLimit', 'lots', 'account-inactive', limitsDropped],
    ['monthlyLimit', '-5', 'account-inactive', limitsDropped],
    ['monthlyLimit', '1e3', 'account-inactive', limitsDropped],
    ['perMinute', 'ten', 'account-inactive', limitsDropped],
    ['perMinute', '', 'account-inactive', limitsDropped],
    ['perMinute', ' ', 'account-inactive', limitsDropped],
    ['overflowPercent', 'NaN', 'account-inactive', limitsDropped],
    ['overflowPercent', '0x10', 'account-inactive', limitsDropped],
    ['overflowAllowed', 'yes', 'account-inactive', limitsDropped],
    ['overflowAllowed', 'TRUE', 'account-inactive', limitsDropped],
    ['minuteUsed', '-1', 'admitted', meterDropped],
    ['minuteUsed', '1.5', 'admitted', meterDropped],
    ['monthUsed', '1e3', 'admitted', meterDropped],
    ['meteredAt', '', 'admitted', meterDropped],
  ] as const)(
    'drops as a whole the limits or the meter that %s = %j belongs to (and the meter that follows from the limits)',
    (key, value, verdict, expected) => {
      const context = { ...encodeAccess(pro(verdict)), [key]: value };
      expect(decodeAccess(context)).toEqual(expected);
    },
  );

  it('refuses counts that are not non-negative safe integers, in either spelling', () => {
    const good = encodeAccess(pro('admitted'));
    const refused: unknown[] = [
      -1,
      1.5,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      Number.MAX_SAFE_INTEGER + 1,
      '9007199254740992',
      '12345678901234567',
      ' 1',
      '1 ',
      '+1',
      '1e3',
      '0x10',
      '１',
      true,
      null,
      [1],
    ];
    for (const value of refused) {
      expect([value, decodeAccess({ ...good, monthUsed: value })?.meter]).toEqual([value, undefined]);
    }
    expect(decodeAccess({ ...good, monthUsed: '9007199254740991' })?.meter?.monthUsed).toBe(Number.MAX_SAFE_INTEGER);
    expect(decodeAccess({ ...good, monthUsed: '0012' })?.meter?.monthUsed).toBe(12);
    expect(decodeAccess({ ...good, monthUsed: 0 })?.meter?.monthUsed).toBe(0);
  });
});

describe('isUnavailable', () => {
  it('agrees with the decoded verdict for every verdict and for contexts that name none', () => {
    const contexts = [...VERDICTS.map((verdict) => encodeAccess({ verdict })), null, undefined, {}, { verdict: 'x' }];
    for (const context of contexts) {
      expect([context, isUnavailable(context)]).toEqual([context, decodeAccess(context)?.verdict === 'unavailable']);
    }
    expect(isUnavailable({ verdict: 'unavailable' })).toBe(true);
  });
});
