import { execFileSync, spawnSync } from 'node:child_process';
import { delimiter, join } from 'node:path';
import { PROJECT_ROOT } from '../../lib/bundling';
import { FAST_NPX_DIR, pathWithFastNpx } from '../../lib/fast-npx';

const SHIM = join(FAST_NPX_DIR, 'npx');
/** The PATH a synthesis's bundling commands see: bin/fxrates.ts's, from this process's. */
const synthPath = () => pathWithFastNpx(process.env.PATH);

function runShim(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(SHIM, args, {
    cwd: PROJECT_ROOT,
    env: { ...process.env, PATH: synthPath() },
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { status: result.status, stdout: result.stdout.trim(), stderr: result.stderr.trim() };
}

describe('the npx a synthesis finds first', () => {
  it('puts lib/npx-bin first on the PATH once, and keeps the rest in its order', () => {
    expect(pathWithFastNpx(['/a', '/b'].join(delimiter))).toBe([FAST_NPX_DIR, '/a', '/b'].join(delimiter));
    const once = pathWithFastNpx(['/a', FAST_NPX_DIR, '/b'].join(delimiter));
    expect(pathWithFastNpx(once)).toBe([FAST_NPX_DIR, '/a', '/b'].join(delimiter));
    expect(pathWithFastNpx(undefined)).toBe(FAST_NPX_DIR);
    expect(pathWithFastNpx('')).toBe(FAST_NPX_DIR);
  });

  it("runs the project's esbuild for CDK's `--no-install esbuild`, with its arguments", () => {
    const { version } = require('esbuild/package.json') as { version: string };
    expect(runShim(['--no-install', 'esbuild', '--version'])).toEqual({ status: 0, stdout: version, stderr: '' });
    const built = runShim(['--no-install', 'esbuild', '--bundle', '--minify', 'lambdas/core/domain/text.ts']);
    expect(built.status).toBe(0);
    expect(built.stdout.length).toBeGreaterThan(0);
  });

  it("hands any other call to npm's own npx, found past itself on the PATH", () => {
    const npmVersion = execFileSync('npm', ['--version'], { encoding: 'utf8' }).trim();
    // npx --version is npm's version: the call reached npm, and did not come back to this script.
    expect(runShim(['--version'])).toMatchObject({ status: 0, stdout: npmVersion });
  });
});
