/**
 * The upstream data bundled in the repository (`data/`), for the offline default and offline backfills:
 * the ECB full-history zip and currency-api day files, in the exact formats the live sources serve.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { parseCurrencyApiJson } from '../lambdas/core/sources/currency-api-json';
import { parseEcbHistoryZip } from '../lambdas/core/sources/ecb-csv';
import { SourceFormatError, withUrl } from '../lambdas/core/sources/errors';
import type { SourceDay } from '../lambdas/core/sources/source-day';

/** `data/` at the repository root; this file sits in lambdas/core/sources. */
export const DEFAULT_DATA_DIR = resolve(import.meta.dirname, '..', 'data');

const ECB_ZIP = join('ecb', 'eurofxref-hist.zip');
const CURRENCY_API_DIR = 'currency-api';
const CURRENCY_API_DAY_FILE = /^eur-(\d{4}-\d{2}-\d{2})\.min\.json$/;

export interface BundledFiles {
  ecbZip: string;
  currencyApiDays: { date: string; path: string }[];
}

export function bundledFiles(dataDir = DEFAULT_DATA_DIR): BundledFiles {
  let names: string[] = [];
  try {
    names = readdirSync(join(dataDir, CURRENCY_API_DIR));
  } catch {
    // A data folder with ECB history only is still usable.
  }
  const currencyApiDays = names
    .map((name) => ({ name, match: CURRENCY_API_DAY_FILE.exec(name) }))
    .flatMap(({ name, match }) => (match?.[1] ? [{ date: match[1], path: join(dataDir, CURRENCY_API_DIR, name) }] : []))
    .sort((a, b) => (a.date < b.date ? -1 : 1));
  return { ecbZip: join(dataDir, ECB_ZIP), currencyApiDays };
}

/** A digest of the bundled files' bytes: the local start skips reloading when it matches the last load. */
export function bundledFingerprint(files: BundledFiles): string {
  const hash = createHash('sha256');
  for (const path of [files.ecbZip, ...files.currencyApiDays.map((d) => d.path)]) {
    hash.update(basename(path));
    hash.update(readFileSync(path));
  }
  return hash.digest('hex').slice(0, 32);
}

export interface BundledDays {
  ecb: SourceDay[];
  currencyApi: SourceDay[];
}

/** Reads and parses the bundled data, optionally limited to days in `[from, to]`. */
export function readBundledDays(files: BundledFiles, range: { from?: string; to?: string } = {}): BundledDays {
  const inRange = (date: string) => (!range.from || date >= range.from) && (!range.to || date <= range.to);
  let zip: Uint8Array;
  try {
    zip = readFileSync(files.ecbZip);
  } catch (error) {
    throw new SourceFormatError(`bundled ECB history is unreadable: ${(error as Error).message}`);
  }
  const ecb = withUrl(files.ecbZip, () => parseEcbHistoryZip(zip)).filter((d) => inRange(d.date));
  const currencyApi = files.currencyApiDays
    .filter((d) => inRange(d.date))
    .map((d) => withUrl(d.path, () => parseCurrencyApiJson(readFileSync(d.path, 'utf8'), { expectedDate: d.date })));
  return { ecb, currencyApi };
}
