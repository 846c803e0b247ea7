import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { contactLink, type DashboardDeps, KEY_CREATION_LIMIT } from '../lambdas/core/dashboard/deps';
import type { DashboardEndpointModule } from '../lambdas/core/dashboard/endpoint';
import { type Clock, systemClock } from '../lambdas/core/domain/dates';
import type { EndpointDeps } from '../lambdas/core/endpoints/deps';
import type { EndpointModule } from '../lambdas/core/endpoints/endpoint';
import { apiHandler } from '../lambdas/core/http/api-handler';
import { dashboardHandler } from '../lambdas/core/http/dashboard-handler';
import { DASHBOARD_BASE_PATH, DASHBOARD_ROUTES, type DashboardRouteId } from '../lambdas/core/http/dashboard-routes';
import { ROUTES, type RouteId } from '../lambdas/core/http/routes';
import { logger } from '../lambdas/core/observability';
import { RateReader } from '../lambdas/core/service/rate-reader';
import { AccountsStore } from '../lambdas/core/store/accounts-store';
import { createDocumentClient, createMeteringClient } from '../lambdas/core/store/clients';
import { createTable } from '../lambdas/core/store/create-tables';
import { RatesStore } from '../lambdas/core/store/rates-store';
import { ACCOUNTS_TABLE, RATES_TABLE } from '../lambdas/core/store/tables';
import { UsageStore } from '../lambdas/core/store/usage-store';
import { dashboardModule, endpointModule, PROJECT_ROOT } from '../lib/bundling';
import { type CognitoEmulator, startCognitoEmulator, type VerificationCode } from './cognito-emulator';
import { createTokenVerifier, tokenOfHeader } from './cognito-tokens';
import { dashboardFiles, withConfig } from './dashboard-site';
import { type DemoKeys, ensureDemoAccounts } from './demo-accounts';
import { openEmbeddedStore, type StoreRequestCounts } from './embedded-store';
import { createLocalGateway, type ProxyHandler, type StaticPage } from './gateway';
import type { LocalRequestHandler } from './in-process-transport';
import { createLocalAuthorizer } from './local-authorizer';
import { EMBEDDED_STORE_DIR, ENDPOINT_FILE, localTableNames, storeIsLocked } from './local-store';
import type { StoreThreadAddress } from './store-thread';
import { ThreadTransport } from './thread-transport';
import { startStoreThread } from './threads';

export interface RatesTarget {
  store: RatesStore;
  client: DynamoDBDocumentClient;
  tableName: string;
}

export interface LocalServiceOptions {
  /** Persistent data directory; without it everything lives in memory (tests). */
  dataDir?: string;
  port?: number;
  host?: string;
  clock?: Clock;
  /** Loads rates into the store; returns a one-line description of where they came from. */
  loadRates?: (target: RatesTarget) => Promise<string>;
  /** Create the three demo accounts and their keys (default true). */
  demoAccounts?: boolean;
  /** TTL of the authorizer's key and account cache (the API reference allows up to 60 s). */
  recordCacheTtlMs?: number;
  /** The threads it runs on (default `DEFAULT_LAYOUT`). */
  layout?: LocalLayout;
  /** Serve the account dashboard, its API and the Cognito emulator (default true). */
  dashboard?: boolean;
  /** Where the plans page tells customers to ask for a plan change: an e-mail address or an https URL. */
  upgradeContact?: string;
  /** Told each verification code the Cognito emulator would have e-mailed. */
  onVerificationCode?: (code: VerificationCode) => void;
}

export interface LocalService {
  url: string;
  port: number;
  dynamoEndpoint: string;
  client: DynamoDBDocumentClient;
  /** DynamoDB requests the embedded store answered, by operation, from every thread; `reset` starts over. */
  storeRequests(reset?: boolean): Promise<StoreRequestCounts>;
  ratesStore: RatesStore;
  accounts: AccountsStore;
  demoKeys?: DemoKeys;
  ratesSource: string;
  /** The page's address, when the dashboard runs. */
  dashboardUrl?: string;
  cognito?: CognitoEmulator;
  close(): Promise<void>;
}

/**
 * A route's endpoint module, found by the registry's convention as its Lambda bundle finds it. The local deps
 * (a rates store and a clock) provide every dependency an endpoint declares.
 */
