/**
 * Which store the admin CLI works on. Never a store nobody serves unless told (`--stopped`), and never one created
 * silently, so an account cannot land in a store the server does not read.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ACCOUNTS_TABLE } from '../lambdas/core/store/tables';
import { createTable } from '../local-server/create-tables';
import { type RunningDynalite, startDynalite } from '../local-server/dynalite-server';
import { EMBEDDED_STORE_DIR, localTableNames, readEndpointFile, storeIsLocked } from '../local-server/local-store';
import { lockHolder, readLock, runningServers, type ServerRecord } from '../local-server/running-servers';
import { STOPPED_OPTION, type StoreTarget } from './args';

export const LOCAL_ACCOUNTS_TABLE_NAME = localTableNames().accounts;
export { EMBEDDED_STORE_DIR, ENDPOINT_FILE, endpointAnswers, readEndpointFile } from '../local-server/local-store';

/** The store cannot be used; the CLI reports the message as one line and exits with status 3. */
export class StoreUnavailableError extends Error {
  constructor(
    message: string,
    readonly code: string = 'store-unavailable',
  ) {
    super(message);
    this.name = 'StoreUnavailableError';
  }
}

/** Where a backup came from, as its header records it. */
export type StoreSource = { kind: 'local'; data_dir: string } | { kind: 'aws'; table: string; region: string };

export interface OpenedStore {
  /** For the accounts store: marshals plain values. */
  client: DynamoDBDocumentClient;
  /** The same connection for items as DynamoDB JSON (backup and restore). */
  raw: DynamoDBClient;
  tableName: string;
  /** Which store was used: a table on AWS, the running local server's, or the data directory's opened directly. */
  via: 'aws' | 'local-server' | 'embedded';
  /** The store in words, for messages: "the fxrates server running with /srv/.data (process 4242)". */
  description: string;
  source: StoreSource;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** How long the server's store may take to answer before it counts as not answering. */
  probeTimeoutMs?: number;
  /** With `--stopped`: create the store when the directory holds none (restore only). */
  createStore?: boolean;
}

/** The document client shares the raw client's connections; its own destroy() does nothing, the raw one's closes. */
function clientsFor(raw: DynamoDBClient): Pick<OpenedStore, 'client' | 'raw'> {
  return { raw, client: DynamoDBDocumentClient.from(raw, { marshallOptions: { removeUndefinedValues: true } }) };
}

/** A client for a local store: its endpoint, and the throwaway credentials every local store accepts. */
function localClient(endpoint: string, maxAttempts?: number): DynamoDBClient {
  return new DynamoDBClient({
    endpoint,
    region: process.env.AWS_REGION ?? 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    ...(maxAttempts ? { maxAttempts } : {}),
  });
}

/** Nothing that speaks DynamoDB may be a closed port, or another program on the port of a server that ended. */
export async function probeStore(endpoint: string, timeoutMs: number): Promise<'table' | 'no-table' | 'none'> {
  const client = localClient(endpoint, 1);
  try {
    await client.send(new DescribeTableCommand({ TableName: LOCAL_ACCOUNTS_TABLE_NAME }), {
      abortSignal: AbortSignal.timeout(timeoutMs),
    });
    return 'table';
  } catch (error) {
    return (error as { name?: string }).name === 'ResourceNotFoundException' ? 'no-table' : 'none';
  } finally {
    client.destroy();
  }
}

function serverLabel(server: ServerRecord): string {
  return server.apiUrl ? `${server.dataDir} (${server.apiUrl})` : `${server.dataDir} (process ${server.pid}, starting)`;
}

/** True when the data directory holds a store: the embedded store's own directory exists there. */
export function holdsStore(dataDir: string): boolean {
  return existsSync(join(dataDir, EMBEDDED_STORE_DIR));
}

/** Names the servers that do run, and how to point the CLI at one or at the stopped store on purpose. */
export function noServerMessage(dataDir: string, running: readonly ServerRecord[], hasStore: boolean): string {
  const others = running.filter((server) => server.dataDir !== dataDir);
  const head = hasStore
    ? `No fxrates server is running with the data directory ${dataDir}.`
    : `No fxrates server is running with the data directory ${dataDir}, which holds no store.`;
  const servers =
    others.length === 0
      ? 'No other fxrates server is running either.'
      : `Servers running now: ${others.map(serverLabel).join(', ')}.`;
  const stopped = `pass ${STOPPED_OPTION} to use the store in ${dataDir} while no server runs`;
  const ways =
    others.length === 0
      ? [
          `Start one with npm start (FXRATES_DATA_DIR=${dataDir})`,
          'point the CLI at another directory with --data-dir DIR or FXRATES_DATA_DIR',
        ]
      : ['Point the CLI at one with --data-dir DIR or FXRATES_DATA_DIR'];
  if (hasStore) ways.push(stopped);
  const last = ways.pop();
  const point = ways.length === 0 ? last : `${ways.join(', ')}, or ${last}`;
  return `${head} ${servers} ${point}.`;
}

