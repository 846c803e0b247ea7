/** The plan table of the API (README, openapi.json). Account records may override the limits per account. */
export type PlanId = 'free' | 'pro' | 'business';

export interface PlanLimits {
  /** The `plan` field of the quota report. */
  name: string;
  monthlyLimit: number;
  perMinute: number;
  /** Months of history: 0 none, 12 one year, null unlimited. */
  historyMonths: 0 | 12 | null;
  /** Active keys an account may hold; null is unlimited. */
  maxActiveKeys: number | null;
  overflowAllowed: boolean;
  overflowPercent: number;
}

export const PLANS: Readonly<Record<PlanId, PlanLimits>> = {
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
};

export const PLAN_IDS = Object.keys(PLANS) as PlanId[];

export function isPlanId(value: string): value is PlanId {
  return Object.hasOwn(PLANS, value);
}

/**
 * The largest limit an override may set: base plus 100 % overflow stays an exact integer (< 2^53), and every
 * count fits the 16 digits the authorizer context carries.
 */
export const MAX_LIMIT = 1_000_000_000_000_000;

export interface LimitOverrides {
  monthlyLimit?: number;
  perMinute?: number;
  /** 0 to 100; with `overflowAllowed: false` the percentage is forced to 0. */
  overflowPercent?: number;
  overflowAllowed?: boolean;
}

/** The limits that apply to one account: its plan's defaults with the account's overrides on top. */
export function resolveLimits(plan: PlanId, overrides: LimitOverrides = {}): PlanLimits {
  const defaults = PLANS[plan];
  const overflowAllowed = overrides.overflowAllowed ?? defaults.overflowAllowed;
  return {
    ...defaults,
    monthlyLimit: overrides.monthlyLimit ?? defaults.monthlyLimit,
    perMinute: overrides.perMinute ?? defaults.perMinute,
    overflowAllowed,
    overflowPercent: overflowAllowed ? (overrides.overflowPercent ?? defaults.overflowPercent) : 0,
  };
}

/** What the plans cost and add, as the specification's plan table offers them; the dashboard's plans page. */
export interface PlanOffer {
  priceEurPerMonth: number;
  /** The historical data column of the plan table, in words. */
  history: string;
  extras: string | null;
}

export const PLAN_OFFERS: Readonly<Record<PlanId, PlanOffer>> = {
  free: { priceEurPerMonth: 0, history: 'none', extras: null },
  pro: { priceEurPerMonth: 10, history: '1 year back', extras: 'priority support' },
  business: { priceEurPerMonth: 30, history: 'full, since 1999', extras: 'an SLA and dedicated support' },
};
