/**
 * The account dashboard's API: the routes the dashboard page calls with a person's Cognito ID token, never with an
 * API key. A registry of its own beside the public one (routes.ts) because it is a different API: on AWS its own
 * REST API (stage `api`, behind the page's CloudFront distribution), with a Cognito authorizer and its own gateway
 * responses. Everything else is derived from an entry as for the public routes: the CDK methods, each function's
 * bundle and table grants (lib/bundling.ts, lib/dashboard-api.ts), the local gateway's wiring and the OpenAPI
 * document. Plain data; beside a type, erased from the bundles, it imports only the import-free path matcher.
 *
 * Adding a route: one entry here, its module `lambdas/core/dashboard/<id>.ts` exporting `endpoint`, its tests.
 */
import type { AccountsIndex, AccountsItemKind } from '../store/tables';
import { type PathMatch, pathMatcher } from './path-matcher';

export type DashboardRouteId = 'account' | 'keys-list' | 'keys-create' | 'keys-revoke' | 'plans';

/** DynamoDB actions a dashboard function may use on the accounts table itself. */
export type AccountsTableAction = 'GetItem' | 'PutItem' | 'UpdateItem';

export interface DashboardRouteDefinition {
  id: DashboardRouteId;
  method: 'GET' | 'POST' | 'DELETE';
  /** Resource path below the stage (`/api`), in API Gateway syntax. */
  path: string;
  /** One line for the API reference. */
  summary: string;
  /** Status of a success. */
  successStatus: 200 | 201;
  /** Whether the route reads a JSON body. */
  body: boolean;
  /**
   * What the function may do on the accounts table: each action, with the kinds of item it may do it to (their
   * partition key prefixes, ACCOUNTS_KEY_PREFIXES), which IAM enforces on `dynamodb:LeadingKeys`. Every route may
   * create the signed-in person's account on their first request (GetItem and PutItem of `account`), so no route
   * depends on the page calling another first.
   */
  accountsTable: Readonly<Partial<Record<AccountsTableAction, readonly AccountsItemKind[]>>>;
  /** The accounts table's indexes the function may query. */
  accountsIndexes: readonly AccountsIndex[];
}

/** The dashboard API's stage, and the path the page's distribution forwards to it. */
export const DASHBOARD_BASE_PATH = '/api';

/** The request header that carries the ID token, as API Gateway's Cognito authorizer reads it. */
export const DASHBOARD_TOKEN_HEADER = 'Authorization';

/** Every dashboard response is about one person's account: never stored by a cache. */
export const DASHBOARD_CACHE_CONTROL = 'no-store';

/** How long the dashboard's tokens last: the CDK app client and the local Cognito emulator both set these. */
export const DASHBOARD_TOKEN_VALIDITY = { idTokenHours: 1, accessTokenHours: 1, refreshTokenDays: 30 } as const;

/** The largest JSON body a dashboard route reads; larger bodies are refused before any parsing. */
export const DASHBOARD_MAX_BODY_BYTES = 4096;

export const DASHBOARD_ROUTES: readonly DashboardRouteDefinition[] = [
  {
    id: 'account',
    method: 'GET',
    path: '/account',
    summary: "The signed-in person's account: plan, this month's quota and requests per day",
    successStatus: 200,
    body: false,
    // The month's usage item, for the quota and the chart.
    accountsTable: { GetItem: ['account', 'usage'], PutItem: ['account'] },
    accountsIndexes: [],
  },
  {
    id: 'keys-list',
    method: 'GET',
    path: '/keys',
    summary: "The account's API keys, revoked ones included, without their secret part",
    successStatus: 200,
    body: false,
    accountsTable: { GetItem: ['account'], PutItem: ['account'] },
    accountsIndexes: ['keys-by-account'],
  },
  {
    id: 'keys-create',
    method: 'POST',
    path: '/keys',
    summary: 'Creates a named API key; the full key is in this response and never again',
    successStatus: 201,
    body: true,
    // The key item is new; the account's active keys and the times of its latest creations are updated.
    accountsTable: { GetItem: ['account'], PutItem: ['account', 'key'], UpdateItem: ['account'] },
    accountsIndexes: [],
  },
  {
    id: 'keys-revoke',
    method: 'DELETE',
    path: '/keys/{keyId}',
    summary: 'Revokes one of the account’s keys; the public API refuses it within 60 seconds',
    successStatus: 200,
    body: false,
    // The key gets its `revoked_at` (read back when it had one), and the account's active-key counter goes down.
    accountsTable: { GetItem: ['account', 'key'], PutItem: ['account'], UpdateItem: ['account', 'key'] },
    accountsIndexes: ['keys-by-id'],
  },
  {
    id: 'plans',
    method: 'GET',
    path: '/plans',
    summary: 'The plans on offer, the current one, and whom to ask for a change',
    successStatus: 200,
    body: false,
    accountsTable: { GetItem: ['account'], PutItem: ['account'] },
    accountsIndexes: [],
  },
];

export type DashboardRouteMatch = PathMatch<DashboardRouteDefinition>;

/** One matcher per method: a path of one method never shadows the same path of another. */
function matchersByMethod(): ReadonlyMap<string, (resourcePath: string) => DashboardRouteMatch | undefined> {
  const methods = new Set(DASHBOARD_ROUTES.map((route) => route.method));
  return new Map([...methods].map((m) => [m, pathMatcher(DASHBOARD_ROUTES.filter((route) => route.method === m))]));
}

// Pure-annotated: only the local gateway matches dashboard paths; the functions leave this out.
const matchers = /* @__PURE__ */ matchersByMethod();

/**
 * The route of a method and resource path (below `/api`), path parameters URL-decoded; undefined when none
 * matches, which API Gateway answers as an unknown resource.
 */
export function matchDashboardRoute(method: string, resourcePath: string): DashboardRouteMatch | undefined {
  return matchers.get(method)?.(resourcePath);
}

export function dashboardRouteById(id: DashboardRouteId): DashboardRouteDefinition {
  const route = DASHBOARD_ROUTES.find((r) => r.id === id);
  if (!route) throw new Error(`unknown dashboard route ${id}`);
  return route;
}