/**
 * The endpoint in the live holder's lock, else the endpoint file when no lock says its writer has ended; one that
 * another running server's lock claims is that server's store, left behind by an ended one.
 */
async function openRunningStore(dataDir: string, timeoutMs: number): Promise<OpenedStore> {
  const holder = lockHolder(dataDir);
  const staleLock = !holder && readLock(dataDir) !== undefined;
  const candidates: string[] = [];
  if (holder?.storeEndpoint) candidates.push(holder.storeEndpoint);
  const advertised = readEndpointFile(dataDir);
  if (advertised && !staleLock && !candidates.includes(advertised)) candidates.push(advertised);
  const running = runningServers();
  for (const endpoint of candidates) {
    const claimedElsewhere = running.some((s) => s.dataDir !== dataDir && s.storeEndpoint === endpoint);
    if (claimedElsewhere && endpoint !== holder?.storeEndpoint) continue;
    const found = await probeStore(endpoint, timeoutMs);
    if (found === 'none') continue;
    const { client, raw } = clientsFor(localClient(endpoint));
    if (found === 'no-table') await createTable(client, ACCOUNTS_TABLE, LOCAL_ACCOUNTS_TABLE_NAME);
    const pid = holder ? ` (process ${holder.pid})` : '';
    return {
      client,
      raw,
      tableName: LOCAL_ACCOUNTS_TABLE_NAME,
      via: 'local-server',
      description: `the fxrates server running with ${dataDir}${pid}`,
      source: { kind: 'local', data_dir: dataDir },
      close: async () => raw.destroy(),
    };
  }
  if (holder) {
    const where = holder.storeEndpoint ? ` at ${holder.storeEndpoint}` : '';
    throw new StoreUnavailableError(
      `The fxrates server process ${holder.pid} on ${holder.hostname} holds the data directory ${dataDir}, but its store${where} does not answer; if it is still starting, try again in a moment.`,
      'server-not-answering',
    );
  }
  throw new StoreUnavailableError(noServerMessage(dataDir, running, holdsStore(dataDir)), 'no-server');
}

/** The data directory's store files, opened in this process: only while no server runs there. */
async function openStoppedStore(dataDir: string, createStore: boolean): Promise<OpenedStore> {
  const holder = lockHolder(dataDir);
  if (holder) {
    const serving = holder.apiUrl ? `, serving ${holder.apiUrl}` : '';
    throw new StoreUnavailableError(
      `The fxrates server process ${holder.pid} on ${holder.hostname} is running with the data directory ${dataDir}${serving}; drop ${STOPPED_OPTION} to work through it, or stop it first.`,
      'server-running',
    );
  }
  const path = join(dataDir, EMBEDDED_STORE_DIR);
  if (!existsSync(path)) {
    if (!createStore) {
      throw new StoreUnavailableError(
        `The data directory ${dataDir} holds no fxrates store (no ${EMBEDDED_STORE_DIR} in it); nothing was created. Check --data-dir or FXRATES_DATA_DIR.`,
        'no-store',
      );
    }
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  }
  if (await storeIsLocked(path)) {
    throw new StoreUnavailableError(
      `The store in ${path} is held by another process (an fxrates server that does not record itself in ${dataDir}?); drop ${STOPPED_OPTION} to work through a running server, or stop it first.`,
    );
  }
  let embedded: RunningDynalite | undefined = await startDynalite({ path });
  const { client, raw } = clientsFor(localClient(embedded.endpoint));
  const close = async () => {
    raw.destroy();
    const running = embedded;
    embedded = undefined;
    await running?.close();
  };
  try {
    await createTable(client, ACCOUNTS_TABLE, LOCAL_ACCOUNTS_TABLE_NAME);
  } catch (error) {
    await close();
    throw error;
  }
  return {
    client,
    raw,
    tableName: LOCAL_ACCOUNTS_TABLE_NAME,
    via: 'embedded',
    description: `the stopped store in ${dataDir}`,
    source: { kind: 'local', data_dir: dataDir },
    close,
  };
}

/** Opens the accounts table the invocation targets; the caller must `close()` it. */
export async function openStore(target: StoreTarget, options: OpenOptions = {}): Promise<OpenedStore> {
  if (target.kind === 'aws') {
    // No endpoint override and no local credentials: the SDK's default chain decides, as for any AWS tool.
    const { client, raw } = clientsFor(new DynamoDBClient({ region: target.region }));
    return {
      client,
      raw,
      tableName: target.tableName,
      via: 'aws',
      description: `the table ${target.tableName} in ${target.region}`,
      source: { kind: 'aws', table: target.tableName, region: target.region },
      close: async () => raw.destroy(),
    };
  }
  if (target.stopped) return openStoppedStore(target.dataDir, options.createStore ?? false);
  return openRunningStore(target.dataDir, options.probeTimeoutMs ?? 2000);
}
