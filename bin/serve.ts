/**
 * `npm start`: the whole service on this machine. Environment: PORT (3000), HOST (127.0.0.1), FXRATES_DATA_DIR
 * (.data), FXRATES_OFFLINE=true to skip the live sources, ECB_BASE_URL / CURRENCY_API_BASE_URL to point them
 * elsewhere, UPGRADE_CONTACT (where the dashboard's plans page sends customers), POWERTOOLS_LOG_LEVEL (WARN).
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';

export {};

async function main(): Promise<void> {
  const started = Date.now();
  const { startLocalService } = await import('../local-server/service');
  const { loadRatesForLocal } = await import('../local-server/load-rates');
  const { localDataDir, runningEndpoint } = await import('../local-server/local-store');
  const { DOCS_PATH, OPENAPI_PATH } = await import('../local-server/gateway');

  const dataDir = localDataDir();
  const port = Number(process.env.PORT ?? 3000);
  const host = process.env.HOST ?? '127.0.0.1';
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`PORT must be a port number, not '${process.env.PORT}'`);
  const stale = runningEndpoint(dataDir);
  if (stale) {
    const alive = await fetch(stale, { method: 'POST', signal: AbortSignal.timeout(500) }).then(
      () => true,
      () => false,
    );
    if (alive) throw new Error(`another fxrates server is already using ${dataDir} (its store answers at ${stale})`);
  }
  const live = process.env.FXRATES_OFFLINE !== 'true' && process.env.FXRATES_OFFLINE !== '1';

  const service = await startLocalService({
    dataDir,
    port,
    host,
    ...(process.env.UPGRADE_CONTACT ? { upgradeContact: process.env.UPGRADE_CONTACT } : {}),
    // No mail leaves this machine: the code a customer would have been e-mailed is printed (and kept in a file).
    onVerificationCode: ({ email, code }) => console.log(`  verification code for ${email}: ${code}`),
    loadRates: async ({ client, tableName }) => {
      const result = await loadRatesForLocal({
        client,
        tableName,
        live,
        log: {
          info: () => undefined,
          warn: (message, details) => {
            // The per-source failures already say why a run failed; the run's own summary would repeat them.
            if (message.startsWith('ingestion failed')) return;
            const source = typeof details?.source === 'string' ? ` (${details.source})` : '';
            const error = typeof details?.error === 'string' ? `: ${details.error}` : '';
            console.warn(`  ${message}${source}${error}`);
          },
        },
      });
      const latest = result.latest
        ? `latest ${result.latest.date}, ${result.latest.currencies} currencies`
        : 'no latest snapshot';
      const bundled = result.bundled.loaded
        ? `bundled data loaded (${result.bundled.daysWritten} days)`
        : 'bundled data already loaded';
      const liveNote = !live
        ? 'live sources skipped (FXRATES_OFFLINE)'
        : result.used === 'live'
          ? 'live sources reached'
          : 'live sources unreachable, serving the bundled data';
      return `${liveNote}; ${bundled}; ${latest}`;
    },
  });

  const keys = service.demoKeys;
  console.log(`fxrates is listening on ${service.url} (ready in ${((Date.now() - started) / 1000).toFixed(1)} s)`);
  if (service.dashboardUrl) {
    console.log(`  dashboard: ${service.dashboardUrl} (sign up there; codes are printed here and written to`);
    console.log(`             ${service.cognito?.codesFile ?? 'memory'})`);
  }
  console.log(`  docs:  ${new URL(DOCS_PATH, service.url)} (OpenAPI: ${new URL(OPENAPI_PATH, service.url)})`);
  console.log(`  rates: ${service.ratesSource}`);
  console.log(`  data:  ${dataDir} (embedded DynamoDB at ${service.dynamoEndpoint})`);
  if (keys) {
    console.log('  demo keys (also in demo-keys.json in the data directory):');
    console.log(`    free      ${keys.free}`);
    console.log(`    pro       ${keys.pro}`);
    console.log(`    business  ${keys.business}`);
    console.log(`\n  curl -H 'X-API-Key: ${keys.pro}' '${service.url}rates/latest?base=USD'\n`);
  }
  console.log('Press Ctrl-C to stop.');

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping`);
    service.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  const message = error instanceof Error ? error.message : String(error);
  console.error(`fxrates could not start: ${message}`);
  process.exit(1);
});
