import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Table names of the local store; on AWS CDK names the tables and passes the names in. */
export function localTableNames(): { rates: string; accounts: string } {
  return { rates: 'fxrates-rates', accounts: 'fxrates-accounts' };
}

export function localDataDir(): string {
  return resolve(process.env.FXRATES_DATA_DIR ?? '.data');
}

/** The endpoint a running local server advertises for other processes (the admin CLI, backfill). */
export function runningEndpoint(dataDir: string): string | undefined {
  const file = join(dataDir, 'dynamodb-endpoint.json');
  if (!existsSync(file)) return undefined;
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { endpoint?: unknown };
    return typeof parsed.endpoint === 'string' ? parsed.endpoint : undefined;
  } catch {
    return undefined;
  }
}
