import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const ROOT = join(__dirname, '..', '..');

/**
 * Starts the local service in a fresh Node process (jest's own module registry would hide what Node loaded) and
 * reports whether cognito-local's modules were loaded once it was ready, and whether it served a dashboard. The
 * script is a file: the store thread inherits Node's flags, and `--input-type` refuses a thread started from a file.
 */
async function startAndInspect(dashboard: boolean): Promise<{ cognitoLoaded: boolean; dashboardUrl: boolean }> {
  const script = `
    import { createRequire } from 'node:module';
    import { startLocalService } from ${JSON.stringify(join(ROOT, 'local-server', 'service.ts'))};
    const service = await startLocalService({ port: 0, dashboard: ${dashboard}, demoAccounts: false });
    const loaded = Object.keys(createRequire(import.meta.url).cache);
    console.log(JSON.stringify({
      cognitoLoaded: loaded.some((path) => path.includes('/node_modules/cognito-local/')),
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
    return JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as { cognitoLoaded: boolean; dashboardUrl: boolean };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the modules the local service loads', () => {
  it('loads the Cognito emulator only for a server that serves the dashboard', async () => {
    expect(await startAndInspect(false)).toEqual({ cognitoLoaded: false, dashboardUrl: false });
    expect(await startAndInspect(true)).toEqual({ cognitoLoaded: true, dashboardUrl: true });
  }, 60_000);
});
