/**
 * Full offline backfill (ECB since 1999 plus the bundled currency-api days) into a fresh in-memory embedded
 * DynamoDB, then the identical ingestion again, which must write nothing. Budget: the full backfill under 20 s.
 */
import { ingestDays } from '../../lambdas/core/ingest/ingest';
import { createDocumentClient } from '../../lambdas/core/store/clients';
import { RatesStore } from '../../lambdas/core/store/rates-store';
import { RATES_TABLE } from '../../lambdas/core/store/tables';
import { bundledFiles, readBundledDays } from '../../local-server/bundled-data';
import { createTable } from '../../local-server/create-tables';
import { startDynalite } from '../../local-server/dynalite-server';

const BUDGET_SECONDS = 20;

export default async function backfillBench(): Promise<void> {
  const dynalite = await startDynalite();
  const client = createDocumentClient(dynalite.endpoint);
  try {
    await createTable(client, RATES_TABLE, 'fxrates-rates');
    const store = new RatesStore(client, 'fxrates-rates');

    const started = performance.now();
    const bundled = readBundledDays(bundledFiles());
    const parsedMs = performance.now() - started;
    const days = [...bundled.ecb, ...bundled.currencyApi];
    const reports = {
      ecb: { status: 'ok' as const, days: bundled.ecb.length, warnings: [] },
      'currency-api': { status: 'ok' as const, days: bundled.currencyApi.length, warnings: [] },
    };
    const first = await ingestDays(store, { days, reports });
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `full backfill: ${bundled.ecb.length} ECB days + ${bundled.currencyApi.length} currency-api days, ` +
        `parsed in ${(parsedMs / 1000).toFixed(2)} s`,
    );
    console.log(
      `  items written: ${first.itemsWritten} (${first.daysWritten} days + ${first.latestWritten ? 1 : 0} LATEST), ` +
        `rejections: ${first.rejections.length}`,
    );
    console.log(
      `  ${seconds.toFixed(2)} s, ${Math.round(first.itemsWritten / seconds)} items/s ` +
        `(budget ${BUDGET_SECONDS} s: ${seconds < BUDGET_SECONDS ? 'within' : 'OVER'})`,
    );

    const againStarted = performance.now();
    const second = await ingestDays(store, { days, reports });
    const againSeconds = (performance.now() - againStarted) / 1000;
    console.log(
      `second identical ingestion: ${second.itemsWritten} items written (must be 0: ${second.itemsWritten === 0 ? 'ok' : 'FAILED'}), ` +
        `${second.daysUnchanged} days unchanged, ${againSeconds.toFixed(2)} s`,
    );
  } finally {
    client.destroy();
    await dynalite.close();
  }
}
