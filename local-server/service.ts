import { randomBytes, randomUUID } from 'node:crypto';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join, resolve } from 'node:path';
import type { Duplex } from 'node:stream';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { contactLink, type DashboardDeps, KEY_CREATION_LIMIT } from '../lambdas/core/dashboard/deps';
import type { DashboardEndpointModule } from '../lambdas/core/dashboard/endpoint';
import { type Clock, systemClock } from '../lambdas/core/domain/dates';
import { ApiError } from '../lambdas/core/domain/errors';
import type { EndpointDeps } from '../lambdas/core/endpoints/deps';
import type { EndpointModule } from '../lambdas/core/endpoints/endpoint';
import { apiHandler } from '../lambdas/core/http/api-handler';
import { dashboardHandler } from '../lambdas/core/http/dashboard-handler';
import { DASHBOARD_BASE_PATH, DASHBOARD_ROUTES, type DashboardRouteId } from '../lambdas/core/http/dashboard-routes';
import { errorResponse } from '../lambdas/core/http/responses';
import { ROUTES, type RouteId } from '../lambdas/core/http/routes';
import { logger } from '../lambdas/core/observability';
import { RateReader } from '../lambdas/core/service/rate-reader';
import { AccountsStore } from '../lambdas/core/store/accounts-store';
import { createDocumentClient, createMeteringClient } from '../lambdas/core/store/clients';
import { RatesStore } from '../lambdas/core/store/rates-store';
import { ACCOUNTS_TABLE, RATES_TABLE } from '../lambdas/core/store/tables';
import { UsageStore } from '../lambdas/core/store/usage-store';
import { dashboardModule, endpointModule } from '../lib/bundling';
import { projectModule } from './built';
import type { CognitoEmulator, VerificationCode } from './cognito-emulator';
import { createTokenVerifier, tokenOfHeader } from './cognito-tokens';
import { createTable } from './create-tables';
import { dashboardFiles, withConfig } from './dashboard-site';
import { DEMO_KEYS_FILE, type DemoKeys, ensureDemoAccounts, writeDemoKeys } from './demo-accounts';
import type { StoreRequestCounts } from './embedded-store';
import {
  attachLocalGateway,
  createLocalGateway,
  type LocalDashboardOptions,
  type LocalGateway,
  MAX_REQUEST_HEADERS,
  type ProxyHandler,
  type StaticPage,
} from './gateway';
import type { LocalRequestHandler } from './in-process-transport';
import { listen } from './listen';
import { createLocalAuthorizer, type LocalAuthorizerOptions } from './local-authorizer';
import { COGNITO_DIR, EMBEDDED_STORE_DIR, ENDPOINT_FILE, endpointFileText, localTableNames } from './local-store';
import { makePrivateDir, tightenedNotice, tightenPermissions } from './private-dir';
import { acquireDataDir, DataDirInUseError, type HeldDataDir, LOCK_FILE, runningServers } from './running-servers';
import { DataDirError, listenError, urlHost } from './startup-errors';
import { sendStoreCalls } from './store-calls';
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
  /** Told what start-up changed or found that the user should know (permissions tightened, an unfinished write). */
  onNotice?: (message: string) => void;
  /** Wraps the authorizer's transport to the store (tests: a store that is slow or down for the authorizer). */
  authorizerTransport?: LocalAuthorizerOptions['wrapTransport'];
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
  const { endpoint } = (await import(projectModule(endpointModule(route)))) as {
    endpoint?: EndpointModule<EndpointDeps>;
  };
  if (endpoint?.route !== route)
    throw new Error(`${endpointModule(route)} does not export the endpoint of route ${route}`);
  return endpoint;
}

async function loadDashboardEndpoint(route: DashboardRouteId): Promise<DashboardEndpointModule<DashboardDeps>> {
  const { endpoint } = (await import(projectModule(dashboardModule(route)))) as {
    endpoint?: DashboardEndpointModule<DashboardDeps>;
  };
  if (endpoint?.route !== route) throw new Error(`${dashboardModule(route)} does not export the endpoint of ${route}`);
  return endpoint;
}

