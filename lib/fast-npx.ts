/**
 * A synthesis bundles each function with `npx --no-install esbuild`; lib/npx-bin/npx runs the project's own binary
 * without starting npm, which took about 10 s of a 26 s `npm run synth`. No CDK imports: the tests use it too.
 */
import { delimiter, join } from 'node:path';
import { PROJECT_ROOT } from './bundling';

export const FAST_NPX_DIR = join(PROJECT_ROOT, 'lib', 'npx-bin');

/** `path` with lib/npx-bin first, once, and the rest in its order. */
export function pathWithFastNpx(path: string | undefined): string {
  const rest = (path ?? '').split(delimiter).filter((dir) => dir !== '' && dir !== FAST_NPX_DIR);
  return [FAST_NPX_DIR, ...rest].join(delimiter);
}
