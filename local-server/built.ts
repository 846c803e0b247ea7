/**
 * Where the server's own modules are when it runs from the JavaScript `npm start` builds (bin/built.mjs), rather
 * than from the TypeScript sources under a loader (tests, `node --import tsx bin/serve.ts`).
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PROJECT_ROOT } from '../lib/bundling';

/** The global under which bin/built.mjs leaves the directory it built into. */
const BUILT_DIR = Symbol.for('fxrates.builtDir');

/** The build's directory, when this process runs the built server. */
export function builtDir(): string | undefined {
  return (globalThis as { [BUILT_DIR]?: string })[BUILT_DIR];
}

/** The module to import for a source file named relative to the repository: its built twin when there is one. */
export function projectModule(relative: string): string {
  const built = builtDir();
  return built ? pathToFileURL(join(built, relative.replace(/\.ts$/, '.js'))).href : join(PROJECT_ROOT, relative);
}
