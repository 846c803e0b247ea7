import { PLANS } from '../domain/plans';
import { type DashboardDeps, lambdaDashboardDeps } from './deps';
import { defineDashboardEndpoint } from './endpoint';
import { cannotCreateReason, nextKeyAt } from './errors';
import { dashboardResponse, keyView } from './views';

/** GET /api/keys: every key, oldest first, and whether (why not, when) another can be created. */
export const endpoint = defineDashboardEndpoint<DashboardDeps>({
  route: 'keys-list',
  lambdaDeps: lambdaDashboardDeps,
  create:
    (deps) =>
    async ({ owner }) => {
      const account = await deps.accounts.provisionOwnedAccount(owner);
      // The account was just read (and created if new): the key query alone, not a second account read.
      const keys = await deps.accounts.keysOf(account.accountId);
      const now = deps.clock();
      const reason = cannotCreateReason(account, deps.keyCreationLimit, now);
      return dashboardResponse(
        {
          keys: keys.map(keyView),
          active: account.activeKeys,
          max_active: PLANS[account.plan].maxActiveKeys,
          can_create: reason === undefined,
          ...(reason === undefined ? {} : { cannot_create_reason: reason }),
          next_key_at: nextKeyAt(account, deps.keyCreationLimit, now),
        },
        now,
      );
    },
});