/** What the local server keeps in its data directory (and the temporary files it writes them through). */
const OWN_ENTRIES = [EMBEDDED_STORE_DIR, COGNITO_DIR, DEMO_KEYS_FILE, ENDPOINT_FILE, LOCK_FILE];
const isOwnEntry = (name: string) => OWN_ENTRIES.some((own) => name === own || name.startsWith(`${own}.`));

/** Names the fxrates server known to listen on `port`, for the port-in-use message. */
function fxratesServerOn(port: number): string | undefined {
  const server = runningServers().find((running) => {
    try {
      return running.apiUrl !== undefined && Number(new URL(running.apiUrl).port) === port;
    } catch {
      return false;
    }
  });
  return server && `by the fxrates server of process ${server.pid}, data directory ${server.dataDir}`;
}

/** The answer to a request that arrives while the server is still starting: 503 in the API's envelope. */
function startingUp(res: ServerResponse): void {
  const reply = errorResponse(new ApiError('service-unavailable', 'The server is starting; retry in a moment.'));
  res.writeHead(reply.statusCode, {
    ...reply.headers,
    'Retry-After': '1',
    'X-Request-Id': randomUUID(),
    'Content-Length': Buffer.byteLength(reply.body),
  });
  res.end(reply.body);
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
  /** What reading the store's files found that LevelDB ignores (see store-integrity.ts). */
  notes: string[];
  requests(reset: boolean): Promise<StoreRequestCounts>;
  close(): Promise<void>;
}

