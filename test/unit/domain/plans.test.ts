import fc from 'fast-check';
import { isPlanId, PLAN_IDS, PLANS, type PlanId, resolveLimits } from '../../../lambdas/core/domain/plans';

describe('PLANS', () => {
  it('matches the defaults table of the contract', () => {
    // Plan, plan field, monthly base_limit, per minute, history, API keys, overflow (API-CONTRACT.md).
    expect(PLANS).toEqual({
      free: {
        name: 'Free',
        monthlyLimit: 1500,
        perMinute: 10,
        historyMonths: 0,
        maxActiveKeys: 1,
        overflowAllowed: false,
        overflowPercent: 0,
      },
      pro: {
        name: 'Pro',
        monthlyLimit: 30000,
        perMinute: 60,
        historyMonths: 12,
        maxActiveKeys: null,
        overflowAllowed: true,
        overflowPercent: 10,
      },
      business: {
        name: 'Business',
        monthlyLimit: 125000,
        perMinute: 300,
        historyMonths: null,
        maxActiveKeys: null,
        overflowAllowed: true,
        overflowPercent: 20,
      },
    });
  });

  it('lists the three plan ids', () => {
    expect([...PLAN_IDS].sort()).toEqual(['business', 'free', 'pro']);
  });

  it('recognizes plan ids only, in lower case', () => {
    expect(PLAN_IDS.every(isPlanId)).toBe(true);
    for (const other of ['Free', 'PRO', 'enterprise', '', 'toString', '__proto__']) expect(isPlanId(other)).toBe(false);
  });
});

describe('resolveLimits', () => {
  it('returns the plan defaults without overrides', () => {
    for (const plan of PLAN_IDS) {
      expect(resolveLimits(plan)).toEqual(PLANS[plan]);
      expect(resolveLimits(plan, {})).toEqual(PLANS[plan]);
    }
  });

  it('applies each override on top of the plan', () => {
    expect(resolveLimits('pro', { monthlyLimit: 50000 })).toEqual({ ...PLANS.pro, monthlyLimit: 50000 });
    expect(resolveLimits('pro', { perMinute: 120 })).toEqual({ ...PLANS.pro, perMinute: 120 });
    expect(resolveLimits('business', { overflowPercent: 35 })).toEqual({ ...PLANS.business, overflowPercent: 35 });
    expect(resolveLimits('free', { monthlyLimit: 3000, perMinute: 20 })).toEqual({
      ...PLANS.free,
      monthlyLimit: 3000,
      perMinute: 20,
    });
  });

  it('forces the overflow percentage to 0 when overflow is switched off', () => {
    expect(resolveLimits('pro', { overflowAllowed: false })).toMatchObject({
      overflowAllowed: false,
      overflowPercent: 0,
    });
    expect(resolveLimits('business', { overflowAllowed: false, overflowPercent: 50 })).toMatchObject({
      overflowAllowed: false,
      overflowPercent: 0,
    });
  });

  it('ignores an overflow percentage on a plan without overflow', () => {
    expect(resolveLimits('free', { overflowPercent: 25 })).toMatchObject({
      overflowAllowed: false,
      overflowPercent: 0,
    });
  });

  it('lets an override allow overflow on Free with its own percentage', () => {
    expect(resolveLimits('free', { overflowAllowed: true, overflowPercent: 5 })).toMatchObject({
      overflowAllowed: true,
      overflowPercent: 5,
    });
  });

  it('keeps history depth, key limit and name from the plan whatever the overrides', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<PlanId>(...PLAN_IDS),
        fc.record(
          {
            monthlyLimit: fc.integer({ min: 0, max: 10_000_000 }),
            perMinute: fc.integer({ min: 0, max: 100_000 }),
            overflowPercent: fc.integer({ min: 0, max: 100 }),
            overflowAllowed: fc.boolean(),
          },
          { requiredKeys: [] },
        ),
        (plan, overrides) => {
          const limits = resolveLimits(plan, overrides);
          expect(limits.name).toBe(PLANS[plan].name);
          expect(limits.historyMonths).toBe(PLANS[plan].historyMonths);
          expect(limits.maxActiveKeys).toBe(PLANS[plan].maxActiveKeys);
          expect(limits.monthlyLimit).toBe(overrides.monthlyLimit ?? PLANS[plan].monthlyLimit);
          expect(limits.perMinute).toBe(overrides.perMinute ?? PLANS[plan].perMinute);
          const allowed = overrides.overflowAllowed ?? PLANS[plan].overflowAllowed;
          expect(limits.overflowAllowed).toBe(allowed);
          expect(limits.overflowPercent).toBe(allowed ? (overrides.overflowPercent ?? PLANS[plan].overflowPercent) : 0);
        },
      ),
    );
  });

  it('does not change the shared plan table', () => {
    const before = JSON.stringify(PLANS);
    const limits = resolveLimits('pro', { monthlyLimit: 1 });
    limits.perMinute = 1;
    expect(JSON.stringify(PLANS)).toBe(before);
  });
});
