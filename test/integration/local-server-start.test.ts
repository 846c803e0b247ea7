/**
 * A start whose rates fail to load must leave nothing it started behind: no listening port, no store, no lock.
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

  it('fails with the load’s error, leaves no port listening and the data directory free to start on', async () => {
    const before = listeningServers();
    const dataDir = join(dir, 'data');
    await expect(
      startLocalService({
        dataDir,
        port: 0,
        loadRates: async () => {
          throw new Error('the rates could not be loaded');
        },
      }),
    ).rejects.toThrow('the rates could not be loaded');
    // The HTTP port, bound before the store opened, would still be listening if the failed start left it open.
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
