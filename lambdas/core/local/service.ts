import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createAuthorizer } from '../auth/authorizer';
import { createAuthorizerObserver } from '../auth/observe';
import { type Clock, systemClock } from '../domain/dates';
import type { EndpointDeps } from '../endpoints/deps';
import { quotaEndpoint } from '../endpoints/quota';
import {
  currenciesEndpoint,
  enrichedEndpoint,
  historyEndpoint,
  latestEndpoint,
  pairEndpoint,
} from '../endpoints/rates';
import { apiHandler } from '../http/api-handler';
import type { RouteId } from '../http/routes';
import { logger } from '../observability';
import { RateReader } from '../service/rate-reader';
import { AccountsStore } from '../store/accounts-store';
import { createDocumentClient, createMeteringClient } from '../store/clients';
import { createTable } from '../store/create-tables';
import { RatesStore } from '../store/rates-store';
import { ACCOUNTS_TABLE, RATES_TABLE } from '../store/tables';
import { UsageStore } from '../store/usage-store';
import { type DemoKeys, ensureDemoAccounts } from './demo-accounts';
import { type RunningDynalite, startDynalite } from './dynalite-server';
import { createLocalGateway, type ProxyHandler } from './gateway';
import { InProcessTransport } from './in-process-transport';
import { EMBEDDED_STORE_DIR, ENDPOINT_FILE, localTableNames, storeIsLocked } from './local-store';

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
  /** TTL of the authorizer's key and account cache (the contract allows up to 60 s). */
  recordCacheTtlMs?: number;
}

export interface LocalService {
  url: string;
  port: number;
  dynamoEndpoint: string;
  client: DynamoDBDocumentClient;
  /** The admission writes' client (see `createMeteringClient`), on the same transport as `client`. */
  meteringClient: DynamoDBClient;
  ratesStore: RatesStore;
  accounts: AccountsStore;
  demoKeys?: DemoKeys;
  ratesSource: string;
  close(): Promise<void>;
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
 * The whole service on one machine: an embedded DynamoDB-compatible store on a loopback port (so the admin CLI
 * can reach it while this runs), the same handlers and authorizer as on AWS, and the local gateway in front.
 * The service's own client hands its signed requests to the store's listener in process: the socket round trip
 * to itself cost about a third of the CPU of a metered request.
 */
export async function startLocalService(options: LocalServiceOptions = {}): Promise<LocalService> {
  const clock = options.clock ?? systemClock;
  const host = options.host ?? '127.0.0.1';
  let dynalite: RunningDynalite | undefined;
  let server: Server | undefined;
  const endpointFile = options.dataDir ? join(options.dataDir, ENDPOINT_FILE) : undefined;
  try {
    let path: string | undefined;
    if (options.dataDir) {
      mkdirSync(options.dataDir, { recursive: true });
      path = join(options.dataDir, EMBEDDED_STORE_DIR);
      if (await storeIsLocked(path)) throw new Error(`the local store in ${path} is held by another process`);
    }
    dynalite = await startDynalite(path ? { path } : {});
    if (endpointFile) {
      // Written whole, then renamed: a reader never sees half a file.
      writeFileSync(`${endpointFile}.tmp`, `${JSON.stringify({ endpoint: dynalite.endpoint })}\n`);
      renameSync(`${endpointFile}.tmp`, endpointFile);
    }
    const client = createDocumentClient(dynalite.endpoint, new InProcessTransport(dynalite.listener));
    const metering = createMeteringClient(client, dynalite.endpoint);
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
    const handlers: Record<RouteId, ProxyHandler> = {
      latest: apiHandler('latest', latestEndpoint(deps)),
      pair: apiHandler('pair', pairEndpoint(deps)),
      history: apiHandler('history', historyEndpoint(deps)),
      currencies: apiHandler('currencies', currenciesEndpoint(deps)),
      enriched: apiHandler('enriched', enrichedEndpoint(deps)),
      quota: apiHandler('quota', quotaEndpoint(deps)),
    };
    const authorizer = createAuthorizer({
      keys: accounts,
      accounts,
      usage: new UsageStore(metering, names.accounts, { clock }),
      clock,
      observe: createAuthorizerObserver(() => clock().getTime()),
      ...(options.recordCacheTtlMs !== undefined ? { cacheTtlMs: options.recordCacheTtlMs } : {}),
    });
    const gateway = createLocalGateway({
      handlers,
      authorizer: (event) => authorizer.authorize(event),
      onError: (error, requestId) => logger.error('local gateway error', { requestId, error: error as Error }),
    });
    server = createServer((req, res) => {
      void gateway.listener(req, res);
    });
    server.on('clientError', gateway.clientError);
    server.keepAliveTimeout = 5_000;
    const port = await listen(server, options.port ?? 3000, host);
    const running = server;
    const store = dynalite;
    return {
      url: `http://${host}:${port}/v1/`,
      port,
      dynamoEndpoint: store.endpoint,
      client,
      meteringClient: metering,
      ratesStore,
      accounts,
      ...(demoKeys ? { demoKeys } : {}),
      ratesSource,
      close: async () => {
        await new Promise<void>((resolve) => {
          running.close(() => resolve());
          running.closeAllConnections();
        });
        metering.destroy();
        client.destroy();
        if (endpointFile) rmSync(endpointFile, { force: true });
        await store.close();
      },
    };
  } catch (error) {
    server?.close();
    if (endpointFile) rmSync(endpointFile, { force: true });
    await dynalite?.close();
    throw error;
  }
}
