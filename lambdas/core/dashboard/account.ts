import { PLANS, resolveLimits } from '../domain/plans';
import { dailyUsage, monthKey, quotaReport } from '../domain/quota';
import { type DashboardDeps, lambdaDashboardDeps } from './deps';
import { defineDashboardEndpoint } from './endpoint';
import { nextKeyAt } from './errors';
import { accountView, dashboardResponse, ownedAccountId } from './views';

/**
 * GET /api/account: the quota report of GET /v1/quota and the chart's days, from the one usage item. The days count
 * every admitted request and `used` all but quota checks, raised by the same write, so their difference is exactly
 * `quota_checks`: the page reconciles chart and quota without a new counter.
 */
export const endpoint = defineDashboardEndpoint<DashboardDeps>({
  route: 'account',
  lambdaDeps: lambdaDashboardDeps,
  create:
    (deps) =>
    async ({ owner }) => {
      const now = deps.clock();
      const [account, usage] = await Promise.all([
        deps.accounts.provisionOwnedAccount(owner),
        deps.usage.monthUsage(ownedAccountId(owner), now),
      ]);
      const limits = resolveLimits(account.plan, account.overrides);
      const days = dailyUsage(now, usage.admittedByDay, usage.refusedByDay);
      const admitted = days.reduce((sum, day) => sum + day.requests, 0);
      return dashboardResponse(
        {
          account: accountView(account),
          quota: quotaReport(limits, usage.monthUsed, now),
          usage: { month: monthKey(now), days, quota_checks: Math.max(0, admitted - usage.monthUsed) },
          keys: {
            active: account.activeKeys,
            max_active: PLANS[account.plan].maxActiveKeys,
            next_key_at: nextKeyAt(account, deps.keyCreationLimit, now),
          },
        },
        now,
      );
    },
});
