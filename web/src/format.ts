/**
 * Figures and dates as the page shows them. Dates are in UTC, the API's clock, and say so where a time shows;
 * the page is in English, so numbers group with commas whatever the browser's locale.
 */

const MONTH_NAMES = 'January February March April May June July August September October November December'.split(' ');

const counts = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 0 });
const wholeEuros = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'EUR', maximumFractionDigits: 0 });
const centEuros = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'EUR', minimumFractionDigits: 2 });

export function formatCount(value: number): string {
  return counts.format(value);
}

/** `€0`, `€29`, `€9.50`: whole euros without decimals. */
export function formatEuros(value: number): string {
  return (Number.isInteger(value) ? wholeEuros : centEuros).format(value);
}

/** An unlimited allowance is null in the API. */
export function formatLimit(value: number | null): string {
  return value === null ? 'Unlimited' : formatCount(value);
}

function parsed(iso: string): Date | null {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** `23 Nov 2026` from an ISO date or timestamp; the input itself when it is not a date. */
export function formatDate(iso: string): string {
  const date = parsed(iso);
  if (!date) return iso;
  return `${date.getUTCDate()} ${MONTH_NAMES[date.getUTCMonth()]?.slice(0, 3)} ${date.getUTCFullYear()}`;
}

/** `1 Dec 2026, 00:00 UTC`. */
export function formatDateTime(iso: string): string {
  const date = parsed(iso);
  if (!date) return iso;
  const hh = String(date.getUTCHours()).padStart(2, '0');
  const mm = String(date.getUTCMinutes()).padStart(2, '0');
  return `${formatDate(iso)}, ${hh}:${mm} UTC`;
}

/** `November 2026` from `2026-11`. */
export function formatMonth(month: string): string {
  const match = /^(\d{4})-(\d{2})$/.exec(month);
  const name = match ? MONTH_NAMES[Number(match[2]) - 1] : undefined;
  return match && name ? `${name} ${match[1]}` : month;
}

export function daysInMonth(month: string): number {
  const match = /^(\d{4})-(\d{2})$/.exec(month);
  if (!match) return 0;
  const monthIndex = Number(match[2]);
  if (monthIndex < 1 || monthIndex > 12) return 0;
  return new Date(Date.UTC(Number(match[1]), monthIndex, 0)).getUTCDate();
}

/** `in 3 days`, `in 5 hours`, `in less than an hour`, or `now` once the time has passed. */
export function timeUntil(iso: string, now: number): string {
  const date = parsed(iso);
  if (!date) return '';
  const ms = date.getTime() - now;
  if (ms <= 0) return 'now';
  const hours = Math.floor(ms / 3_600_000);
  if (hours < 1) return 'in less than an hour';
  if (hours < 48) return `in ${hours} hour${hours === 1 ? '' : 's'}`;
  return `in ${Math.floor(hours / 24)} days`;
}

/** Share of the limit used, as a whole percent, rounded down so that 100 % means used up. */
export function percentUsed(used: number, limit: number): number {
  if (limit <= 0) return used > 0 ? 100 : 0;
  return Math.floor((used / limit) * 100);
}

/** The share used in words: `<1 %` once anything is used, so the first requests do not read as none. */
export function formatPercentUsed(used: number, limit: number): string {
  const percent = percentUsed(used, limit);
  return percent === 0 && used > 0 ? '<1 %' : `${percent} %`;
}

/** The non-secret start of a key as the list shows it: `fxr_Ab3x…`. */
export function formatPrefix(prefix: string | null): string {
  return prefix ? `${prefix}…` : 'not shown';
}

/** An example request against the public API, for a key held in the shell variable FXRATES_KEY. */
export function curlExample(apiUrl: string): string {
  const base = apiUrl.endsWith('/') ? apiUrl : `${apiUrl}/`;
  return `curl -H "X-API-Key: $FXRATES_KEY" '${base}rates/latest?base=EUR'`;
}

/** Anything but `mailto:` or a web address (a `javascript:` URL, a typo) yields null: the plain sentence shows. */
export function contactLink(contact: string | null): { href: string; text: string } | null {
  if (contact === null) return null;
  const value = contact.trim();
  if (/^mailto:[^\s@]+@[^\s@]+$/i.test(value)) return { href: value, text: value.slice('mailto:'.length) };
  if (/^[^\s@:/]+@[^\s@]+\.[^\s@]+$/.test(value)) return { href: `mailto:${value}`, text: value };
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  return { href: url.href, text: `${url.host}${url.pathname === '/' ? '' : url.pathname}` };
}
