/**
 * When the upstream sources publish, as pure arithmetic on UTC instants: the ECB on TARGET business days at 16:00
 * Europe/Berlin (dates.ts: the same instant ingestion stamps on an ECB day), currency-api every day at 00:00 UTC,
 * each central bank at the start of its weekday window (publishers.ts).
 * No time-zone database, so the module is cheap enough to run on every request and testable at any instant.
 */
import { ecbPublicationMs } from './dates';
import { CENTRAL_BANK_IDS, type CentralBankId, nextPublisherWindow } from './publishers';
import type { SourceId } from './rates';

export { berlinOffsetHours } from './dates';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Easter Sunday of a Gregorian year (the anonymous Gregorian computus), as `[month, day]`. */
export function easterSunday(year: number): [month: number, day: number] {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return [month, day];
}

function utcMidnight(year: number, monthIndex: number, day: number): number {
  const at = new Date(0);
  at.setUTCFullYear(year, monthIndex, day);
  return at.getTime();
}

/** Whether the UTC day starting at `dayStartMs` is a TARGET2 closing day or a weekend: no ECB reference rates. */
export function isTargetClosed(dayStartMs: number): boolean {
  const at = new Date(dayStartMs);
  const weekday = at.getUTCDay();
  if (weekday === 0 || weekday === 6) return true;
  const month = at.getUTCMonth() + 1;
  const day = at.getUTCDate();
  if ((month === 1 && day === 1) || (month === 5 && day === 1) || (month === 12 && (day === 25 || day === 26))) {
    return true;
  }
  const [easterMonth, easterDay] = easterSunday(at.getUTCFullYear());
  const easter = utcMidnight(at.getUTCFullYear(), easterMonth - 1, easterDay);
  return dayStartMs === easter - 2 * DAY_MS || dayStartMs === easter + DAY_MS;
}

/** The ECB's next publication strictly after `nowMs`: the next TARGET business day's 16:00 Europe/Berlin. */
export function nextEcbPublication(nowMs: number): number {
  let day = Math.floor(nowMs / DAY_MS) * DAY_MS;
  // The longest closure is Good Friday to Easter Monday (4 days); a bound keeps a wrong calendar from looping.
  for (let i = 0; i < 14; i++, day += DAY_MS) {
    if (isTargetClosed(day)) continue;
    const at = ecbPublicationMs(day);
    if (at > nowMs) return at;
  }
  throw new Error('no TARGET business day within 14 days');
}

/** currency-api's next publication strictly after `nowMs`: the next 00:00 UTC. */
export function nextCurrencyApiPublication(nowMs: number): number {
  return (Math.floor(nowMs / DAY_MS) + 1) * DAY_MS;
}

/** Apart from SOURCE_SCHEDULES (source-facts.ts): only the routes that compute next_update_at bundle the calendar. */
const NEXT: Readonly<Record<SourceId, (nowMs: number) => number>> = {
  ecb: nextEcbPublication,
  'currency-api': nextCurrencyApiPublication,
  ...(Object.fromEntries(
    CENTRAL_BANK_IDS.map((id) => [id, (nowMs: number) => nextPublisherWindow(id, nowMs)]),
  ) as Record<CentralBankId, (nowMs: number) => number>),
};

/**
 * The earliest next scheduled publication, strictly after `nowMs`, among `sources` (those feeding the latest
 * rates); undefined for no source.
 */
export function nextUpdateAt(sources: Iterable<SourceId>, nowMs: number): number | undefined {
  let earliest: number | undefined;
  for (const source of sources) {
    const at = NEXT[source](nowMs);
    if (earliest === undefined || at < earliest) earliest = at;
  }
  return earliest;
}
