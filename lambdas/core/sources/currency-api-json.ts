/**
 * currency-api's day file: `{"date": "YYYY-MM-DD", "eur": {"usd": 1.13, "btc": 0.0000136, ...}}`, lower-case
 * codes, about 340 entries of which about 160 are active ISO 4217 currencies. Crypto tokens and legacy codes
 * (pegged synthetic values for withdrawn currencies) drop out here; only active catalog codes are kept, and
 * those must be positive finite numbers.
 */
import { isActiveCode, normalizeCode } from '../domain/currencies';
import { currencyApiPublishedAt, isValidDay } from '../domain/dates';
import { SourceFormatError } from './errors';
import { CURRENCY_CODE, isPositiveRate, printableUpstream, type SourceDay } from './source-day';

const isFields = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export interface CurrencyApiParseOptions {
  /** The day the URL asked for; the file must say the same day. Omitted for `latest`. */
  expectedDate?: string;
  /** The base currency of the file, as in `eur.min.json`. */
  base?: string;
}

export function parseCurrencyApiJson(text: string, options: CurrencyApiParseOptions = {}): SourceDay {
  const baseKey = (options.base ?? 'eur').toLowerCase();
  const base = normalizeCode(baseKey);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new SourceFormatError(`not currency-api JSON: the body does not parse ('${printableUpstream(text.trim())}')`);
  }
  const date = isFields(json) ? json.date : undefined;
  if (typeof date !== 'string' || !isValidDay(date))
    throw new SourceFormatError('not currency-api JSON: no valid "date"');
  if (options.expectedDate && date !== options.expectedDate) {
    throw new SourceFormatError(`currency-api JSON for ${options.expectedDate} says it is for ${date}`);
  }
  const table = (json as Record<string, unknown>)[baseKey];
  if (!isFields(table))
    throw new SourceFormatError(`not currency-api JSON: no "${printableUpstream(baseKey)}" rate table`);
  const rates: Record<string, number> = { [base]: 1 };
  let kept = 0;
  for (const [key, value] of Object.entries(table)) {
    const code = normalizeCode(key);
    if (!CURRENCY_CODE.test(code)) continue;
    if (code === base) {
      if (value !== 1) throw new SourceFormatError(`currency-api JSON quotes ${base} against itself as ${value}`);
      continue;
    }
    if (!isActiveCode(code)) continue;
    if (!isPositiveRate(value)) {
      throw new SourceFormatError(
        `rate ${printableUpstream(JSON.stringify(value) ?? '')} for ${code} on ${date} is not positive`,
      );
    }
    rates[code] = value;
    kept++;
  }
  if (kept === 0) throw new SourceFormatError(`currency-api JSON for ${date} holds no supported currency`);
  return { source: 'currency-api', date, base, rates, publishedAt: currencyApiPublishedAt(date) };
}
