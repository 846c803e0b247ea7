import { parseCurrencyApiJson } from './currency-api-json';
import { SourceError, SourceFormatError, withUrl } from './errors';
import { decodeUtf8, fetchBody } from './http';
import type { SourceDay } from './source-day';

/** jsDelivr serving the package `@fawazahmed0/currency-api`; the package path is appended. */
export const CURRENCY_API_DEFAULT_BASE_URL = 'https://cdn.jsdelivr.net/npm';
/** currency-api's own mirror; `{date}` is a day or `latest`. A template, so tests can point it at loopback. */
export const CURRENCY_API_DEFAULT_FALLBACK_URL = 'https://{date}.currency-api.pages.dev/v1/currencies/eur.min.json';
/** The first day currency-api has data for. */
export const CURRENCY_API_FIRST_DAY = '2024-03-02';

/** A day file is ~10 KB. */
const MAX_JSON_BYTES = 512 * 1024;

export interface CurrencyApiSourceConfig {
  baseUrl: string;
  fallbackUrl: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** currency-api's EUR table: ~160 active currencies, a new day at 00:00 UTC, including weekends. */
export class CurrencyApiSource {
  constructor(private readonly config: CurrencyApiSourceConfig) {}

  primaryUrl(tag: string): string {
    return `${this.config.baseUrl.replace(/\/+$/, '')}/@fawazahmed0/currency-api@${tag}/v1/currencies/eur.min.json`;
  }

  fallbackUrl(tag: string): string {
    return this.config.fallbackUrl.replaceAll('{date}', tag);
  }

  /** One day `YYYY-MM-DD` (or `latest`), from the primary URL or, when that fails in any way, the fallback. */
  async day(tag: string): Promise<SourceDay> {
    try {
      return await this.fetchFrom(this.primaryUrl(tag), tag);
    } catch (primary) {
      if (!(primary instanceof SourceError)) throw primary;
      try {
        return await this.fetchFrom(this.fallbackUrl(tag), tag);
      } catch (fallback) {
        if (!(fallback instanceof SourceError)) throw fallback;
        throw new SourceError(fallback.kind, `${primary.message}; fallback: ${fallback.message}`, fallback.url);
      }
    }
  }

  private async fetchFrom(url: string, tag: string): Promise<SourceDay> {
    const body = await fetchBody(url, {
      timeoutMs: this.config.timeoutMs,
      maxBytes: MAX_JSON_BYTES,
      signal: this.config.signal,
    });
    const text = decodeUtf8(body);
    if (text === undefined) throw new SourceFormatError('not currency-api JSON: the body is not UTF-8', url);
    return withUrl(url, () => parseCurrencyApiJson(text, tag === 'latest' ? {} : { expectedDate: tag }));
  }
}
