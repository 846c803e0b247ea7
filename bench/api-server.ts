/**
 * The local server in a process of its own, for the API bench: its memory is then the server's alone, as under
 * `npm start`, which runs with the same TypeScript loader. Started by `fork` with one JSON argument
 * (`ApiServerOptions`); it answers the parent's messages (`ApiServerRequest`) until told to close.
 */
import type { LocalLayout } from '../local-server/service';

export interface ApiServerOptions {
  layout: LocalLayout;
  /** LevelDB data directory; in memory without it. */
  dataDir?: string;
  /** `test-windows`: the tests' windows of the bundled data; `bundled`: all of it, as an offline `npm start`. */
  rates: 'test-windows' | 'bundled';
}

export type Memory = NodeJS.MemoryUsage;

export type ApiServerRequest = { type: 'requests'; reset: boolean } | { type: 'memory' } | { type: 'close' };

export type ApiServerMessage =
  | {
      type: 'ready';
      url: string;
      key: string;
      /** At boot (Node and the TypeScript loader), once the modules are loaded, once the service is ready. */
      memory: { boot: Memory; modules: Memory; started: Memory };
    }
  /** The store's requests by operation, and this process's CPU time in microseconds, since the last reset. */
  | { type: 'requests'; counts: Record<string, number>; cpuMicros: number }
  | { type: 'memory'; memory: Memory };

function send(message: ApiServerMessage): void {
  process.send?.(message);
}

async function main(): Promise<void> {
  const boot = process.memoryUsage();
  const options = JSON.parse(process.argv[2] ?? '{}') as ApiServerOptions;
  // Imported here rather than above, so that `boot` is the memory of Node and the TypeScript loader alone.
  const { formatDay } = await import('../lambdas/core/domain/dates');
  const { loadRatesForLocal } = await import('../local-server/load-rates');
  const { startLocalService } = await import('../local-server/service');
  const { loadBundledRates } = await import('../test/support/bundled-rates');
  const modules = process.memoryUsage();
  const service = await startLocalService({
    port: 0,
    layout: options.layout,
    demoAccounts: false,
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    loadRates:
      options.rates === 'bundled'
        ? async ({ client, tableName }) => {
            const loaded = await loadRatesForLocal({ client, tableName, live: false });
            return `bundled data, ${loaded.bundled.loaded ? `${loaded.bundled.daysWritten} days loaded` : 'already loaded'}`;
          }
        : loadBundledRates,
  });
  const started = process.memoryUsage();
  const account = await service.accounts.createAccount({
    accountId: `bench-${formatDay(new Date())}-${process.pid}`,
    plan: 'business',
    verified: true,
    overrides: { monthlyLimit: 1e9, perMinute: 1e9 },
  });
  const { key } = await service.accounts.createKey(account.accountId, 'bench');
  let cpu = process.cpuUsage();
  process.on('message', (message: ApiServerRequest) => {
    if (message.type === 'requests') {
      const used = process.cpuUsage(cpu);
      if (message.reset) cpu = process.cpuUsage();
      void service
        .storeRequests(message.reset)
        .then((counts) => send({ type: 'requests', counts, cpuMicros: used.user + used.system }));
    } else if (message.type === 'memory') send({ type: 'memory', memory: process.memoryUsage() });
    else void service.close().then(() => process.disconnect());
  });
  send({ type: 'ready', url: service.url, key, memory: { boot, modules, started } });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
