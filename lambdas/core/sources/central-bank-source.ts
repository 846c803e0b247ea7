/**
 * One factory turns any central-bank adapter into a source module: its requests fetched a few at a time, its
 * answers parsed together, and its days converted to the euro pivot the store uses (domain/official-rates.ts).
 *
 * A run fails as a whole when any request fails or any body is malformed: a day split across requests (BCB, one
 * per currency) is then never written in part. An answer the publisher gives for "no table in this span" (NBP's
 * 404) is no days, not a failure.
 */
import { isCatalogCode } from '../domain/currencies';
import { addDays, formatDay } from '../domain/dates';
import { toEuroRates } from '../domain/official-rates';
import { type CentralBankId, PUBLISHERS, publisherPublishedAt } from '../domain/publishers';
import { PIVOT } from '../domain/rates';
import type { CentralBankAdapter, OfficialDay, UpstreamResponse } from './central-banks/official-day';
import { errorMessage, SourceFormatError, SourceHttpError } from './errors';
import { fetchBody } from './http';
import type { SourceDay } from './source-day';
import type { BundledFile, FetchPlan, SourceFetch, SourceFetcher, SourceModule } from './source-module';

/** A scheduled run's span: today and the 7 days before, so a weekly table (NBP's table B) is always inside it. */
export const SCHEDULED_DAYS = 8;
/** A history run's span: a year and a day back, not each publisher's whole archive (CBR asks one request a day). */
export const HISTORY_DAYS = 366;
/** The largest answer of a year-long request is a few hundred KB (BNR's yearly XML, RBA's table since 2023). */
const MAX_BODY_BYTES = 8 * 1024 * 1024;
const CONCURRENCY = 4;

/** The pivot each publisher's days reach the euro through, per the rule in domain/official-rates.ts. */
export function toSourceDays(id: CentralBankId, official: readonly OfficialDay[]): SourceFetch {
  const facts = PUBLISHERS[id];
  const byDate = new Map<string, OfficialDay[]>();
  for (const day of official) byDate.set(day.date, [...(byDate.get(day.date) ?? []), day]);
  const days: SourceDay[] = [];
  const warnings: string[] = [];
  for (const [date, list] of [...byDate].sort(([a], [b]) => (a < b ? -1 : 1))) {
    // Daily tables first, so a code in both a daily and a weekly table keeps its daily quote.
    const own = list
      .filter((d) => d.quoteCurrency === facts.currency)
      .sort((a, b) => (a.cadence === b.cadence ? 0 : a.cadence === 'daily' ? -1 : 1));
    // A table without the euro (NBP's table B) goes through the euro quote of its sibling table of the same day.
    const euro = own.find((d) => d.quotes[PIVOT] !== undefined)?.quotes[PIVOT];
    const rates: Record<string, number> = {};
    const take = (code: string, value: number | undefined) => {
      if (value !== undefined && rates[code] === undefined && isCatalogCode(code)) rates[code] = value;
    };
    for (const day of own) {
      const euroRates = toEuroRates(day, euro);
      if (!euroRates) {
        warnings.push(`${facts.name}: the ${day.cadence} table of ${date} has no way to the euro; left out`);
        continue;
      }
      for (const [code, value] of Object.entries(euroRates)) take(code, value);
    }
    // Days priced in another unit (the IMF's SDR values) give that unit only: its currencies come from the
    // publisher's own days, where they are priced directly.
    for (const day of list.filter((d) => d.quoteCurrency !== facts.currency)) {
      take(day.quoteCurrency, toEuroRates(day)?.[day.quoteCurrency]);
    }
    if (Object.keys(rates).filter((code) => code !== PIVOT).length === 0) continue;
    rates[PIVOT] = 1;
    days.push({ source: id, date, base: PIVOT, rates, publishedAt: publisherPublishedAt(id, date) });
  }
  return { days, warnings };
}

async function fetchAll(adapter: CentralBankAdapter, urls: readonly string[], plan: FetchPlan) {
  // Each answer at its request's index, so the parse sees them in request order whatever order they arrived in.
  const responses: (UpstreamResponse | undefined)[] = [];
  let next = 0;
  const worker = async () => {
    while (next < urls.length) {
      const index = next++;
      const url = urls[index] as string;
      try {
        responses[index] = {
          url,
          body: await fetchBody(url, { timeoutMs: plan.timeoutMs, maxBytes: MAX_BODY_BYTES, signal: plan.signal }),
        };
      } catch (error) {
        if (error instanceof SourceHttpError && adapter.emptyStatuses?.includes(error.status)) continue;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, urls.length) }, worker));
  return responses.filter((response): response is UpstreamResponse => response !== undefined);
}

/** `[from, to]`, plus a day: CBR and NBU publish tomorrow's rates today. */
function rangeFetcher(adapter: CentralBankAdapter, plan: FetchPlan, from: string, to: string): SourceFetcher {
  return {
    id: adapter.id,
    async fetch() {
      const urls = adapter.requests(from, to, plan.urls.centralBankOrigin);
      const responses = await fetchAll(adapter, urls, plan);
      const converted = toSourceDays(adapter.id, adapter.parse(responses));
      const last = addDays(to, 1);
      return { ...converted, days: converted.days.filter((d) => d.date >= from && d.date <= last) };
    },
  };
}

const todayOf = (plan: FetchPlan): string => plan.today ?? formatDay(Date.now());

/** The bundled folder: the answers its `source.json` names, read with the URLs they were recorded from. */
export function parseBundled(adapter: CentralBankAdapter, file: BundledFile): SourceDay[] {
  const name = PUBLISHERS[adapter.id].name;
  let recorded: Array<{ file: string; uri: string; status: number }>;
  try {
    recorded = (JSON.parse(file.text()) as { recorded: typeof recorded }).recorded;
    if (!Array.isArray(recorded)) throw new Error('no recorded list');
  } catch (error) {
    throw new SourceFormatError(`bundled ${name} data is unreadable: ${errorMessage(error)}`, file.path);
  }
  const responses = recorded
    .filter((r) => r.status === 200 && (adapter.reads?.(r.uri) ?? true))
    .map((r) => ({ url: r.uri, body: file.sibling(r.file) }));
  return toSourceDays(adapter.id, adapter.parse(responses)).days;
}

export function centralBankModule(adapter: CentralBankAdapter): SourceModule {
  const facts = PUBLISHERS[adapter.id];
  return {
    id: adapter.id,
    fetcher(plan) {
      const today = todayOf(plan);
      const span = plan.mode === 'history' ? HISTORY_DAYS : SCHEDULED_DAYS;
      return rangeFetcher(adapter, plan, addDays(today, -(span - 1)), today);
    },
    backfill(plan, range) {
      const to = range.to && range.to < range.today ? range.to : range.today;
      const wanted = range.from ?? addDays(to, -(HISTORY_DAYS - 1));
      return rangeFetcher(adapter, plan, wanted < facts.coverageStart ? facts.coverageStart : wanted, to);
    },
    bundled: {
      key: adapter.id,
      dir: `central-banks/${adapter.id}`,
      file: 'source.json',
      optional: true,
      parse: (file) => parseBundled(adapter, file),
      label: facts.name,
      unit: 'days',
      note: 'recorded answers',
    },
  };
}