async function openStore(onThread: boolean, path: string | undefined): Promise<OpenedStore> {
  if (!onThread) {
    // dynalite and LevelDB's addon load only where the store runs: on its thread in the default layout.
    const { openEmbeddedStore } = await import('./embedded-store');
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
    const { endpoint, notes } = await thread.rpc.call<StoreThreadAddress>('start', path ? { path } : {});
    const transport = new ThreadTransport(thread.rpc);
    return { endpoint, transport, notes, requests: (reset) => thread.rpc.call('requests', reset), close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Makes the data directory (0700), locks it for this process and tightens its permissions; the store's path. */
function openDataDir(dataDir: string, notice: (message: string) => void): { held: HeldDataDir; path: string } {
  try {
    makePrivateDir(dataDir);
  } catch (error) {
    throw new DataDirError(dataDir, error);
  }
  let held: HeldDataDir;
  try {
    held = acquireDataDir(dataDir);
  } catch (error) {
    if (error instanceof DataDirInUseError) throw error;
    throw new DataDirError(dataDir, error);
  }
  const tightened = tightenedNotice(dataDir, tightenPermissions(dataDir, isOwnEntry));
  if (tightened) notice(tightened);
  return { held, path: join(dataDir, EMBEDDED_STORE_DIR) };
}

/** The HTTP server, bound and answering 503 until `attach` hands it to the gateway. */
interface BoundServer {
  http: Server;
  port: number;
  origin: string;
  attach(gateway: LocalGateway): void;
}

/**
 * Binds the port first, so that one in use is reported before any data is read. Until the service is ready, the
 * server answers 503 (and lets Node answer what its parser refuses); `attach` then hands it to the gateway.
 * `started` receives the server as soon as it exists, so that a failed start can close it.
 */
async function bindPort(port: number, host: string, started: (http: Server) => void): Promise<BoundServer> {
  const http = createServer();
  started(http);
  http.maxHeadersCount = MAX_REQUEST_HEADERS + 1;
  const whileStarting = (_req: IncomingMessage, res: ServerResponse) => startingUp(res);
  const clientErrorWhileStarting = (_error: NodeJS.ErrnoException, socket: Duplex) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  };
  http.on('request', whileStarting);
  http.on('clientError', clientErrorWhileStarting);
  http.keepAliveTimeout = 5_000;
  let bound: number;
  try {
    bound = await listen(http, port, host);
  } catch (error) {
    throw listenError(error, port, host, fxratesServerOn(port));
  }
  return {
    http,
    port: bound,
    origin: `http://${urlHost(host)}:${bound}`,
    attach: (gateway) => {
      http.off('request', whileStarting);
      http.off('clientError', clientErrorWhileStarting);
      attachLocalGateway(http, gateway);
    },
  };
}

/** Writes the store's endpoint file whole, then renames it: a reader never sees half a file. */
function writeEndpointFile(file: string, endpoint: string): void {
  writeFileSync(`${file}.tmp`, endpointFileText(endpoint), { mode: 0o600 });
  renameSync(`${file}.tmp`, file);
}

/** Every route's handler: its endpoint module (as its Lambda bundle finds it) with the local deps. */
async function apiHandlers(deps: EndpointDeps): Promise<Record<RouteId, ProxyHandler>> {
  return Object.fromEntries(
    await Promise.all(
      ROUTES.map(
        async (route): Promise<[RouteId, ProxyHandler]> => [
          route.id,
          apiHandler(route.id, (await loadEndpoint(route.id)).create(deps)),
        ],
      ),
    ),
  ) as Record<RouteId, ProxyHandler>;
}

type LocalDashboard = LocalDashboardOptions & {
  setOrigin(origin: string): void;
};

interface DashboardInput {
  emulator: CognitoEmulator;
  accounts: AccountsStore;
  client: DynamoDBDocumentClient;
  storeEndpoint: string;
  accountsTable: string;
  clock: Clock;
  upgradeContact: string | undefined;
}

/**
 * The account dashboard: the dashboard API's handlers (the same modules as its Lambda functions, with this
 * process's stores), the Cognito emulator's token check, and the page. The page's config names the public API's
 * URL, which is known once the server listens; `setOrigin` fills it in then.
 */
async function localDashboard(input: DashboardInput): Promise<LocalDashboard> {
  const { emulator, clock } = input;
  const deps: DashboardDeps = {
    accounts: input.accounts,
    usage: new UsageStore(
      sendStoreCalls(createMeteringClient(input.client, input.storeEndpoint)),
      input.accountsTable,
      { clock },
    ),
    clock,
    contact: contactLink(input.upgradeContact),
    keyCreationLimit: KEY_CREATION_LIMIT,
  };
  const handlers = Object.fromEntries(
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
    handlers,
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
}

/** What a start has opened so far, in the order it opens them; `close` closes them in reverse. */
class StartedParts {
  server: Server | undefined;
  store: OpenedStore | undefined;
  cognito: CognitoEmulator | undefined;
  held: HeldDataDir | undefined;
  endpointFile: string | undefined;
  client: DynamoDBDocumentClient | undefined;

  /**
   * Stops the server first (its connections too), then the rest; the data directory is released last. After a
   * failed start nothing waits for the server, and no part that fails to close keeps the others open.
   */
  async close(afterFailure = false): Promise<void> {
    const server = this.server;
    const closed = server ? new Promise<void>((resolve) => server.close(() => resolve())) : undefined;
    server?.closeAllConnections();
    if (!afterFailure) await closed;
    const settle = (closing: Promise<void> | undefined) => (afterFailure ? closing?.catch(() => undefined) : closing);
    this.client?.destroy();
    if (this.endpointFile) rmSync(this.endpointFile, { force: true });
    await settle(this.cognito?.close());
    await settle(this.store?.close());
    this.held?.release();
  }
}

/**
 * The whole service on one machine: the local gateway with the endpoint handlers, the REQUEST authorizer, and the
 * embedded DynamoDB-compatible store (also on a loopback port, so the admin CLI can reach it while this runs), on
 * the threads `layout` names.
 *
 * With a data directory, start-up goes in this order, so that each way it can fail does so before anything is
 * changed that a later step would need: the directory is made (0700) and locked for this process (a second server
 * is refused, naming the holder), its permissions tightened; the HTTP port is bound (a port in use fails here,
 * before any data is read); the store's files are checked and opened (damage or an unreadable store is refused
 * before LevelDB writes anything); then tables, rates, demo accounts and the dashboard. Requests that reach the
 * port before that ends get 503 service-unavailable with Retry-After: 1. The demo keys file is written last, once
 * the server answers requests.
 */
export async function startLocalService(options: LocalServiceOptions = {}): Promise<LocalService> {
  const parts = new StartedParts();
  try {
    return await startParts(options, parts);
  } catch (error) {
    await parts.close(true);
    throw error;
  }
}

async function startParts(options: LocalServiceOptions, parts: StartedParts): Promise<LocalService> {
  const clock = options.clock ?? systemClock;
  const host = options.host ?? '127.0.0.1';
  const notice = options.onNotice ?? (() => undefined);
  const dataDir = options.dataDir === undefined ? undefined : resolve(options.dataDir);
  let path: string | undefined;
  if (dataDir) {
    const opened = openDataDir(dataDir, notice);
    parts.held = opened.held;
    path = opened.path;
  }
  const server = await bindPort(options.port ?? 3000, host, (http) => {
    parts.server = http;
  });

  const opening = openStore((options.layout ?? DEFAULT_LAYOUT) === 'store-thread', path);
  // The Cognito emulator's modules (cognito-local and Express, about 0.2 s to load) load while the store opens, on
  // its thread (started by now) in the default layout; a server without the dashboard never loads them.
  const cognitoModule = options.dashboard === false ? undefined : import('./cognito-emulator');
  cognitoModule?.catch(() => undefined);
  const store = await opening;
  parts.store = store;
  for (const note of store.notes) {
    notice(`The local store was not closed cleanly: ${note}; LevelDB skips that record, which was never whole.`);
  }
  if (dataDir) {
    parts.endpointFile = join(dataDir, ENDPOINT_FILE);
    writeEndpointFile(parts.endpointFile, store.endpoint);
  }
  parts.held?.update({ storeEndpoint: store.endpoint });
  const client = sendStoreCalls(createDocumentClient(store.endpoint, store.transport));
  parts.client = client;
  const names = localTableNames();
  await createTable(client, RATES_TABLE, names.rates);
  await createTable(client, ACCOUNTS_TABLE, names.accounts);

  const ratesStore = new RatesStore(client, names.rates);
  const ratesSource = options.loadRates
    ? await options.loadRates({ store: ratesStore, client, tableName: names.rates })
    : 'not loaded';
  const accounts = new AccountsStore(client, names.accounts, {
    clock,
    randomBytes: (n) => randomBytes(n),
  });
  const demoKeys = options.demoAccounts === false ? undefined : await ensureDemoAccounts(accounts, dataDir);
  const handlers = await apiHandlers({ reader: new RateReader(ratesStore, clock), clock });
  const authorizer = createLocalAuthorizer(client, {
    endpoint: store.endpoint,
    accountsTable: names.accounts,
    clock,
    ...(options.recordCacheTtlMs !== undefined ? { cacheTtlMs: options.recordCacheTtlMs } : {}),
    ...(options.authorizerTransport ? { wrapTransport: options.authorizerTransport } : {}),
  });
  let dashboard: LocalDashboard | undefined;
  if (cognitoModule) {
    const { startCognitoEmulator } = await cognitoModule;
    parts.cognito = await startCognitoEmulator({
      ...(dataDir ? { dataDir } : {}),
      host,
      clock,
      ...(options.onVerificationCode ? { onCode: options.onVerificationCode } : {}),
    });
    dashboard = await localDashboard({
      emulator: parts.cognito,
      accounts,
      client,
      storeEndpoint: store.endpoint,
      accountsTable: names.accounts,
      clock,
      upgradeContact: options.upgradeContact,
    });
    dashboard.setOrigin(server.origin);
  }
  server.attach(
    createLocalGateway({
      handlers,
      ...(dashboard ? { dashboard } : {}),
      authorizer: (event) => authorizer.authorize(event),
      onError: (error, requestId) => logger.error('local gateway error', { requestId, error: error as Error }),
    }),
  );
  parts.held?.update({ apiUrl: `${server.origin}/v1/` });
  if (dataDir && demoKeys) writeDemoKeys(dataDir, demoKeys);
  const emulator = parts.cognito;
  return {
    url: `${server.origin}/v1/`,
    port: server.port,
    ...(emulator ? { dashboardUrl: `${server.origin}/`, cognito: emulator } : {}),
    dynamoEndpoint: store.endpoint,
    client,
    storeRequests: (reset = false) => store.requests(reset),
    ratesStore,
    accounts,
    ...(demoKeys ? { demoKeys } : {}),
    ratesSource,
    close: () => parts.close(),
  };
}
