/**
 * Least privilege, from the code's side: each dashboard function's real entry (lambdas/dashboard/handler.ts with its
 * route's module, in a module registry of its own as in its own Lambda instance) runs against DynamoDB through a
 * recording proxy, and every request it sends is checked against that function's grants the way IAM would check
 * it (lib/dashboard-access.ts, which the CDK grants are built from; test/infra/least-privilege.test.ts checks the
 * synthesized policies against the same data). A write outside the granted prefixes fails here, before AWS
 * refuses it with AccessDenied in production.
 */
import { PutItemCommand } from '@aws-sdk/client-dynamodb';
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import {
  DASHBOARD_ROUTES,
  type DashboardRouteId,
  dashboardRouteById,
} from '../../../lambdas/core/http/dashboard-routes';
import { createMeteringClient } from '../../../lambdas/core/store/clients';
import { ACCOUNTS_TABLE, usageKey } from '../../../lambdas/core/store/tables';
import { dashboardItemAccess } from '../../../lib/dashboard-access';
import { type Backend, backends, freshTables, type TestTables } from '../../support/backends';
import { type Access, type AllowStatement, accessesOf, isAllowed } from '../../support/iam-policy';
import { type StoreProxy, startStoreProxy } from '../../support/store-proxy';

type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<{ statusCode: number; body: string }>;

/** The function's grants as Allow statements: its item actions under LeadingKeys, Query on its indexes. */
function statementsOf(route: DashboardRouteId): AllowStatement[] {
  const definition = dashboardRouteById(route);
  return [
    ...dashboardItemAccess(definition).map((access) => ({
      actions: [access.action],
      resources: ['table'],
      leadingKeys: access.partitionKeyPatterns,
    })),
    ...(definition.accountsIndexes.length > 0
      ? [{ actions: ['Query'], resources: definition.accountsIndexes.map((index) => `index/${index}`) }]
      : []),
  ];
}

const accessesThrough = (proxy: StoreProxy): Access[] =>
  proxy.requests.flatMap(({ operation, body }) => accessesOf(operation, body, ACCOUNTS_TABLE.partitionKey));

const context = { functionName: 'dashboard', awsRequestId: 'test' } as unknown as Context;

let requests = 0;

/** The status of each step of useEveryRoute: the steps took the paths they are meant to. */
const EXPECTED_ANSWERS = {
  'account first': 200,
  'account again': 200,
  'plans first': 200,
  'keys-list first': 200,
  'keys-revoke first': 404,
  'keys-create first': 201,
  'keys-create over the plan': 409,
  'keys-list again': 200,
  'keys-revoke of another': 404,
  'keys-revoke': 200,
  'keys-revoke again': 200,
  'keys-create over the hour': 429,
};

/** The event API Gateway passes after its Cognito authorizer verified the person's ID token. */
function eventFor(route: DashboardRouteId, sub: string, extra: { keyId?: string; body?: unknown } = {}) {
  const definition = dashboardRouteById(route);
  return {
    resource: definition.path,
    path: `/api${definition.path}`,
    httpMethod: definition.method,
    headers: extra.body === undefined ? {} : { 'Content-Type': 'application/json' },
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: extra.keyId === undefined ? null : { keyId: extra.keyId },
    stageVariables: null,
    body: extra.body === undefined ? null : JSON.stringify(extra.body),
    isBase64Encoded: false,
    requestContext: {
      requestId: `request-${++requests}`,
      authorizer: { claims: { sub, email: `${sub}@example.com`, email_verified: 'true' } },
    },
  } as unknown as APIGatewayProxyEvent;
}

