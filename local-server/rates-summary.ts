/**
 * What the banner of `npm start` says about the rates it serves: how old the latest ones are and why, and which
 * days the bundled history covers, so an old snapshot or a 404 in a gap is never a mystery. Pure: the caller
 * passes the load's result and today's date.
 */
import { daysBetween } from '../lambdas/core/domain/dates';
import { SOURCE_IDS } from '../lambdas/core/domain/rates';
import { SOURCE_MODULES } from '../lambdas/core/sources/registry';
import type { SourceCoverage } from './load-marker';
import type { LocalLoadResult } from './load-rates';

export type LiveMode = 'skipped' | 'tried';

function age(latest: string, today: string): string {
  const days = daysBetween(latest, today);
  if (days <= 0) return 'today';
  return days === 1 ? '1 day old' : `${days} days old`;
}

function span(
  { label, unit, note }: { label: string; unit: string; note: string },
  coverage: SourceCoverage | undefined,
): string | undefined {
  if (!coverage) return undefined;
  return `${label} ${coverage.first} to ${coverage.last} (${coverage.days} ${unit}, ${note})`;
}

/** The banner's lines about rates, without indentation; the first answers "how old, and why". */
export function ratesSummary(result: LocalLoadResult, live: LiveMode, today: string): string[] {
  const lines: string[] = [];
  const coverage = result.bundled.coverage;
  const bundled = SOURCE_IDS.map((id) => SOURCE_MODULES[id].bundled);
  const bundledEnd = bundled
    .map(({ key }) => coverage?.[key]?.last)
    .filter((d): d is string => !!d)
    .sort()
    .at(-1);
  // Newer than every bundled day: an earlier start stored them (a live fetch, or sources since taken out of SOURCES).
  const storedBefore = result.latest !== undefined && bundledEnd !== undefined && result.latest.date > bundledEnd;
  const served = storedBefore
    ? `the rates an earlier start stored, newer than the bundled data (which ends on ${bundledEnd}), are what is served`
    : `the bundled data${bundledEnd ? `, which ends on ${bundledEnd},` : ''} is what is served`;
  const why =
    live === 'skipped'
      ? `the live sources were skipped (FXRATES_OFFLINE), so ${served}`
      : result.used === 'live'
        ? result.live?.status === 'partial'
          ? 'fetched from the live sources just now (one of them failed; see above)'
          : 'fetched from the live sources just now'
        : `the live sources could not be reached, so ${served}`;
  if (result.latest) {
    lines.push(
      `latest rates from ${result.latest.date} (${age(result.latest.date, today)}, ${result.latest.currencies} currencies): ${why}.`,
    );
  } else {
    lines.push(`no latest rates yet: ${why}; /v1/rates/latest answers 503 until rates arrive.`);
  }
  const spans = bundled.map((data) => span(data, coverage?.[data.key])).filter((s): s is string => s !== undefined);
  if (spans.length > 0) {
    lines.push(
      `history bundled: ${spans.join('; ')}. Other days, and a currency on a day its source has no file for, answer 404 no-data-available.`,
    );
  }
  return lines;
}

/**
 * A warning of the rates' load as `npm start` prints it (without indentation), or undefined for one it leaves out:
 * a run's own "ingestion failed" summary, since the per-source failures already say why. A refused day names its
 * date and what was wrong with it, not just "rates rejected".
 */
export function loadWarning(message: string, details: Record<string, unknown> = {}): string | undefined {
  if (message.startsWith('ingestion failed')) return undefined;
  const text = (name: string) => (typeof details[name] === 'string' ? (details[name] as string) : undefined);
  const date = text('date');
  const source = text('source');
  const why = text('detail') ?? text('error');
  const subject = message === 'rates rejected' && date ? `${message} for ${date}` : message;
  return `${subject}${source ? ` (${source})` : ''}${why ? `: ${why}` : ''}`;
}
