/**
 * What each dashboard function may do to the items of the accounts table, as plain data: the CDK grants
 * (lib/dashboard-api.ts) are built from it, and the integration tests check every request the functions' code sends
 * against it. No CDK imports, so those tests load none.
 */
import type { AccountsTableAction, DashboardRouteDefinition } from '../lambdas/core/http/dashboard-routes';
import { type AccountsItemKind, accountsItemPatterns } from '../lambdas/core/store/tables';

export interface ItemAccess {
  action: AccountsTableAction;
  /** `dynamodb:LeadingKeys` patterns (IAM StringLike): every partition key a request names must match one. */
  partitionKeyPatterns: string[];
}

/** The route's actions on the table itself, each limited to the partition key prefixes of its kinds of item. */
export function dashboardItemAccess(route: DashboardRouteDefinition): ItemAccess[] {
  const entries = Object.entries(route.accountsTable) as [AccountsTableAction, readonly AccountsItemKind[]][];
  return entries.map(([action, kinds]) => ({ action, partitionKeyPatterns: accountsItemPatterns(kinds) }));
}
