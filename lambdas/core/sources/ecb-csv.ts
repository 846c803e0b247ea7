/**
 * The ECB's full history: `eurofxref-hist.zip` holding `eurofxref-hist.csv` (`Date,USD,JPY,...,` newest first,
 * `N/A` for gaps, a trailing comma on every line). The archive is read through its central directory and the
 * one entry is inflated with Node's zlib under an output cap, so a zip bomb stops at the cap instead of filling
 * memory. (Node's zlib rather than a zip library, which every cold start of the ingestion function would pay for,
 * while only the one-off history run opens a zip.)
 */
// Why: docs/clever-parts.md#zip-reader-on-zlib
import { inflateRawSync } from 'node:zlib';
import { isCatalogCode } from '../domain/currencies';
import { ecbPublishedAt, isValidDay } from '../domain/dates';
import { PIVOT } from '../domain/rates';
import { SourceFormatError } from './errors';
import { decodeUtf8 } from './http';
import { CURRENCY_CODE, parseRateText, printableUpstream, type SourceDay } from './source-day';

export const ECB_HISTORY_CSV = 'eurofxref-hist.csv';
/** The real file is about 2 MB and grows by about 70 KB a year. */
export const MAX_HISTORY_CSV_BYTES = 32 * 1024 * 1024;

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_FILE_HEADER = 0x04034b50;
const STORED = 0;
const DEFLATED = 8;

interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
}

/** A zip ends with its end-of-central-directory record (22 bytes plus a comment of up to 64 KiB). */
function endRecordOffset(zip: Buffer): number | undefined {
  const lowest = Math.max(0, zip.byteLength - 22 - 0xffff);
  for (let at = zip.byteLength - 22; at >= lowest; at--) {
    if (zip.readUInt32LE(at) === END_OF_CENTRAL_DIRECTORY) return at;
  }
  return undefined;
}

function centralDirectory(zip: Buffer, end: number): ZipEntry[] {
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries: ZipEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (at + 46 > zip.byteLength || zip.readUInt32LE(at) !== CENTRAL_DIRECTORY_ENTRY) {
      throw new SourceFormatError('not the ECB history zip: a damaged central directory');
    }
    const nameLength = zip.readUInt16LE(at + 28);
    entries.push({
      method: zip.readUInt16LE(at + 10),
      compressedSize: zip.readUInt32LE(at + 20),
      size: zip.readUInt32LE(at + 24),
      localHeaderOffset: zip.readUInt32LE(at + 42),
      name: zip.subarray(at + 46, at + 46 + nameLength).toString('utf8'),
    });
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return entries;
}

function entryData(zip: Buffer, entry: ZipEntry): Buffer {
  const at = entry.localHeaderOffset;
  if (at + 30 > zip.byteLength || zip.readUInt32LE(at) !== LOCAL_FILE_HEADER) {
    throw new SourceFormatError(`not the ECB history zip: ${ECB_HISTORY_CSV} has no local header`);
  }
  const start = at + 30 + zip.readUInt16LE(at + 26) + zip.readUInt16LE(at + 28);
  if (start + entry.compressedSize > zip.byteLength) {
    throw new SourceFormatError(`not the ECB history zip: ${ECB_HISTORY_CSV} is truncated`);
  }
  return zip.subarray(start, start + entry.compressedSize);
}

function inflate(data: Buffer, entry: ZipEntry, maxBytes: number): Buffer {
  if (entry.method === STORED) return data;
  if (entry.method !== DEFLATED) {
    throw new SourceFormatError(`not the ECB history zip: compression method ${entry.method} is not deflate`);
  }
  try {
    return inflateRawSync(data, { maxOutputLength: maxBytes });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ERR_BUFFER_TOO_LARGE') {
      throw new SourceFormatError(`not the ECB history zip: ${ECB_HISTORY_CSV} inflates beyond ${maxBytes} bytes`);
    }
    throw new SourceFormatError(`not the ECB history zip: ${(error as Error).message}`);
  }
}

/** Extracts the history CSV from the zip, refusing empty, truncated, foreign or oversized archives. */
export function unzipEcbHistory(input: Uint8Array, maxBytes = MAX_HISTORY_CSV_BYTES): string {
  const zip = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  // Without the trailing record the archive was cut off, even if the first entry happens to be whole.
  const end = endRecordOffset(zip);
  if (end === undefined) throw new SourceFormatError('not the ECB history zip: no end record (truncated?)');
  const entries = centralDirectory(zip, end);
  const entry = entries.find((e) => e.name === ECB_HISTORY_CSV);
  if (!entry) {
    const found = entries.length === 0 ? 'no files' : entries.map((e) => printableUpstream(e.name)).join(', ');
    throw new SourceFormatError(`not the ECB history zip: expected ${ECB_HISTORY_CSV}, found ${found}`);
  }
  if (entry.size > maxBytes) {
    throw new SourceFormatError(`not the ECB history zip: ${ECB_HISTORY_CSV} inflates beyond ${maxBytes} bytes`);
  }
  const bytes = inflate(entryData(zip, entry), entry, maxBytes);
  if (bytes.byteLength !== entry.size) {
    throw new SourceFormatError(`not the ECB history zip: ${ECB_HISTORY_CSV} is truncated`);
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
    throw new SourceFormatError(`not the ECB history CSV: header '${printableUpstream(lines[0] ?? '')}'`);
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
      throw new SourceFormatError(
        `not the ECB history CSV: '${printableUpstream(date)}' on line ${row + 1} is not a day`,
      );
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
        throw new SourceFormatError(
          `rate '${printableUpstream(field)}' for ${codes[c]} on ${date} is not a positive decimal`,
        );
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
