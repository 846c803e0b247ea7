import { PLANS, resolveLimits } from '../domain/plans';
import { dailyUsage, monthKey, quotaReport } from '../domain/quota';
import { type DashboardDeps, lambdaDashboardDeps } from './deps';
import { defineDashboardEndpoint } from './endpoint';
import { accountView, dashboardResponse, ownedAccountId } from './views';

/**
 * GET /api/account: the overview. The quota report is the one GET /v1/quota answers, from the same usage item the
 * authorizer writes; the chart's days come from that item's day counters. Two reads, run together: the account
 * (created on the first request) and the month's usage item.
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
      return dashboardResponse(
        {
          account: accountView(account),
          quota: quotaReport(limits, usage.monthUsed, now),
          usage: { month: monthKey(now), days: dailyUsage(now, usage.admittedByDay, usage.refusedByDay) },
          keys: { active: account.activeKeys, max_active: PLANS[account.plan].maxActiveKeys },
        },
        now,
      );
    },
});
