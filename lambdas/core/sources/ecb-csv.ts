/**
 * The ECB's full history: `eurofxref-hist.zip` holding `eurofxref-hist.csv` (`Date,USD,JPY,...,` newest first,
 * `N/A` for gaps, a trailing comma on every line). Unzipping is streamed with an output cap, so a zip bomb stops
 * at the cap instead of filling memory.
 */
import { Unzip, UnzipInflate } from 'fflate';
import { isCatalogCode } from '../domain/currencies';
import { ecbPublishedAt, isValidDay } from '../domain/dates';
import { PIVOT } from '../domain/rates';
import { SourceFormatError } from './errors';
import { decodeUtf8 } from './http';
import { CURRENCY_CODE, parseRateText, printable, type SourceDay } from './source-day';

export const ECB_HISTORY_CSV = 'eurofxref-hist.csv';
/** The real file is about 2 MB and grows by about 70 KB a year. */
export const MAX_HISTORY_CSV_BYTES = 32 * 1024 * 1024;
/** Compressed input is fed in slices, so one inflate step can never produce more than ~1000× a slice. */
const SLICE = 16 * 1024;

/** A zip ends with its end-of-central-directory record (22 bytes plus a comment of up to 64 KiB). */
function hasEndRecord(zip: Uint8Array): boolean {
  const lowest = Math.max(0, zip.byteLength - 22 - 0xffff);
  for (let at = zip.byteLength - 22; at >= lowest; at--) {
    if (zip[at] === 0x50 && zip[at + 1] === 0x4b && zip[at + 2] === 0x05 && zip[at + 3] === 0x06) return true;
  }
  return false;
}

/** Extracts the history CSV from the zip, refusing empty, truncated, foreign or oversized archives. */
export function unzipEcbHistory(zip: Uint8Array, maxBytes = MAX_HISTORY_CSV_BYTES): string {
  // Without the trailing record the archive was cut off, even if the first entry happens to be whole.
  if (!hasEndRecord(zip)) throw new SourceFormatError('not the ECB history zip: no end record (truncated?)');
  const chunks: Uint8Array[] = [];
  let total = 0;
  let complete = false;
  let failure: string | undefined;
  const names: string[] = [];
  const unzip = new Unzip((file) => {
    names.push(file.name);
    if (file.name !== ECB_HISTORY_CSV || failure) return;
    file.ondata = (error, chunk, final) => {
      if (error) {
        failure = error.message;
        return;
      }
      total += chunk.byteLength;
      if (total > maxBytes) {
        failure = `${ECB_HISTORY_CSV} inflates beyond ${maxBytes} bytes`;
        file.terminate();
        return;
      }
      chunks.push(chunk);
      if (final) complete = true;
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  try {
    for (let at = 0; at < zip.byteLength && !failure; at += SLICE) {
      const end = Math.min(at + SLICE, zip.byteLength);
      unzip.push(zip.subarray(at, end), end === zip.byteLength);
    }
  } catch (error) {
    failure = (error as Error).message;
  }
  if (failure) throw new SourceFormatError(`not the ECB history zip: ${failure}`);
  if (!names.includes(ECB_HISTORY_CSV)) {
    const found = names.length === 0 ? 'no files' : names.map(printable).join(', ');
    throw new SourceFormatError(`not the ECB history zip: expected ${ECB_HISTORY_CSV}, found ${found}`);
  }
  if (!complete) throw new SourceFormatError(`not the ECB history zip: ${ECB_HISTORY_CSV} is truncated`);
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  const text = decodeUtf8(bytes);
  if (text === undefined) throw new SourceFormatError(`${ECB_HISTORY_CSV} is not UTF-8 text`);
  return text;
}

/** Parses the history CSV into day snapshots against EUR, oldest first; `N/A` means the currency is absent. */
export function parseEcbCsv(input: string): SourceDay[] {
  const text = input.startsWith('\ufeff') ? input.slice(1) : input;
  const lines = text.split(/\r?\n/);
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const header = (lines[0] ?? '').split(',');
  if (header[0] !== 'Date')
    throw new SourceFormatError(`not the ECB history CSV: header '${printable(lines[0] ?? '')}'`);
  const trailing = header[header.length - 1] === '';
  const codes = header.slice(1, trailing ? -1 : undefined);
  if (codes.length === 0 || new Set(codes).size !== codes.length || !codes.every((c) => CURRENCY_CODE.test(c))) {
    throw new SourceFormatError('not the ECB history CSV: the header must list distinct currency codes');
  }
  if (codes.includes(PIVOT)) throw new SourceFormatError('not the ECB history CSV: EUR quoted against itself');
  const kept = codes.map((code) => isCatalogCode(code));
  const days: SourceDay[] = [];
  const seen = new Set<string>();
  for (let row = 1; row < lines.length; row++) {
    const fields = (lines[row] ?? '').split(',');
    if (fields.length !== header.length || (trailing && fields[fields.length - 1] !== '')) {
      throw new SourceFormatError(
        `not the ECB history CSV: line ${row + 1} has ${fields.length} fields, expected ${header.length}`,
      );
    }
    const date = fields[0] ?? '';
    if (!isValidDay(date)) {
      throw new SourceFormatError(`not the ECB history CSV: '${printable(date)}' on line ${row + 1} is not a day`);
    }
    if (seen.has(date)) throw new SourceFormatError(`not the ECB history CSV: day ${date} appears twice`);
    seen.add(date);
    const rates: Record<string, number> = { [PIVOT]: 1 };
    let present = 0;
    for (let c = 0; c < codes.length; c++) {
      const field = (fields[c + 1] ?? '').trim();
      if (field === 'N/A') continue;
      const rate = parseRateText(field);
      if (rate === undefined) {
        throw new SourceFormatError(`rate '${printable(field)}' for ${codes[c]} on ${date} is not a positive decimal`);
      }
      present++;
      if (kept[c]) rates[codes[c] as string] = rate;
    }
    if (present === 0) throw new SourceFormatError(`not the ECB history CSV: day ${date} has no rates`);
    days.push({ source: 'ecb', date, base: PIVOT, rates, publishedAt: ecbPublishedAt(date) });
  }
  if (days.length === 0) throw new SourceFormatError('not the ECB history CSV: no days');
  return days.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

export function parseEcbHistoryZip(zip: Uint8Array): SourceDay[] {
  return parseEcbCsv(unzipEcbHistory(zip));
}
