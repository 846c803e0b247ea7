import { parseArgs } from 'node:util';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { UsageError } from '../admin-cli/usage-error';
import { formatDay, isValidDay } from '../lambdas/core/domain/dates';
import { CENTRAL_BANK_IDS } from '../lambdas/core/domain/publishers';
import { SOURCE_IDS, type SourceId } from '../lambdas/core/domain/rates';
import { sourceUrlsFromEnv } from '../lambdas/core/ingest/fetchers';
import { type IngestLog, type IngestResult, ingestDays, runIngestion } from '../lambdas/core/ingest/ingest';
import { backfillSeries, ensureSeries } from '../lambdas/core/ingest/series';
import { DEFAULT_CURRENCY_API_DAYS } from '../lambdas/core/sources/currency-api-source';
import { SOURCE_MODULES } from '../lambdas/core/sources/registry';
import { createDocumentClient } from '../lambdas/core/store/clients';
import { RatesStore } from '../lambdas/core/store/rates-store';
import { RATES_TABLE } from '../lambdas/core/store/tables';
import { bundledFiles, readBundledSource } from '../local-server/bundled-data';
import { localDataDir, localTableNames, openLocalTable } from '../local-server/local-store';
import { type IngestSettings, mergeSettings, readIngestSettings } from '../local-server/serve-env';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const USAGE = `usage: npm run backfill -- [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--source ${SOURCE_IDS.join('|')}] [--offline] | --series`;

/** What `--help` prints: every option and variable, with its default. */
export const HELP = `${USAGE}

Loads daily rates into the rates table and refreshes the latest snapshot. Running it again over the same days
writes nothing: a day whose rates are already stored is left alone.

Options
  --from YYYY-MM-DD   first day to load (default: the ECB's whole history, since 1999-01-04; for currency-api,
                      the ${DEFAULT_CURRENCY_API_DAYS} days up to --to)
  --to YYYY-MM-DD     last day to load (default: today, UTC)
  --source NAME       only this source, one of SOURCES: ecb (the ECB's reference rates, about 30 currencies,
                      history since 1999), one of the central banks (${CENTRAL_BANK_IDS.join(', ')}:
                      without --from, their last 366 days; CBR asks one request per day) or currency-api (150+
                      currencies, one file per day); default: every source of SOURCES
  --offline           read the bundled files in data/ instead of the network (the ECB history up to its last
                      day, the central banks' recorded answers, and the currency-api days shipped with the project)
  --series            load nothing: rebuild the time series items (one per currency and year) from the stored
                      days, and record that they are current. Ingestion keeps them in step by itself; this is for
                      a store written by an earlier version, which the server and the ingest function also
                      rebuild on their own when they find it. Takes no other option.
  -h, --help          print this help

Where it writes
  The local store of the data directory (FXRATES_DATA_DIR, default .data): through the running local server when
  one runs there, else by opening the store files directly. With RATES_TABLE_NAME set (and AWS_REGION), that table
  on AWS, with the default credential chain.

Sources (environment)
  ECB_BASE_URL                where the ECB's files are fetched from (default: the ECB's own site)
  CURRENCY_API_BASE_URL       the currency-api CDN base; the day's file is <base>/@fawazahmed0/currency-api@<date>/...
  CURRENCY_API_FALLBACK_URL   a template for the mirror tried when the CDN fails; {date} is replaced by the day
                              (YYYY-MM-DD) or by 'latest'
  CENTRAL_BANK_ORIGIN         one origin every central bank is asked at instead of its own
  SOURCES                     the sources, comma-separated, highest precedence first, as the deployment's
                              \`sources\` setting: only they are loaded, merged in this order (default: every source)
  CROSS_CHECK_TOLERANCE       the cross-check's tolerance, as the deployment's setting (default 0.05)
  CROSS_CHECK_EXEMPT          currencies the cross-check's alarm does not count, or none (default CUP,LBP)

Exit status: 0 when every source loaded, 1 when one failed (its error is in the summary), 2 on a usage error.`;
const FETCH_TIMEOUT_MS = 30_000;

interface LoadArgs {
  series?: false;
  from?: string;
  to?: string;
  sources: SourceId[];
  offline: boolean;
  /** SOURCES and the cross-check settings; --series and --help do not read them. */
  settings: IngestSettings;
}

/** A load, or `--series`: rebuild the time series items only. */
type BackfillArgs = LoadArgs | { series: true };

/** `--source` picks one of the sources SOURCES names. */
export function parseBackfillArgs(argv: readonly string[]): BackfillArgs {
  let values: { from?: string; to?: string; source?: string; offline?: boolean; series?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        from: { type: 'string' },
        to: { type: 'string' },
        source: { type: 'string' },
        offline: { type: 'boolean' },
        series: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) throw new UsageError('');
  if (values.series) {
    const other = (['from', 'to', 'source', 'offline'] as const).find((name) => values[name] !== undefined);
    if (other) throw new UsageError(`--series takes no other option, got --${other}`);
    return { series: true };
  }
  for (const name of ['from', 'to'] as const) {
    const value = values[name];
    if (value !== undefined && !isValidDay(value)) {
      throw new UsageError(`--${name} must be a calendar day YYYY-MM-DD, got '${value}'`);
    }
  }
  if (values.from && values.to && values.from > values.to) {
    throw new UsageError(`--from ${values.from} is after --to ${values.to}`);
  }
  const settings = ingestSettings();
  const configured = settings.sources;
  if (values.source !== undefined && !(configured as readonly string[]).includes(values.source)) {
    throw new UsageError(`--source must be one of ${configured.join(', ')}, got '${values.source}'`);
  }
  return {
    ...(values.from ? { from: values.from } : {}),
    ...(values.to ? { to: values.to } : {}),
    sources: values.source ? [values.source as SourceId] : [...configured],
    offline: values.offline === true,
    settings,
  };
}

