/**
 * `npm run serve:cdk-out [-- <cloud assembly dir>]`: the local gateway serving what `npm run synth` built (default
 * `cdk.out`) instead of the sources: each route's bundle with its template's handler, environment and timeout, in
 * processes of their own (local-server/cdk-out-handlers.ts). Environment: FXRATES_DYNAMODB_LOCAL_ENDPOINT (a
 * running DynamoDB Local; without it the embedded dynalite stands in), PORT (3001; 0 any free port), HOST
 * (127.0.0.1). The tables are made from the data stack's template and hold the bundled rates and one demo key
 * per plan, printed at start; they go when the server stops.
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

export {};

async function main(): Promise<void> {
  const { randomBytes } = await import('node:crypto');
  const { resolve } = await import('node:path');
  const { parseHost, parsePort } = await import('../local-server/serve-env');
  const { startCdkOutServer } = await import('../local-server/cdk-out-server');
  const { CdkOutError } = await import('../local-server/cdk-out-assembly');
  const { startDynalite } = await import('../local-server/dynalite-server');
  const { loadRatesForLocal } = await import('../local-server/load-rates');
  const { ensureDemoAccounts } = await import('../local-server/demo-accounts');
  const { AccountsStore } = await import('../lambdas/core/store/accounts-store');
  const { ACCOUNTS_TABLE, RATES_TABLE } = await import('../lambdas/core/store/tables');

  const assemblyDir = resolve(process.argv[2] ?? 'cdk.out');
  const external = process.env.FXRATES_DYNAMODB_LOCAL_ENDPOINT;
  const dynalite = external ? undefined : await startDynalite();
  const dynamoEndpoint = external ?? (dynalite?.endpoint as string);
  let server: Awaited<ReturnType<typeof startCdkOutServer>>;
  try {
    server = await startCdkOutServer({
      assemblyDir,
      dynamoEndpoint,
      port: process.env.PORT ? parsePort(process.env.PORT) : 3001,
      host: parseHost(process.env.HOST),
      onError: (error, requestId) =>
        console.error(`${requestId}: ${error instanceof Error ? error.message : String(error)}`),
    });
  } catch (error) {
    await dynalite?.close();
    if (error instanceof CdkOutError) {
      console.error(`fxrates cannot serve ${assemblyDir}:\n${error.message}`);
      process.exit(1);
    }
    throw error;
  }
  const stop = (signal: string) => {
    console.log(`\n${signal}: stopping`);
    server
      .close()
      .then(() => dynalite?.close())
      .then(() => process.exit(0));
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));

  const fns = server.functions.functions;
  const ratesTable = [...fns.routes.values()].map((fn) => fn.environment[RATES_TABLE.envVar]).find(Boolean);
  const accountsTable = fns.authorizer.environment[ACCOUNTS_TABLE.envVar];
  const settings = server.functions.ingestSettings;
  // The sources, order and cross-check of the template's ingestion, so the tables hold what its runs would write and
  // GET /v1/sources (which reads the template's SOURCES too) describes the data served.
  if (ratesTable) {
    await loadRatesForLocal({ client: server.functions.client, tableName: ratesTable, live: false, ...settings });
  }
  const keys = accountsTable
    ? await ensureDemoAccounts(
        new AccountsStore(server.functions.client, accountsTable, {
          clock: () => new Date(),
          randomBytes: (n) => randomBytes(n),
        }),
        undefined,
      )
    : {};
  console.log(`fxrates from ${assemblyDir} on ${server.url}`);
  console.log(`  DynamoDB: ${external ? `DynamoDB Local at ${external}` : 'embedded dynalite (in memory)'}`);
  console.log(`  sources: ${settings.sources.join(', ')} (the bundled days the template's ingestion would take)`);
  for (const [plan, key] of Object.entries(keys)) console.log(`  ${plan} key: ${key}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
