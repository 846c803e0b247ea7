/** Calendar-day and timestamp arithmetic in UTC; every function takes its clock as an argument. */

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

export type Clock = () => Date;

/** Date.UTC reads years 0–99 as 1900–1999; setUTCFullYear does not. */
function utcDayMs(year: number, monthIndex: number, day: number): number {
  const at = new Date(0);
  at.setUTCFullYear(year, monthIndex, day);
  return at.getTime();
}
export const systemClock: Clock = () => new Date();

/** `YYYY-MM-DDTHH:MM:SSZ`, the one timestamp format of the API. */
export function formatTimestamp(at: Date | number): string {
  return new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The day formatDay last wrote, from its first millisecond to the next day's: a clock's days change rarely. */
let lastDay = { start: Number.NaN, end: Number.NaN, text: '' };

export function formatDay(at: Date | number): string {
  const ms = typeof at === 'number' ? at : at.getTime();
  if (ms >= lastDay.start && ms < lastDay.end) return lastDay.text;
  const text = new Date(ms).toISOString().slice(0, 10);
  const start = Math.floor(ms / DAY_MS) * DAY_MS;
  lastDay = { start, end: start + DAY_MS, text };
  return text;
}

/** Parses `YYYY-MM-DD` that names a real calendar day; undefined otherwise. */
export function parseDay(text: string): { year: number; month: number; day: number } | undefined {
  const m = ISO_DAY.exec(text);
  if (!m) return undefined;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const at = new Date(utcDayMs(year, month - 1, day));
  if (at.getUTCFullYear() !== year || at.getUTCMonth() !== month - 1 || at.getUTCDate() !== day) return undefined;
  return { year, month, day };
}

export function isValidDay(text: string): boolean {
  return parseDay(text) !== undefined;
}

export function dayStartMs(day: string): number {
  const parsed = parseDay(day);
  if (!parsed) throw new RangeError(`not a calendar day: ${day}`);
  return utcDayMs(parsed.year, parsed.month - 1, parsed.day);
}

export function addDays(day: string, days: number): string {
  return formatDay(dayStartMs(day) + days * DAY_MS);
}

export function daysBetween(from: string, to: string): number {
  return Math.round((dayStartMs(to) - dayStartMs(from)) / DAY_MS);
}

/** The same month and day one year earlier; 29 February maps to 28 February. */
export function oneYearBefore(day: string): string {
  const parsed = parseDay(day);
  if (!parsed) throw new RangeError(`not a calendar day: ${day}`);
  const year = parsed.year - 1;
  const lastOfMonth = new Date(utcDayMs(year, parsed.month, 0)).getUTCDate();
  const d = Math.min(parsed.day, lastOfMonth);
  return `${String(year).padStart(4, '0')}-${String(parsed.month).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** The last Sunday of a month (UTC midnight), for the EU summer-time switches. */
function lastSundayMs(year: number, monthIndex: number): number {
  const at = new Date(0);
  at.setUTCFullYear(year, monthIndex + 1, 0);
  return at.getTime() - at.getUTCDay() * DAY_MS;
}

/** The EU rule (since 1996, before the ECB's first day) as arithmetic: no time-zone database to set up. */
export function berlinOffsetHours(atMs: number): number {
  const year = new Date(atMs).getUTCFullYear();
  const summerStarts = lastSundayMs(year, 2) + 3_600_000;
  const summerEnds = lastSundayMs(year, 9) + 3_600_000;
  return atMs >= summerStarts && atMs < summerEnds ? 2 : 1;
}

/** 16:00 Europe/Berlin of the UTC day starting at `startMs`: when the ECB publishes that day's rates. */
export function ecbPublicationMs(startMs: number): number {
  // Noon UTC is on the same side of a switch (01:00 UTC) as 16:00 Berlin time.
  return startMs + (16 - berlinOffsetHours(startMs + 12 * 3_600_000)) * 3_600_000;
}

/** The ECB publishes day D around 16:00 Europe/Berlin. */
export function ecbPublishedAt(day: string): string {
  return formatTimestamp(ecbPublicationMs(dayStartMs(day)));
}

/** currency-api publishes day D at 00:00 UTC. */
export function currencyApiPublishedAt(day: string): string {
  return formatTimestamp(dayStartMs(day));
}
