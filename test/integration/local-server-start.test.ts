/**
 * The local server starts the rates load, the demo accounts and the dashboard side by side (local-server/service.ts);
 * a failure of one must still leave nothing of the others behind.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { startLocalService } from '../../local-server/service';

const listeningServers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'TCPServerWrap').length;

describe('a start whose rates fail to load', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'fxrates-start-'));
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('fails with the load’s error and closes the dashboard’s emulator, the store and the port it started', async () => {
    const before = listeningServers();
    const dataDir = join(dir, 'data');
    await expect(
      startLocalService({
        dataDir,
        port: 0,
        // Fails at once, while the Cognito emulator and the page are still starting beside it.
        loadRates: async () => {
          throw new Error('the rates could not be loaded');
        },
      }),
    ).rejects.toThrow('the rates could not be loaded');
    // A part that finished starting after the failure was thrown would still be listening a moment later.
    await delay(500);
    expect(listeningServers()).toBe(before);
    // The data directory's lock and the store's files were released: the next start over it succeeds.
    const again = await startLocalService({ dataDir, port: 0, dashboard: false, demoAccounts: false });
    try {
      expect(again.ratesSource).toBe('not loaded');
    } finally {
      await again.close();
    }
    expect(listeningServers()).toBe(before);
  }, 60_000);
});