/** SOURCES and the cross-check settings, as `npm start` and the ingest function read them; a bad one is a usage error. */
function ingestSettings(): IngestSettings {
  try {
    return readIngestSettings();
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

interface Target {
  client: DynamoDBDocumentClient;
  tableName: string;
  description: string;
  close(): Promise<void>;
}

async function openTarget(): Promise<Target> {
  const awsTable = process.env[RATES_TABLE.envVar];
  if (awsTable) {
    if (!process.env.DYNAMODB_ENDPOINT && !process.env.AWS_REGION && !process.env.AWS_DEFAULT_REGION) {
      throw new UsageError(`${RATES_TABLE.envVar} targets AWS: set AWS_REGION too`);
    }
    return {
      client: createDocumentClient(),
      tableName: awsTable,
      description: `table ${awsTable}`,
      close: async () => {},
    };
  }
  const dataDir = localDataDir();
  const tableName = localTableNames().rates;
  const opened = await openLocalTable(dataDir, RATES_TABLE, tableName, { probeTimeoutMs: 1000 });
  return {
    client: opened.client,
    tableName,
    description: `local ${opened.via === 'embedded' ? 'embedded store' : 'running server'} in ${dataDir}`,
    close: opened.close,
  };
}

const consoleLog: IngestLog = {
  info: () => {},
  warn: (message, details) => console.warn(`${message}: ${JSON.stringify(details)}`),
};

async function backfill(args: LoadArgs, store: RatesStore): Promise<IngestResult> {
  // As the ingest function merges: in the configured order, with the configured cross-check.
  const merge = mergeSettings(args.settings);
  const today = formatDay(Date.now());
  // As the ingest function does: a new table is marked (the time series answer from its first day), and series
  // missing from a table an earlier version wrote are rebuilt before days are added.
  await ensureSeries(store, { log: consoleLog });
  const range = { from: args.from, to: args.to };
  if (args.offline) {
    const files = bundledFiles();
    const days = SOURCE_IDS.filter((id) => args.sources.includes(id)).flatMap((id) =>
      readBundledSource(files, id, range),
    );
    const reports = Object.fromEntries(
      args.sources.map((id) => [
        id,
        { status: 'ok' as const, days: days.filter((d) => d.source === id).length, warnings: [] },
      ]),
    );
    return ingestDays(store, { days, reports, log: consoleLog, ...merge });
  }
  const plan = { urls: sourceUrlsFromEnv(), timeoutMs: FETCH_TIMEOUT_MS, mode: 'history' as const };
  const fetchers = args.sources.map((id) => SOURCE_MODULES[id].backfill(plan, { ...range, today }));
  return runIngestion({ store, fetchers, log: consoleLog, ...merge });
}

export function summaryLine(args: LoadArgs, result: IngestResult, target: string, seconds: number): string {
  const delivered = Object.entries(result.sources)
    .map(([id, report]) => (report.status === 'ok' ? `${id} ${report.days} days` : `${id} FAILED (${report.error})`))
    .join(', ');
  const latest = result.latest
    ? `LATEST ${result.latest.date}${result.latestWritten ? ' (updated)' : ''}`
    : 'no LATEST';
  return (
    `backfill ${args.offline ? 'offline' : 'online'}: ${delivered}; ${result.daysWritten} days written, ` +
    `${result.daysUnchanged} unchanged, ${result.rejections.length} rejected; ${latest}; ` +
    `${target}; ${seconds.toFixed(1)} s`
  );
}

async function main(): Promise<number> {
  let args: BackfillArgs;
  try {
    args = parseBackfillArgs(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    if (!error.message) {
      console.log(HELP);
      return 0;
    }
    console.error(`backfill: ${error.message}`);
    console.error(USAGE);
    console.error('npm run backfill -- --help explains every option.');
    return 2;
  }
  const started = Date.now();
  const target = await openTarget();
  try {
    if (args.series) {
      const rebuilt = await backfillSeries(new RatesStore(target.client, target.tableName));
      console.log(
        `backfill series: ${rebuilt.items} items rebuilt from ${rebuilt.days} stored days over ${rebuilt.years} ` +
          `years; ${target.description}; ${((Date.now() - started) / 1000).toFixed(1)} s` +
          (rebuilt.recorded ? '' : '; a run started meanwhile, so the next start rebuilds them again'),
      );
      return 0;
    }
    const result = await backfill(args, new RatesStore(target.client, target.tableName));
    console.log(summaryLine(args, result, target.description, (Date.now() - started) / 1000));
    return result.status === 'ok' ? 0 : 1;
  } finally {
    await target.close();
  }
}

// Run as a command, not when a test imports the module.
if (process.argv[1] === import.meta.filename) {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(`backfill failed: ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = 1;
    },
  );
}
