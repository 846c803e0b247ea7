/**
 * `npm start`: the whole service on this machine. Environment: PORT (3000; empty means 3000, 0 any free port),
 * HOST (127.0.0.1), FXRATES_DATA_DIR (.data), FXRATES_OFFLINE=true to skip the live sources, ECB_BASE_URL /
 * CURRENCY_API_BASE_URL to point them elsewhere, SOURCES, CROSS_CHECK_TOLERANCE and CROSS_CHECK_EXEMPT as the ingest
 * function reads them, UPGRADE_CONTACT (where the dashboard's plans page sends customers), POWERTOOLS_LOG_LEVEL (WARN).
 *
 * A start-up that fails (the data directory in use by another server, a damaged or unreadable store, the port in
 * use, a bad PORT, HOST or ingestion setting) prints what is wrong and what to do, in one or two lines on stderr,
 * and exits with 1.
 * SIGINT and SIGTERM stop it cleanly, also while it starts (once start-up ends).
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
// Everything the server writes (its data directory, LevelDB's files, the Cognito emulator's, the keys file) is
// readable by this user alone: key hashes and usage are nobody else's business.
process.umask(0o077);

export {};

type Stoppable = { close(): Promise<void> };
let service: Stoppable | undefined;
let stopSignal: string | undefined;
let stopSignalAt = 0;

/**
 * One Ctrl-C reaches this process twice under `npm start`: from the terminal, which signals the whole process
 * group, and from npm, which forwards what it receives. So under npm the next signal of the same kind is taken for
 * that copy, if it is handled within this long. Counted, not timed closely: both arrive together, but a handler runs
 * only when start-up's synchronous work lets it, and on a busy machine that parts them by a second or more.
 */
const NPM_COPY_WINDOW_MS = 5_000;
/** npm names the script it runs; `exec` in the start script makes this process npm's child, which it signals. */
const UNDER_NPM_START = process.env.npm_lifecycle_event === 'start';
let copyExpected = false;

function stop(signal: string): void {
  if (stopSignal) {
    const copy = copyExpected && signal === stopSignal && Date.now() - stopSignalAt < NPM_COPY_WINDOW_MS;
    copyExpected = false;
    if (!service && !copy) process.exit(1); // a second signal while starting: do not wait any longer
    return;
  }
  stopSignal = signal;
  stopSignalAt = Date.now();
  copyExpected = UNDER_NPM_START;
  if (!service) {
    console.log(`\n${signal}: stopping once start-up ends`);
    return;
  }
  console.log(`\n${signal}: stopping`);
  service.close().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(`fxrates did not stop cleanly: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));

async function main(): Promise<void> {
  const started = Date.now();
  const { parseHost, parsePort, readIngestSettings } = await import('../local-server/serve-env');
  const port = parsePort(process.env.PORT);
  const host = parseHost(process.env.HOST);
  const ingestSettings = readIngestSettings();
  const { startLocalService } = await import('../local-server/service');
  const { loadRatesForLocal } = await import('../local-server/load-rates');
  const { loadWarning, ratesSummary } = await import('../local-server/rates-summary');
  const { formatDay } = await import('../lambdas/core/domain/dates');
  const { localDataDir } = await import('../local-server/local-store');
  const { DOCS_PATH, OPENAPI_PATH } = await import('../local-server/gateway');
  const { API_KEY_HEADER } = await import('../lambdas/core/http/headers');

  const dataDir = localDataDir();
  const live = process.env.FXRATES_OFFLINE !== 'true' && process.env.FXRATES_OFFLINE !== '1';

  const running = await startLocalService({
    dataDir,
    port,
    host,
    onNotice: (message) => console.warn(`  note: ${message}`),
    ...(process.env.UPGRADE_CONTACT ? { upgradeContact: process.env.UPGRADE_CONTACT } : {}),
    // No mail leaves this machine: the code a customer would have been e-mailed is printed (and kept in a file).
    onVerificationCode: ({ email, code }) => console.log(`  verification code for ${email}: ${code}`),
    loadRates: async ({ client, tableName }) => {
      const result = await loadRatesForLocal({
        client,
        tableName,
        live,
        ...ingestSettings,
        log: {
          info: () => undefined,
          warn: (message, details) => {
            const line = loadWarning(message, details);
            if (line !== undefined) console.warn(`  ${line}`);
          },
        },
      });
      const rebuilt = result.seriesBackfill;
      const loaded =
        (result.bundled.loaded
          ? `bundled data loaded (${result.bundled.daysWritten} days written)`
          : 'bundled data already in the store') +
        (rebuilt
          ? `; time series items rebuilt from the stored days (${rebuilt.items} items, ` +
            `${(rebuilt.durationMs / 1000).toFixed(1)} s)`
          : '');
      const [first, ...rest] = ratesSummary(result, live ? 'tried' : 'skipped', formatDay(Date.now()));
      return [`${first ?? ''}`, ...rest, loaded].join('\n         ');
    },
  });

  service = running;
  if (stopSignal) {
    const signal = stopSignal;
    stopSignal = undefined;
    stop(signal);
    return;
  }
  const keys = running.demoKeys;
  console.log(`fxrates is listening on ${running.url} (ready in ${((Date.now() - started) / 1000).toFixed(1)} s)`);
  if (running.dashboardUrl) {
    console.log(`  dashboard: ${running.dashboardUrl} (sign up there; codes are printed here and written to`);
    console.log(`             ${running.cognito?.codesFile ?? 'memory'})`);
  }
  console.log(`  docs:  ${new URL(DOCS_PATH, running.url)} (OpenAPI: ${new URL(OPENAPI_PATH, running.url)})`);
  console.log(`  rates: ${running.ratesSource}`);
  console.log(`  data:  ${dataDir} (embedded DynamoDB at ${running.dynamoEndpoint})`);
  if (keys) {
    console.log('  demo keys (also in demo-keys.json in the data directory):');
    console.log(`    free      ${keys.free}`);
    console.log(`    pro       ${keys.pro}`);
    console.log(`    business  ${keys.business}`);
    console.log(`\n  curl -H '${API_KEY_HEADER}: ${keys.pro}' '${running.url}rates/latest?base=USD'\n`);
  }
  console.log('Press Ctrl-C to stop.');
}

main().catch(async (error: unknown) => {
  const { STARTUP_ERROR_NAMES, describeCause } = await import('../local-server/startup-errors');
  const known = error instanceof Error && STARTUP_ERROR_NAMES.has(error.name);
  const message = error instanceof Error ? error.message : String(error);
  // One or two lines: what is wrong, then (indented) what to do. An error nobody foresaw keeps its stack.
  const [first, ...rest] = message.split('\n');
  console.error(`fxrates could not start: ${first}`);
  for (const line of rest) console.error(`  ${line}`);
  if (!known) {
    const cause = describeCause(error);
    if (cause !== message) console.error(`  cause: ${cause}`);
    if (error instanceof Error && error.stack) console.error(error.stack.split('\n').slice(1).join('\n'));
  }
  process.exit(1);
});
