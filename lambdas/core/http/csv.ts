/** CSV output of the time series, and whether a request asks for it by its `Accept` header. */
import { decimal, toPlain } from '../domain/decimal';
import type { SeriesPoint } from '../domain/series';

export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

/**
 * `date,rate` then one row per point, CRLF line ends (RFC 4180). Rates are written as plain decimals, never in
 * exponent notation, which some spreadsheets would read as text.
 */
export function seriesCsv(points: readonly SeriesPoint[]): string {
  let text = 'date,rate\r\n';
  for (const point of points) text += `${point.date},${toPlain(decimal(point.rate))}\r\n`;
  return text;
}

interface MediaRange {
  type: string;
  q: number;
}

function mediaRanges(accept: string): MediaRange[] {
  return accept.split(',').flatMap((part) => {
    const [range = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    if (!range.includes('/')) return [];
    let q = 1;
    for (const param of params) {
      const m = /^q=([01](?:\.\d{0,3})?)$/.exec(param);
      if (m) q = Number(m[1]);
    }
    return [{ type: range, q }];
  });
}

/** The quality `ranges` give `type`: the most specific range that matches decides (RFC 9110, 12.5.1). */
function qualityOf(ranges: readonly MediaRange[], type: string): { q: number; exact: boolean } {
  const [major] = type.split('/');
  const exact = ranges.find((r) => r.type === type);
  if (exact) return { q: exact.q, exact: true };
  const partial = ranges.find((r) => r.type === `${major}/*`) ?? ranges.find((r) => r.type === '*/*');
  return { q: partial?.q ?? 0, exact: false };
}

/** A tie goes to CSV only when CSV is named and JSON only matched by a wildcard (`text/csv, *\/*`). */
export function acceptsCsv(accept: string | undefined): boolean {
  if (!accept) return false;
  const ranges = mediaRanges(accept);
  const csv = qualityOf(ranges, 'text/csv');
  const json = qualityOf(ranges, 'application/json');
  if (csv.q <= 0) return false;
  return csv.q > json.q || (csv.q === json.q && csv.exact && !json.exact);
}
