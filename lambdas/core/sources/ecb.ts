import { parseEcbHistoryZip } from './ecb-csv';
import { parseEcbXml } from './ecb-xml';
import { SourceFormatError, withUrl } from './errors';
import { decodeUtf8, fetchBody } from './http';
import type { SourceDay } from './source-day';

export const ECB_DEFAULT_BASE_URL = 'https://www.ecb.europa.eu/stats/eurofxref';

/** The daily file is ~2 KB and the 90-day file ~100 KB; the zip ~0.6 MB and grows slowly. */
const MAX_XML_BYTES = 2 * 1024 * 1024;
const MAX_ZIP_BYTES = 16 * 1024 * 1024;

export interface EcbSourceConfig {
  baseUrl: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** The ECB reference rates: published around 16:00 CET on TARGET business days. */
export class EcbSource {
  constructor(private readonly config: EcbSourceConfig) {}

  /** The newest business day. */
  daily(): Promise<SourceDay[]> {
    return this.xml('eurofxref-daily.xml');
  }

  /** The last 90 calendar days (about 62 business days). */
  last90Days(): Promise<SourceDay[]> {
    return this.xml('eurofxref-hist-90d.xml');
  }

  /** Every business day since 1999-01-04. */
  async history(): Promise<SourceDay[]> {
    const url = this.url('eurofxref-hist.zip');
    const zip = await fetchBody(url, this.limits(MAX_ZIP_BYTES));
    return withUrl(url, () => parseEcbHistoryZip(zip));
  }

  private async xml(file: string): Promise<SourceDay[]> {
    const url = this.url(file);
    const body = await fetchBody(url, this.limits(MAX_XML_BYTES));
    const text = decodeUtf8(body);
    if (text === undefined) throw new SourceFormatError('not ECB XML: the body is not UTF-8', url);
    return withUrl(url, () => parseEcbXml(text));
  }

  private url(file: string): string {
    return `${this.config.baseUrl.replace(/\/+$/, '')}/${file}`;
  }

  private limits(maxBytes: number) {
    return { timeoutMs: this.config.timeoutMs, maxBytes, signal: this.config.signal };
  }
}
