/**
 * What history and the time series check alike before they read a past day: which currencies they take, and
 * how far back the key's plan reaches.
 */
import { isActiveCode } from '../domain/currencies';
import { oneYearBefore } from '../domain/dates';
import { type ErrorParam, PlanUpgradeRequiredError } from '../domain/errors';
import { PLANS, type PlanId } from '../domain/plans';
import { currency } from '../http/parameters';
import { current, requireServed } from './current-rates';
import type { EndpointDeps } from './deps';

/** `from`/`to` in the path of history and the time series: withdrawn codes are read too. */
export const PAST_PAIR = {
  from: /* @__PURE__ */ currency('from', 'path', { allowWithdrawn: true }),
  to: /* @__PURE__ */ currency('to', 'path', { allowWithdrawn: true }),
};

/** Active codes are supported where the sources deliver them today; withdrawn ones on their historical days. */
export async function requireHistoryCodes(deps: EndpointDeps, from: string, to: string): Promise<void> {
  const { rates } = await current(deps);
  if (isActiveCode(from)) requireServed(rates, from, 'from');
  if (isActiveCode(to)) requireServed(rates, to, 'to');
}

/**
 * 403 plan-upgrade-required unless the key's plan includes `earliestRequested`: Free has no history, Pro one
 * year back from `today` (UTC), Business everything. `param` names the day's parameter in the refusal.
 */
export function requireHistoryPlan(
  plan: PlanId | undefined,
  today: string,
  earliestRequested: string,
  param: ErrorParam,
): void {
  const months = plan ? PLANS[plan].historyMonths : 0;
  if (months === 0) {
    throw new PlanUpgradeRequiredError(
      `Historical rates are not included in your plan; upgrade to ${PLANS.pro.name} or ${PLANS.business.name}.`,
    );
  }
  if (months === null) return;
  const earliest = oneYearBefore(today);
  if (earliestRequested < earliest) {
    throw new PlanUpgradeRequiredError(
      `Your plan includes history back to ${earliest}; upgrade to ${PLANS.business.name} for the full history since 1999.`,
      param,
    );
  }
}
