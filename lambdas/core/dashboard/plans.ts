import { PLAN_IDS, PLAN_OFFERS, PLANS } from '../domain/plans';
import { type DashboardDeps, lambdaDashboardDeps } from './deps';
import { defineDashboardEndpoint } from './endpoint';
import { dashboardResponse } from './views';

/** The plans as offered, from the one plan table; each account's own overrides show on the overview instead. */
export function planCatalog() {
  return PLAN_IDS.map((id) => ({
    id,
    name: PLANS[id].name,
    price_eur_per_month: PLAN_OFFERS[id].priceEurPerMonth,
    monthly_limit: PLANS[id].monthlyLimit,
    per_minute: PLANS[id].perMinute,
    history: PLAN_OFFERS[id].history,
    max_active_keys: PLANS[id].maxActiveKeys,
    overflow_percent: PLANS[id].overflowAllowed ? PLANS[id].overflowPercent : 0,
    extras: PLAN_OFFERS[id].extras,
  }));
}

/** GET /api/plans. Changing plans is not self-service: the operator does it with the admin CLI. */
export const endpoint = defineDashboardEndpoint<DashboardDeps>({
  route: 'plans',
  lambdaDeps: lambdaDashboardDeps,
  create:
    (deps) =>
    async ({ owner }) => {
      const account = await deps.accounts.provisionOwnedAccount(owner);
      return dashboardResponse({ current: account.plan, contact: deps.contact, plans: planCatalog() }, deps.clock());
    },
});