async function loadEndpoint(route: RouteId): Promise<EndpointModule<EndpointDeps>> {
  const { endpoint } = (await import(join(PROJECT_ROOT, endpointModule(route)))) as {
    endpoint?: EndpointModule<EndpointDeps>;
  };
  if (endpoint?.route !== route)
    throw new Error(`${endpointModule(route)} does not export the endpoint of route ${route}`);
  return endpoint;
}

async function loadDashboardEndpoint(route: DashboardRouteId): Promise<DashboardEndpointModule<DashboardDeps>> {
  const { endpoint } = (await import(join(PROJECT_ROOT, dashboardModule(route)))) as {
    endpoint?: DashboardEndpointModule<DashboardDeps>;
  };
  if (endpoint?.route !== route) throw new Error(`${dashboardModule(route)} does not export the endpoint of ${route}`);
  return endpoint;
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/**
 * How the local server spreads over threads: `store-thread` (the default) runs the embedded store on a worker and
 * everything else on this thread; `single` runs everything on this thread. On a 2-core machine under autocannon
 * (`npm run bench -- api`), the store thread serves 2.3 to 2.8 times what one thread does, and 1.1 to 1.25 times
 * what three threads did with the authorizer on one of its own, which also held 40 to 75 MiB more after a load run.
 */
export type LocalLayout = 'single' | 'store-thread';
export const DEFAULT_LAYOUT: LocalLayout = 'store-thread';

/** The embedded store, in this thread or on its own, as the rest of the service reaches it. */
interface OpenedStore {
  endpoint: string;
  transport: LocalRequestHandler;
  requests(reset: boolean): Promise<StoreRequestCounts>;
  close(): Promise<void>;
}

async function openStore(onThread: boolean, path: string | undefined): Promise<OpenedStore> {
  if (!onThread) {
    const store = await openEmbeddedStore(path ? { path } : {});
    return { ...store, requests: async (reset) => store.requests(reset) };
  }
  const thread = startStoreThread();
  const close = async () => {
    // The store closes its LevelDB files before its thread ends; a store that never started has none open.
    await thread.rpc.call('close').catch(() => undefined);
    await thread.stop();
  };
  try {
    const { endpoint } = await thread.rpc.call<StoreThreadAddress>('start', path ? { path } : {});
    const transport = new ThreadTransport(thread.rpc);
    return { endpoint, transport, requests: (reset) => thread.rpc.call('requests', reset), close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * The whole service on one machine: the local gateway with the endpoint handlers, the REQUEST authorizer, and the
 * embedded DynamoDB-compatible store (also on a loopback port, so the admin CLI can reach it while this runs), on
 * the threads `layout` names.
 */
export async function startLocalService(options: LocalServiceOptions = {}): Promise<LocalService> {
  const clock = options.clock ?? systemClock;
  const host = options.host ?? '127.0.0.1';
  const layout = options.layout ?? DEFAULT_LAYOUT;
  let server: Server | undefined;
  let store: OpenedStore | undefined;
  let cognito: CognitoEmulator | undefined;
  const endpointFile = options.dataDir ? join(options.dataDir, ENDPOINT_FILE) : undefined;
  try {
    let path: string | undefined;
    if (options.dataDir) {
      mkdirSync(options.dataDir, { recursive: true });
      path = join(options.dataDir, EMBEDDED_STORE_DIR);
      if (await storeIsLocked(path)) throw new Error(`the local store in ${path} is held by another process`);
    }
    store = await openStore(layout === 'store-thread', path);
    if (endpointFile) {
      // Written whole, then renamed: a reader never sees half a file.
      writeFileSync(`${endpointFile}.tmp`, `${JSON.stringify({ endpoint: store.endpoint })}\n`);
      renameSync(`${endpointFile}.tmp`, endpointFile);
    }
    const client = createDocumentClient(store.endpoint, store.transport);
    const names = localTableNames();
    await createTable(client, RATES_TABLE, names.rates);
    await createTable(client, ACCOUNTS_TABLE, names.accounts);

    const ratesStore = new RatesStore(client, names.rates);
    const ratesSource = options.loadRates
      ? await options.loadRates({ store: ratesStore, client, tableName: names.rates })
      : 'not loaded';
    const accounts = new AccountsStore(client, names.accounts, { clock, randomBytes: (n) => randomBytes(n) });
    const demoKeys = options.demoAccounts === false ? undefined : await ensureDemoAccounts(accounts, options.dataDir);

    const deps: EndpointDeps = { reader: new RateReader(ratesStore, clock), clock };
    const handlers = Object.fromEntries(
      await Promise.all(
        ROUTES.map(
          async (route): Promise<[RouteId, ProxyHandler]> => [
            route.id,
            apiHandler(route.id, (await loadEndpoint(route.id)).create(deps)),
          ],
        ),
      ),
    ) as Record<RouteId, ProxyHandler>;

    const authorizer = createLocalAuthorizer(client, {
      endpoint: store.endpoint,
      accountsTable: names.accounts,
      clock,
      ...(options.recordCacheTtlMs !== undefined ? { cacheTtlMs: options.recordCacheTtlMs } : {}),
    });
    /**
     * The account dashboard: the Cognito emulator, the dashboard API's handlers (the same modules as its Lambda
     * functions, with this process's stores) and the page. The page's config names the public API's URL, which
     * is known once the server listens; `setOrigin` fills it in then.
     */
    const startDashboard = async () => {
      cognito = await startCognitoEmulator({
        ...(options.dataDir ? { dataDir: options.dataDir } : {}),
        host,
        clock,
        ...(options.onVerificationCode ? { onCode: options.onVerificationCode } : {}),
      });
      const emulator = cognito;
      const deps: DashboardDeps = {
        accounts,
        usage: new UsageStore(createMeteringClient(client, store?.endpoint), names.accounts, { clock }),
        clock,
        contact: contactLink(options.upgradeContact),
        keyCreationLimit: KEY_CREATION_LIMIT,
      };
      const dashboardHandlers = Object.fromEntries(
        await Promise.all(
          DASHBOARD_ROUTES.map(
            async (route): Promise<[DashboardRouteId, ProxyHandler]> => [
              route.id,
              dashboardHandler(route.id, (await loadDashboardEndpoint(route.id)).create(deps)),
            ],
          ),
        ),
      ) as Record<DashboardRouteId, ProxyHandler>;
      const verifier = createTokenVerifier({
        issuer: emulator.issuer,
        clientId: emulator.clientId,
        jwksUrl: emulator.jwksUrl,
        clock,
      });
      const files = dashboardFiles(emulator.endpoint);
      let pages: ReadonlyMap<string, StaticPage> = files;
      return {
        handlers: dashboardHandlers,
        verifyToken: (authorization: string | undefined) => verifier.verifyToken(tokenOfHeader(authorization)),
        get pages() {
          return pages;
        },
        setOrigin(origin: string) {
          pages = withConfig(files, {
            cognito: {
              endpoint: emulator.endpoint,
              region: emulator.region,
              userPoolId: emulator.userPoolId,
              clientId: emulator.clientId,
            },
            apiBase: DASHBOARD_BASE_PATH,
            apiUrl: `${origin}/v1/`,
            contact: deps.contact,
          });
        },
      };
    };
    const port = options.port ?? 3000;
    const dashboard = options.dashboard === false ? undefined : await startDashboard();
    const gateway = createLocalGateway({
      handlers,
      ...(dashboard ? { dashboard } : {}),
      authorizer: (event) => authorizer.authorize(event),
      onError: (error, requestId) => logger.error('local gateway error', { requestId, error: error as Error }),
    });
    server = createServer((req, res) => {
      void gateway.listener(req, res);
    });
    server.on('clientError', gateway.clientError);
    server.keepAliveTimeout = 5_000;
    const bound = await listen(server, port, host);
    if (dashboard) dashboard.setOrigin(`http://${host}:${bound}`);
    const running = server;
    const opened = store;
    const emulator = cognito;
    return {
      url: `http://${host}:${bound}/v1/`,
      port: bound,
      ...(emulator ? { dashboardUrl: `http://${host}:${bound}/`, cognito: emulator } : {}),
      dynamoEndpoint: store.endpoint,
      client,
      storeRequests: (reset = false) => opened.requests(reset),
      ratesStore,
      accounts,
      ...(demoKeys ? { demoKeys } : {}),
      ratesSource,
      close: async () => {
        await new Promise<void>((resolve) => {
          running.close(() => resolve());
          running.closeAllConnections();
        });
        client.destroy();
        if (endpointFile) rmSync(endpointFile, { force: true });
        await emulator?.close();
        await opened.close();
      },
    };
  } catch (error) {
    server?.close();
    await cognito?.close().catch(() => undefined);
    if (endpointFile) rmSync(endpointFile, { force: true });
    await store?.close();
    throw error;
  }
}
