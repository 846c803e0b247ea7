import { ApiError } from '../domain/errors';
import { type DashboardDeps, lambdaDashboardDeps } from './deps';
import { defineDashboardEndpoint } from './endpoint';
import { dashboardResponse, keyView } from './views';

/** Key ids as the store makes them; anything else is answered 404 without a read. */
const KEY_ID = /^key_[0-9A-Za-z]{1,64}$/;

/** DELETE /api/keys/{keyId}: another account's key id is a 404, as an unknown one, so ids cannot be probed. */
export const endpoint = defineDashboardEndpoint<DashboardDeps>({
  route: 'keys-revoke',
  lambdaDeps: lambdaDashboardDeps,
  create:
    (deps) =>
    async ({ event, owner }) => {
      const keyId = event.pathParameters?.keyId ?? '';
      const account = await deps.accounts.provisionOwnedAccount(owner);
      if (!KEY_ID.test(keyId)) throw new ApiError('not-found', 'No key with this id belongs to your account.');
      const { key, alreadyRevoked } = await deps.accounts.revokeKey(keyId, { accountId: account.accountId });
      return dashboardResponse({ ...keyView(key), already_revoked: alreadyRevoked }, deps.clock());
    },
});
