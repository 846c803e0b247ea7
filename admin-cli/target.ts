import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ACCOUNTS_TABLE } from '../lambdas/core/store/tables';
import { LocalStoreLockedError, localTableNames, openLocalTable } from '../local-server/local-store';
import type { StoreTarget } from './args';

/** The local server's table name. */
export const LOCAL_ACCOUNTS_TABLE_NAME = localTableNames().accounts;
export { EMBEDDED_STORE_DIR, ENDPOINT_FILE, endpointAnswers, readEndpointFile } from '../local-server/local-store';

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
  try {
    const opened = await openLocalTable(target.dataDir, ACCOUNTS_TABLE, LOCAL_ACCOUNTS_TABLE_NAME, options);
    return { ...opened, tableName: LOCAL_ACCOUNTS_TABLE_NAME };
  } catch (error) {
    if (error instanceof LocalStoreLockedError) throw new StoreUnavailableError(error.message);
    throw error;
  }
}