describe.each(backends().map((b) => [b.name, b] as const))('dashboard functions on %s', (_name, backend: Backend) => {
  let tables: TestTables;
  const proxies = new Map<DashboardRouteId, StoreProxy>();
  const handlers = new Map<DashboardRouteId, Handler>();

  beforeAll(async () => {
    tables = await freshTables(backend);
    const saved = { endpoint: process.env.DYNAMODB_ENDPOINT, table: process.env[ACCOUNTS_TABLE.envVar] };
    try {
      for (const route of DASHBOARD_ROUTES) {
        const proxy = await startStoreProxy(backend.endpoint);
        proxies.set(route.id, proxy);
        // What the function's environment gives its module-scope clients, read when its entry loads.
        process.env.DYNAMODB_ENDPOINT = proxy.endpoint;
        process.env[ACCOUNTS_TABLE.envVar] = tables.accountsTable;
        await jest.isolateModulesAsync(async () => {
          // lib/bundling.ts aliases this module to the route's own one in each function's bundle.
          jest.doMock('fxrates-dashboard-endpoint', () => require(`../../../lambdas/core/dashboard/${route.id}`), {
            virtual: true,
          });
          const entry = (await import('../../../lambdas/dashboard/handler')) as { handler: Handler };
          handlers.set(route.id, entry.handler);
        });
      }
    } finally {
      process.env.DYNAMODB_ENDPOINT = saved.endpoint;
      if (saved.table === undefined) delete process.env[ACCOUNTS_TABLE.envVar];
      else process.env[ACCOUNTS_TABLE.envVar] = saved.table;
    }
    expect(await useEveryRoute()).toEqual(EXPECTED_ANSWERS);
  }, 60_000);

  afterAll(async () => {
    for (const proxy of proxies.values()) await proxy.close();
  });

  const call = async (route: DashboardRouteId, sub: string, extra: { keyId?: string; body?: unknown } = {}) => {
    const handler = handlers.get(route);
    if (!handler) throw new Error(`no handler for ${route}`);
    const reply = await handler(eventFor(route, sub, extra), context);
    return { status: reply.statusCode, json: JSON.parse(reply.body) as { data?: Record<string, unknown> } };
  };

  /**
   * Every path of the store's code the dashboard reaches: each route as someone's first request (it creates the
   * account), repeats, refusals, revoking twice, another person's key, the hourly creation limit.
   */
  async function useEveryRoute(): Promise<Record<string, number>> {
    const statuses: Record<string, number> = {};
    const note = async (label: string, reply: Promise<{ status: number }>) => {
      statuses[label] = (await reply).status;
    };
    const person = (who: string) => `${who}-${backend.name}`;
    await note('account first', call('account', person('a')));
    await note('account again', call('account', person('a')));
    await note('plans first', call('plans', person('p')));
    await note('keys-list first', call('keys-list', person('l')));
    await note('keys-revoke first', call('keys-revoke', person('r'), { keyId: 'key_unknown' }));
    const created = await call('keys-create', person('c'), { body: { name: 'first' } });
    statuses['keys-create first'] = created.status;
    const keyId = String(created.json.data?.id);
    await note('keys-create over the plan', call('keys-create', person('c'), { body: { name: 'second' } }));
    await note('keys-list again', call('keys-list', person('c')));
    await note('keys-revoke of another', call('keys-revoke', person('a'), { keyId }));
    await note('keys-revoke', call('keys-revoke', person('c'), { keyId }));
    await note('keys-revoke again', call('keys-revoke', person('c'), { keyId }));
    // The creation limit counts keys made, not attempts: nine more made (and revoked, as Free holds one) fill it.
    for (let i = 0; i < 9; i++) {
      const made = await call('keys-create', person('c'), { body: { name: `k${i}` } });
      await call('keys-revoke', person('c'), { keyId: String(made.json.data?.id) });
    }
    await note('keys-create over the hour', call('keys-create', person('c'), { body: { name: 'over' } }));
    return statuses;
  }

  it('sends, from each function, only requests that its own grants allow', () => {
    for (const route of DASHBOARD_ROUTES) {
      const accesses = accessesThrough(proxies.get(route.id) as StoreProxy);
      expect(accesses.length).toBeGreaterThan(0);
      const refused = accesses.filter((access) => !isAllowed(statementsOf(route.id), access));
      expect([route.id, refused]).toEqual([route.id, []]);
    }
  });

  it('uses each action on every kind of item its grants name, so no grant is wider than the code needs', () => {
    const written = (route: DashboardRouteId, action: string) =>
      new Set(
        accessesThrough(proxies.get(route) as StoreProxy)
          .filter((a) => a.action === action)
          .flatMap((a) => a.leadingKeys.map((key) => key.slice(0, key.indexOf('#') + 1))),
      );
    for (const route of DASHBOARD_ROUTES) {
      for (const access of dashboardItemAccess(route)) {
        const prefixes = access.partitionKeyPatterns.map((pattern) => pattern.replace(/\*$/, ''));
        expect([route.id, access.action, [...written(route.id, access.action)].sort()]).toEqual([
          route.id,
          access.action,
          prefixes.sort(),
        ]);
      }
    }
  });

  it('refuses a write outside the prefixes: a usage item put through the same proxy is not allowed', async () => {
    const proxy = proxies.get('keys-create') as StoreProxy;
    const before = proxy.requests.length;
    const client = createMeteringClient(tables.client, proxy.endpoint);
    await client.send(
      new PutItemCommand({
        TableName: tables.accountsTable,
        Item: { pk: { S: usageKey('acc_x', '2026-11') }, month_count: { N: '0' } },
      }),
    );
    const [put] = proxy.requests.slice(before).flatMap(({ operation, body }) => accessesOf(operation, body, 'pk'));
    expect(put).toEqual({ action: 'PutItem', resource: 'table', leadingKeys: ['USAGE#acc_x#2026-11'] });
    expect(isAllowed(statementsOf('keys-create'), put as Access)).toBe(false);
    proxy.requests.splice(before);
  });
});
