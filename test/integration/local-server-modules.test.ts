import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { LocalServiceOptions } from '../../local-server/service';

const ROOT = join(__dirname, '..', '..');

interface Loaded {
  /** cognito-local's modules, on the service's own thread. */
  cognito: boolean;
  /** dynalite's, on the same thread (the store thread loads its own). */
  dynalite: boolean;
  dashboardUrl: boolean;
}

/**
 * Starts the local service in a fresh Node process (jest's own module registry would hide what Node loaded) and
 * reports which packages its thread had loaded once it was ready. The script is a file: the store thread inherits
 * Node's flags, and `--input-type` refuses a thread started from a file.
 */
async function startAndInspect(options: Pick<LocalServiceOptions, 'dashboard' | 'layout'>): Promise<Loaded> {
  const script = `
    import { createRequire } from 'node:module';
    import { startLocalService } from ${JSON.stringify(join(ROOT, 'local-server', 'service.ts'))};
    const service = await startLocalService({ port: 0, demoAccounts: false, ...${JSON.stringify(options)} });
    const loaded = Object.keys(createRequire(import.meta.url).cache);
    const has = (name) => loaded.some((path) => path.includes('/node_modules/' + name + '/'));
    console.log(JSON.stringify({
      cognito: has('cognito-local'),
      dynalite: has('dynalite'),
      dashboardUrl: service.dashboardUrl !== undefined,
    }));
    await service.close();`;
  const dir = mkdtempSync(join(tmpdir(), 'fxrates-modules-'));
  try {
    const file = join(dir, 'start.mts');
    writeFileSync(file, script);
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', file], {
      cwd: ROOT,
      env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    });
    return JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as Loaded;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the modules the local service loads on its own thread', () => {
  let plain: Loaded;
  let full: Loaded;
  beforeAll(async () => {
    [plain, full] = await Promise.all([
      startAndInspect({ dashboard: false }),
      startAndInspect({ dashboard: true, layout: 'single' }),
    ]);
  }, 60_000);

  it('loads the Cognito emulator only for a server that serves the dashboard', () => {
    expect(plain).toMatchObject({ cognito: false, dashboardUrl: false });
    expect(full).toMatchObject({ cognito: true, dashboardUrl: true });
  });

  it('loads dynalite only where the store runs: on the store thread by default, on its own when single', () => {
    expect(plain.dynalite).toBe(false);
    expect(full.dynalite).toBe(true);
  });
});
