import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { type RunningDynalite, startDynalite } from '../local/dynalite-server';
import { createDocumentClient } from '../store/clients';
import { createTable } from '../store/create-tables';
import { ACCOUNTS_TABLE } from '../store/tables';
import type { StoreTarget } from './args';

/** The local server's table name and the files it keeps in the data directory. */
export const LOCAL_ACCOUNTS_TABLE_NAME = 'fxrates-accounts';
export const ENDPOINT_FILE = 'dynamodb-endpoint.json';
export const EMBEDDED_STORE_DIR = 'dynalite';

const EndpointFileSchema = z.object({ endpoint: z.url({ protocol: /^https?$/ }) });

/** The store cannot be opened; the CLI reports the message as one line and exits with status 3. */
export class StoreUnavailableError extends Error {
  readonly code = 'store-unavailable';
  constructor(message: string) {
    super(message);
    this.name = 'StoreUnavailableError';
  }
}

export interface OpenedStore {
  client: DynamoDBDocumentClient;
  tableName: string;
  /** Which store was used: a table on AWS, the running local server, or the data directory opened directly. */
  via: 'aws' | 'local-server' | 'embedded';
  close(): Promise<void>;
}

/** The endpoint the local server published, or undefined when the file is absent or not what the server writes. */
export function readEndpointFile(dataDir: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(join(dataDir, ENDPOINT_FILE), 'utf8');
  } catch {
    return undefined;
  }
  try {
    const parsed = EndpointFileSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data.endpoint : undefined;
  } catch {
    return undefined;
  }
}

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

interface LevelDatabase {
  open(): Promise<void>;
  close(): Promise<void>;
}

/**
 * LevelDB admits one process at a time, and dynalite crashes its host on a held lock instead of reporting it,
 * so the lock is tried first with dynalite's own LevelDB binding and released again before dynalite opens it.
 */
async function assertNotLocked(path: string): Promise<void> {
  const requireFromDynalite = createRequire(require.resolve('dynalite'));
  const { Level } = requireFromDynalite('level') as { Level: new (path: string) => LevelDatabase };
  const db = new Level(path);
  try {
    await db.open();
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    if (cause?.code === 'LEVEL_LOCKED') {
      throw new StoreUnavailableError(
        `the local store in ${path} is held by another process (a local server that published no ${ENDPOINT_FILE}?)`,
      );
    }
    throw error;
  }
  await db.close();
}

async function openEmbedded(dataDir: string): Promise<OpenedStore> {
  const path = join(dataDir, EMBEDDED_STORE_DIR);
  mkdirSync(dataDir, { recursive: true });
  await assertNotLocked(path);
  const dynalite: RunningDynalite = await startDynalite({ path });
  const client = createDocumentClient(dynalite.endpoint);
  try {
    await createTable(client, ACCOUNTS_TABLE, LOCAL_ACCOUNTS_TABLE_NAME);
  } catch (error) {
    client.destroy();
    await dynalite.close();
    throw error;
  }
  return {
    client,
    tableName: LOCAL_ACCOUNTS_TABLE_NAME,
    via: 'embedded',
    close: async () => {
      client.destroy();
      await dynalite.close();
    },
  };
}

export interface OpenOptions {
  /** How long a published endpoint may take to answer before the data directory is opened directly. */
  probeTimeoutMs?: number;
}

/** Opens the accounts table the invocation targets; the caller must `close()` it. */
export async function openStore(target: StoreTarget, options: OpenOptions = {}): Promise<OpenedStore> {
  if (target.kind === 'aws') {
    // No endpoint override and no local credentials: the SDK's default chain decides, as for any AWS tool.
    const client = DynamoDBDocumentClient.from(new DynamoDBClient({ region: target.region }), {
      marshallOptions: { removeUndefinedValues: true },
    });
    return { client, tableName: target.tableName, via: 'aws', close: async () => client.destroy() };
  }
  const endpoint = readEndpointFile(target.dataDir);
  if (endpoint && (await endpointAnswers(endpoint, options.probeTimeoutMs ?? 2000))) {
    const client = createDocumentClient(endpoint);
    try {
      // The server creates the table at start; creating it here too only matters if it is still starting.
      await createTable(client, ACCOUNTS_TABLE, LOCAL_ACCOUNTS_TABLE_NAME);
    } catch (error) {
      client.destroy();
      throw error;
    }
    return {
      client,
      tableName: LOCAL_ACCOUNTS_TABLE_NAME,
      via: 'local-server',
      close: async () => client.destroy(),
    };
  }
  return openEmbedded(target.dataDir);
}
