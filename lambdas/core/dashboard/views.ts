/** How accounts and keys appear in the dashboard API's responses: snake_case, and never a key's secret part. */
import { accountIdForOwner } from '../domain/api-key';
import { formatTimestamp } from '../domain/dates';
import { PLANS } from '../domain/plans';
import { type HttpResponse, successResponse } from '../http/responses';
import type { Account, AccountOwner, ApiKeyRecord } from '../store/accounts-store';

export function accountView(account: Account) {
  return {
    id: account.accountId,
    email: account.email ?? null,
    plan: account.plan,
    plan_name: PLANS[account.plan].name,
    status: account.status,
    created_at: account.createdAt,
  };
}

export function keyView(key: ApiKeyRecord) {
  return {
    id: key.keyId,
    name: key.name,
    prefix: key.prefix ?? null,
    created_at: key.createdAt,
    status: key.revokedAt === undefined ? ('active' as const) : ('revoked' as const),
    ...(key.revokedAt === undefined ? {} : { revoked_at: key.revokedAt }),
  };
}

/** The envelope with the response's timestamp, as every public route sends it. */
export function dashboardResponse(data: unknown, now: Date, statusCode = 200): HttpResponse {
  const response = successResponse(data, { meta: { timestamp: formatTimestamp(now) } });
  response.statusCode = statusCode;
  return response;
}

/** The signed-in person's account id, known before the account is read: it is derived from their `sub`. */
export function ownedAccountId(owner: AccountOwner): string {
  return accountIdForOwner(owner.sub);
}
