import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod/mini';
import { createDocumentClient } from '../lambdas/core/store/clients';
import type { TableDefinition } from '../lambdas/core/store/tables';
import { createTable } from './create-tables';
import { DATA_DIR_ENV, DEFAULT_DATA_DIR } from './data-dir';
import type { RunningDynalite } from './dynalite-server';
import { isProcessAlive } from './running-servers';
import { StoreOpenError } from './startup-errors';
import { tryOpenStore } from './store-open';

/** Files the local server keeps in its data directory. */
export const ENDPOINT_FILE = 'dynamodb-endpoint.json';
export const EMBEDDED_STORE_DIR = 'dynalite';
/** The folder of the Cognito emulator's state (cognito-emulator.ts). */
export const COGNITO_DIR = 'cognito';

/** Table names of the local store; on AWS CDK names the tables and passes the names in. */
export function localTableNames(): { rates: string; accounts: string } {
  return { rates: 'fxrates-rates', accounts: 'fxrates-accounts' };
}

/** FXRATES_DATA_DIR, or `.data` when it is unset or empty (an empty one must not mean the current directory). */
export function localDataDir(): string {
  return resolve(process.env[DATA_DIR_ENV] || DEFAULT_DATA_DIR);
}

const EndpointFileSchema = z.object({
  endpoint: z.url({ protocol: /^https?$/ }),
  /** The server process that wrote it (absent in files of older versions). */
  pid: z.optional(z.number()),
});

/** What the local server writes to its endpoint file. */
export function endpointFileText(endpoint: string, pid = process.pid): string {
  return `${JSON.stringify({ endpoint, pid })}\n`;
}

/**
 * The endpoint a running local server advertises for other processes (the admin CLI, backfill); undefined when
 * the file is absent, not what the server writes, or left by a process that has ended (`kill -9`). The data
 * directory's lock (running-servers.ts) is what says whether a server holds the directory.
 */
export function readEndpointFile(dataDir: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(join(dataDir, ENDPOINT_FILE), 'utf8');
  } catch {
    return undefined;
  }
  try {
    const parsed = EndpointFileSchema.safeParse(JSON.parse(text));
    if (!parsed.success) return undefined;
    const { endpoint, pid } = parsed.data;
    return pid === undefined || pid === process.pid || isProcessAlive(pid) ? endpoint : undefined;
  } catch {
    return undefined;
  }
}

export const runningEndpoint = readEndpointFile;

/** Any HTTP answer counts: a crashed server leaves the file behind, and then nothing listens there. */
export async function endpointAnswers(endpoint: string, timeoutMs: number): Promise<boolean> {
  try {
    const response = await fetch(endpoint, { method: 'POST', signal: AbortSignal.timeout(timeoutMs) });
    await response.arrayBuffer();
    return true;
  } catch {
    return false;
  }
}

/**
 * LevelDB admits one process at a time, and dynalite crashes its host on a held lock instead of reporting it,
 * so the lock is tried first with dynalite's own LevelDB binding and released again before dynalite opens it.
 * Any other failure to open is a StoreOpenError naming the path and the cause.
 */
export async function storeIsLocked(path: string): Promise<boolean> {
  try {
    await tryOpenStore(path);
  } catch (error) {
    if (error instanceof StoreOpenError && error.code === 'LEVEL_LOCKED') return true;
    throw error;
  }
  return false;
}

export class LocalStoreLockedError extends Error {
  constructor(path: string) {
    super(`the local store in ${path} is held by another process (a local server that published no ${ENDPOINT_FILE}?)`);
    this.name = 'LocalStoreLockedError';
  }
}

export interface OpenedLocalTable {
  client: DynamoDBDocumentClient;
  /** The running local server's store, or the data directory opened directly. */
  via: 'local-server' | 'embedded';
  close(): Promise<void>;
}

/**
 * Opens one table of the local store for a tool (admin CLI, backfill): through the running server's published
 * endpoint when it answers, else by opening the data directory itself (refused while another process holds it).
 * The table is created when missing.
 */
export async function openLocalTable(
  dataDir: string,
  definition: TableDefinition,
  tableName: string,
  options: { probeTimeoutMs?: number } = {},
): Promise<OpenedLocalTable> {
  const advertised = readEndpointFile(dataDir);
  let embedded: RunningDynalite | undefined;
  let endpoint: string;
  if (advertised && (await endpointAnswers(advertised, options.probeTimeoutMs ?? 2000))) {
    endpoint = advertised;
  } else {
    const path = join(dataDir, EMBEDDED_STORE_DIR);
    mkdirSync(dataDir, { recursive: true });
    if (await storeIsLocked(path)) throw new LocalStoreLockedError(path);
    // Loaded here: the server imports this module for its names, and runs its own store on another thread.
    const { startDynalite } = await import('./dynalite-server');
    embedded = await startDynalite({ path });
    endpoint = embedded.endpoint;
  }
  const client = createDocumentClient(endpoint);
  const running = embedded;
  const close = async () => {
    client.destroy();
    await running?.close();
  };
  try {
    await createTable(client, definition, tableName);
  } catch (error) {
    await close();
    throw error;
  }
  return { client, via: running ? 'embedded' : 'local-server', close };
}
