import { createRequire } from 'node:module';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../lib/bundling';

/**
 * classic-level's `Level` class as dynalite loads it (its own copy of `level`), for tests that reach beneath the
 * embedded store: the class group commit patches (local-server/group-commit.ts). `T` is the part a test uses.
 */
export function levelOfDynalite<T>(): T {
  const requireFromDynalite = createRequire(createRequire(join(PROJECT_ROOT, 'package.json')).resolve('dynalite'));
  return (requireFromDynalite('level') as { Level: T }).Level;
}
