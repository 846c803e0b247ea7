/**
 * Gets the embedded store's directory ready for dynalite: made (0700) when new, its files read whole first
 * (store-integrity.ts), then opened once with dynalite's own LevelDB binding and closed again.
 *
 * The trial open is needed because dynalite opens LevelDB lazily and, when that fails, ends its host process with
 * an uncaught "Database is not open" at the first request. Opened here, the failure is an error with a cause chain
 * (LevelDB's "Database failed to open" says nothing; its cause names the file and why), which becomes one
 * StoreOpenError naming the path and the cause.
 */
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { StoreOpenError } from './startup-errors';
import { assertStoreReadable, type StoreCheck } from './store-integrity';

interface LevelDatabase {
  open(): Promise<void>;
  close(): Promise<void>;
}

function levelOfDynalite(): new (path: string) => LevelDatabase {
  const requireFromDynalite = createRequire(createRequire(import.meta.url).resolve('dynalite'));
  return (requireFromDynalite('level') as { Level: new (path: string) => LevelDatabase }).Level;
}

/** Opens the LevelDB store at `path` and closes it again; throws StoreOpenError (code LEVEL_LOCKED when held). */
export async function tryOpenStore(path: string, dataDir = dirname(path)): Promise<void> {
  const Level = levelOfDynalite();
  const db = new Level(path);
  try {
    await db.open();
  } catch (error) {
    throw new StoreOpenError(path, dataDir, error);
  }
  await db.close();
}

/**
 * Makes the store directory when missing (0700), checks its files (StoreDamagedError when damaged, before LevelDB
 * touches anything) and that LevelDB opens it (StoreOpenError). Returns what the check read.
 */
export async function prepareStore(path: string, dataDir = dirname(path)): Promise<StoreCheck> {
  let check: StoreCheck;
  try {
    mkdirSync(path, { recursive: true, mode: 0o700 });
    check = assertStoreReadable(path, dataDir);
  } catch (error) {
    if (error instanceof Error && error.name === 'StoreDamagedError') throw error;
    throw new StoreOpenError(path, dataDir, error);
  }
  await tryOpenStore(path, dataDir);
  return check;
}
