/**
 * Reads the embedded store's LevelDB files, without LevelDB, and says whether every record in them is intact: LevelDB
 * opens a store with a damaged log record by skipping it (and the rest of its block), losing data silently.
 *
 * Checked: CURRENT names an existing MANIFEST; every record of the MANIFESTs and of the logs replayed on open matches
 * its CRC32C, length and fragment order (a record cut short at the very end of the newest log or of a MANIFEST is
 * what a crash leaves, never acknowledged: a note, not damage); every listed table file has its recorded size, the
 * magic number, and a matching CRC32C on every block its index and metaindex reach. Obsolete files are not read.
 *
 * Formats (LevelDB's doc/log_format.md, doc/table_format.md): logs are 32 KiB blocks of records with a 7-byte header
 * (masked CRC32C, length, type 1 FULL, 2 FIRST, 3 MIDDLE, 4 LAST), zero-padded; tables are blocks with a 5-byte
 * trailer (compression type, masked CRC32C) and a 48-byte footer ending in the magic number.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

// ----- CRC32C (Castagnoli) -----

const CASTAGNOLI = 0x82f63b78;

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ CASTAGNOLI : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC32C of `bytes[start, end)`, continuing `crc` (the CRC of what came before; 0 to start). */
export function crc32c(bytes: Uint8Array, crc = 0, start = 0, end = bytes.length): number {
  let c = ~crc >>> 0;
  for (let i = start; i < end; i++) c = (CRC_TABLE[(c ^ (bytes[i] as number)) & 0xff] as number) ^ (c >>> 8);
  return ~c >>> 0;
}

const MASK_DELTA = 0xa282ead8;

/** LevelDB stores CRCs masked, so that a CRC of data that itself holds CRCs is not a weak one. */
export function maskCrc(crc: number): number {
  return (((crc >>> 15) | (crc << 17)) + MASK_DELTA) >>> 0;
}

export function unmaskCrc(masked: number): number {
  const rotated = (masked - MASK_DELTA) >>> 0;
  return ((rotated >>> 17) | (rotated << 15)) >>> 0;
}

function recordCrc(type: number, bytes: Uint8Array, start: number, end: number): number {
  return maskCrc(crc32c(bytes, crc32c(Uint8Array.of(type)), start, end));
}

function blockCrc(type: number, bytes: Uint8Array, start: number, end: number): number {
  return maskCrc(crc32c(Uint8Array.of(type), crc32c(bytes, 0, start, end)));
}

// ----- Little pieces of LevelDB's encodings -----

class FormatError extends Error {}

function readUint32(bytes: Uint8Array, at: number): number {
  return (
    ((bytes[at] as number) |
      ((bytes[at + 1] as number) << 8) |
      ((bytes[at + 2] as number) << 16) |
      ((bytes[at + 3] as number) << 24)) >>>
    0
  );
}

/** A cursor over a byte range that reads LevelDB's varints (up to 2^53, plenty for offsets and file numbers). */
class Reader {
  constructor(
    readonly bytes: Uint8Array,
    public at = 0,
    readonly end = bytes.length,
  ) {}

  get done(): boolean {
    return this.at >= this.end;
  }

  varint(): number {
    let value = 0;
    let scale = 1;
    for (let i = 0; i < 10; i++) {
      if (this.at >= this.end) throw new FormatError('a number runs past the end');
      const byte = this.bytes[this.at++] as number;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) {
        if (!Number.isSafeInteger(value)) throw new FormatError('a number is too large');
        return value;
      }
      scale *= 128;
    }
    throw new FormatError('a number is too long');
  }

  slice(length: number): Uint8Array {
    if (this.at + length > this.end) throw new FormatError('a field runs past the end');
    const part = this.bytes.subarray(this.at, this.at + length);
    this.at += length;
    return part;
  }

  lengthPrefixed(): Uint8Array {
    return this.slice(this.varint());
  }
}

// ----- Log files (write-ahead logs and MANIFEST files) -----

export const LOG_BLOCK_SIZE = 32 * 1024;
const LOG_HEADER_SIZE = 7;
const FULL = 1;
const FIRST = 2;
const MIDDLE = 3;
const LAST = 4;

/** Something in a file that LevelDB would skip, or fail on, losing what it held. */
export interface Damage {
  offset: number;
  /** What is wrong there, e.g. "checksum mismatch". */
  reason: string;
}

export interface LogCheck {
  damage: Damage[];
  /** Where a record cut short by the end of the file starts (a crash in the middle of a write), if one is. */
  truncatedAt?: number;
  /** Complete logical records read. */
  records: number;
}

function allZero(bytes: Uint8Array, start: number): boolean {
  for (let i = start; i < bytes.length; i++) if (bytes[i] !== 0) return false;
  return true;
}

/** Damage in a block makes LevelDB drop the rest of that block, so reading goes on at the next, as LevelDB's does. */
export function checkLog(bytes: Uint8Array, onRecord?: (record: Uint8Array) => void): LogCheck {
  const damage: Damage[] = [];
  let records = 0;
  let truncatedAt: number | undefined;
  let fragments: Uint8Array[] = [];
  let recordStart = -1;
  const nextBlock = (at: number) => (Math.floor(at / LOG_BLOCK_SIZE) + 1) * LOG_BLOCK_SIZE;
  /** After a damaged block, the rest of the record it held (later fragments) is part of that same damage. */
  let afterDamage = false;
  const dropFragments = () => {
    fragments = [];
    recordStart = -1;
  };
  const damaged = (offset: number, reason: string) => {
    damage.push({ offset, reason });
    dropFragments();
    afterDamage = true;
  };
  let at = 0;
  while (at < bytes.length) {
    const blockEnd = nextBlock(at);
    if (blockEnd - at < LOG_HEADER_SIZE) {
      // Zero padding at the end of a block: the writer adds it only before the next record's header, so a file
      // that ends inside it ends before that record.
      if (blockEnd > bytes.length) {
        truncatedAt = recordStart >= 0 ? recordStart : at;
        break;
      }
      at = blockEnd;
      continue;
    }
    if (bytes.length - at < LOG_HEADER_SIZE) {
      truncatedAt = recordStart >= 0 ? recordStart : at;
      break;
    }
    const stored = readUint32(bytes, at);
    const length = (bytes[at + 4] as number) | ((bytes[at + 5] as number) << 8);
    const type = bytes[at + 6] as number;
    const payloadEnd = at + LOG_HEADER_SIZE + length;
    if (type === 0 && length === 0) {
      // LevelDB never writes a zero header; zeros to the end of the file are space a crash left unwritten.
      if (allZero(bytes, at)) {
        truncatedAt = recordStart >= 0 ? recordStart : at;
        break;
      }
      damaged(at, 'zeroed bytes where a record should be');
      at = blockEnd;
      continue;
    }
    if (payloadEnd > bytes.length && blockEnd >= bytes.length) {
      truncatedAt = recordStart >= 0 ? recordStart : at;
      break;
    }
    if (payloadEnd > blockEnd) {
      damaged(at, 'record length runs past its block');
      at = blockEnd;
      continue;
    }
    if (recordCrc(type, bytes, at + LOG_HEADER_SIZE, payloadEnd) !== stored) {
      damaged(at, 'checksum mismatch');
      at = blockEnd;
      continue;
    }
    const payload = bytes.subarray(at + LOG_HEADER_SIZE, payloadEnd);
    switch (type) {
      case FULL:
      case FIRST:
        if (recordStart >= 0) damage.push({ offset: recordStart, reason: 'record whose last fragment is missing' });
        dropFragments();
        afterDamage = false;
        if (type === FULL) {
          records++;
          onRecord?.(payload);
        } else {
          fragments = [payload];
          recordStart = at;
        }
        break;
      case MIDDLE:
      case LAST:
        if (recordStart < 0) {
          if (!afterDamage) damage.push({ offset: at, reason: 'record fragment whose first fragment is missing' });
          break;
        }
        fragments.push(payload);
        if (type === LAST) {
          records++;
          onRecord?.(Buffer.concat(fragments));
          dropFragments();
        }
        break;
      default:
        damaged(at, `unknown record type ${type}`);
    }
    at = payloadEnd;
  }
  // A record whose fragments stop at the end of the file: the writer was stopped between two of them.
  if (truncatedAt === undefined && recordStart >= 0) truncatedAt = recordStart;
  return { damage, records, ...(truncatedAt !== undefined ? { truncatedAt } : {}) };
}

// ----- MANIFEST contents -----

export interface ManifestState {
  /** Live table files: number to size in bytes. */
  tables: Map<number, number>;
  /** Logs numbered from this one on (and `prevLogNumber`) are replayed on open. */
  logNumber: number;
  prevLogNumber: number;
}

function applyVersionEdit(record: Uint8Array, state: ManifestState): void {
  const reader = new Reader(record);
  while (!reader.done) {
    const tag = reader.varint();
    switch (tag) {
      case 1: // comparator name
        reader.lengthPrefixed();
        break;
      case 2:
        state.logNumber = reader.varint();
        break;
      case 3: // next file number
      case 4: // last sequence
        reader.varint();
        break;
      case 5: // compaction pointer: level, internal key
        reader.varint();
        reader.lengthPrefixed();
        break;
      case 6: {
        reader.varint(); // level
        state.tables.delete(reader.varint());
        break;
      }
      case 7: {
        reader.varint(); // level
        const number = reader.varint();
        const size = reader.varint();
        reader.lengthPrefixed(); // smallest key
        reader.lengthPrefixed(); // largest key
        state.tables.set(number, size);
        break;
      }
      case 9:
        state.prevLogNumber = reader.varint();
        break;
      default:
        throw new FormatError(`unknown field ${tag} in a version record`);
    }
  }
}

// ----- Table files -----

/** The last 8 bytes of every table file: 0xdb4775248b80fb57, little-endian. */
const TABLE_MAGIC = Uint8Array.of(0x57, 0xfb, 0x80, 0x8b, 0x24, 0x75, 0x47, 0xdb);
const FOOTER_SIZE = 48;
const BLOCK_TRAILER_SIZE = 5;
const NO_COMPRESSION = 0;
const SNAPPY = 1;

/** Snappy, for index and metaindex blocks only: a data block's CRC covers its stored, compressed bytes. */
export function snappyDecompress(input: Uint8Array): Uint8Array {
  const reader = new Reader(input);
  const length = reader.varint();
  if (length > 64 * 1024 * 1024) throw new FormatError('a compressed block claims more than 64 MiB');
  const out = new Uint8Array(length);
  let written = 0;
  const copy = (offset: number, count: number) => {
    if (offset <= 0 || offset > written || written + count > length) throw new FormatError('a bad snappy copy');
    for (let i = 0; i < count; i++, written++) out[written] = out[written - offset] as number;
  };
  while (!reader.done) {
    const tag = input[reader.at++] as number;
    switch (tag & 3) {
      case 0: {
        let count = tag >>> 2;
        if (count >= 60) {
          const extra = count - 59;
          const bytes = reader.slice(extra);
          count = 0;
          for (let i = extra - 1; i >= 0; i--) count = count * 256 + (bytes[i] as number);
        }
        count += 1;
        if (written + count > length) throw new FormatError('a snappy literal runs past the block');
        out.set(reader.slice(count), written);
        written += count;
        break;
      }
      case 1: {
        const next = reader.slice(1)[0] as number;
        copy(((tag >>> 5) << 8) | next, 4 + ((tag >>> 2) & 7));
        break;
      }
      case 2: {
        const bytes = reader.slice(2);
        copy((bytes[0] as number) | ((bytes[1] as number) << 8), (tag >>> 2) + 1);
        break;
      }
      default: {
        copy(readUint32(reader.slice(4), 0), (tag >>> 2) + 1);
      }
    }
  }
  if (written !== length) throw new FormatError('a snappy block is shorter than it claims');
  return out;
}

interface BlockHandle {
  offset: number;
  size: number;
}

function readHandle(reader: Reader): BlockHandle {
  return { offset: reader.varint(), size: reader.varint() };
}

/** The values of a block's entries (keys are prefix-compressed and not needed here). */
function blockValues(block: Uint8Array): Uint8Array[] {
  if (block.length < 4) throw new FormatError('a block too short for its restart count');
  const restarts = readUint32(block, block.length - 4);
  const entriesEnd = block.length - 4 - 4 * restarts;
  if (restarts < 1 || entriesEnd < 0) throw new FormatError('a block with a bad restart count');
  const reader = new Reader(block, 0, entriesEnd);
  const values: Uint8Array[] = [];
  while (!reader.done) {
    reader.varint(); // bytes shared with the previous key
    const unshared = reader.varint();
    const valueLength = reader.varint();
    reader.slice(unshared);
    values.push(reader.slice(valueLength));
  }
  return values;
}

export function checkTable(bytes: Uint8Array): Damage[] {
  if (bytes.length < FOOTER_SIZE) {
    return [{ offset: 0, reason: `too short to be a table (${bytes.length} bytes)` }];
  }
  const footerAt = bytes.length - FOOTER_SIZE;
  for (let i = 0; i < TABLE_MAGIC.length; i++) {
    if (bytes[bytes.length - 8 + i] !== TABLE_MAGIC[i]) {
      return [{ offset: bytes.length - 8, reason: 'no table magic number at its end (cut short or overwritten)' }];
    }
  }
  const damage: Damage[] = [];
  /** A block's stored bytes, checked against its trailer; undefined (and damage noted) when they do not match. */
  const block = (handle: BlockHandle, what: string): { bytes: Uint8Array; compression: number } | undefined => {
    const end = handle.offset + handle.size;
    if (end + BLOCK_TRAILER_SIZE > footerAt) {
      damage.push({ offset: handle.offset, reason: `${what} block runs past the end of the data` });
      return undefined;
    }
    const compression = bytes[end] as number;
    if (blockCrc(compression, bytes, handle.offset, end) !== readUint32(bytes, end + 1)) {
      damage.push({ offset: handle.offset, reason: `checksum mismatch in a ${what} block` });
      return undefined;
    }
    return { bytes: bytes.subarray(handle.offset, end), compression };
  };
  const contents = (stored: { bytes: Uint8Array; compression: number }): Uint8Array => {
    if (stored.compression === NO_COMPRESSION) return stored.bytes;
    if (stored.compression === SNAPPY) return snappyDecompress(stored.bytes);
    throw new FormatError(`unknown compression type ${stored.compression}`);
  };
  try {
    const footer = new Reader(bytes, footerAt, bytes.length - 8);
    const metaindexHandle = readHandle(footer);
    const indexHandle = readHandle(footer);
    const metaindex = block(metaindexHandle, 'metaindex');
    if (metaindex) {
      for (const value of blockValues(contents(metaindex))) block(readHandle(new Reader(value)), 'meta');
    }
    const index = block(indexHandle, 'index');
    if (index) {
      for (const value of blockValues(contents(index))) block(readHandle(new Reader(value)), 'data');
    }
  } catch (error) {
    if (!(error instanceof FormatError)) throw error;
    damage.push({ offset: footerAt, reason: `unreadable block index (${error.message})` });
  }
  return damage;
}

// ----- The store directory -----

/** A file of the store that cannot be read whole. */
export interface StoreProblem extends Partial<Damage> {
  file: string;
  /** The problem, as a clause naming the file: "<file> has a damaged record at byte 4096 (checksum mismatch)". */
  text: string;
}

export interface StoreCheck {
  problems: StoreProblem[];
  /** What a crash left and LevelDB ignores, e.g. a record cut short at the end of the newest log. */
  notes: string[];
  files: number;
}

const fileNumber = (name: string) => Number(name.slice(0, name.indexOf('.')));
const LOG_NAME = /^\d+\.log$/;
const TABLE_NAME = /^\d+\.(ldb|sst)$/;
const MANIFEST_NAME = /^MANIFEST-\d+$/;

/** Checks the LevelDB files in `dir` (a store that does not exist yet, or is empty, passes). */
export function checkStoreFiles(dir: string): StoreCheck {
  const problems: StoreProblem[] = [];
  const notes: string[] = [];
  let files = 0;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { problems, notes, files };
    throw error;
  }
  const read = (name: string) => {
    files++;
    return readFileSync(join(dir, name));
  };
  const problem = (name: string, text: string, damage?: Damage) =>
    problems.push({ file: join(dir, name), text: `${join(dir, name)} ${text}`, ...damage });
  const recordProblem = (name: string, damage: Damage) =>
    problem(name, `has a damaged record at byte ${damage.offset} (${damage.reason})`, damage);
  const tableProblem = (name: string, damage: Damage) =>
    problem(name, `is damaged at byte ${damage.offset} (${damage.reason})`, damage);

  const logs = names.filter((name) => LOG_NAME.test(name)).sort((a, b) => fileNumber(a) - fileNumber(b));
  const tables = names.filter((name) => TABLE_NAME.test(name));
  const manifests = names.filter((name) => MANIFEST_NAME.test(name));

  let current: string | undefined;
  if (!names.includes('CURRENT')) {
    if (logs.length + tables.length + manifests.length > 0) {
      problem('CURRENT', 'is missing, so the store files beside it cannot be found');
    }
  } else {
    const text = read('CURRENT').toString('latin1');
    const name = text.endsWith('\n') ? text.slice(0, -1) : undefined;
    if (name === undefined) problem('CURRENT', `does not end in a newline (it holds '${printable(text)}')`);
    else if (!MANIFEST_NAME.test(name))
      problem('CURRENT', `does not name a MANIFEST file (it holds '${printable(name)}')`);
    else if (!manifests.includes(name)) problem('CURRENT', `names ${name}, which does not exist`);
    else current = name;
  }

  // Every MANIFEST is a log; the current one also says which tables and logs make up the store. One cut short at
  // its end lost an edit LevelDB never applied (a crash while writing it), so that is a note.
  let state: ManifestState | undefined;
  for (const name of manifests) {
    const isCurrent = name === current;
    const edits: ManifestState = { tables: new Map(), logNumber: 0, prevLogNumber: 0 };
    let unreadable: string | undefined;
    const check = checkLog(read(name), (record) => {
      if (!isCurrent || unreadable) return;
      try {
        applyVersionEdit(record, edits);
      } catch (error) {
        if (!(error instanceof FormatError)) throw error;
        unreadable = error.message;
      }
    });
    for (const damage of check.damage) recordProblem(name, damage);
    if (check.truncatedAt !== undefined) {
      notes.push(`${join(dir, name)} ends in a record cut short at byte ${check.truncatedAt} (an unfinished write)`);
    }
    if (unreadable) problem(name, `holds a version record LevelDB cannot read (${unreadable})`);
    if (isCurrent && check.damage.length === 0 && !unreadable) state = edits;
  }

  // The logs LevelDB replays on open; the newest may end in a record a crash cut short.
  const replayed = state
    ? logs.filter((name) => fileNumber(name) >= (state?.logNumber ?? 0) || fileNumber(name) === state?.prevLogNumber)
    : logs;
  const newest = replayed.at(-1);
  for (const name of replayed) {
    const check = checkLog(read(name));
    for (const damage of check.damage) recordProblem(name, damage);
    if (check.truncatedAt === undefined) continue;
    if (name === newest) {
      notes.push(`${join(dir, name)} ends in a record cut short at byte ${check.truncatedAt} (an unfinished write)`);
    } else {
      recordProblem(name, { offset: check.truncatedAt, reason: 'cut short, yet a newer log follows it' });
    }
  }

  // The tables the current MANIFEST lists; with no readable MANIFEST, every table file, for its magic number.
  if (state) {
    for (const [number, size] of state.tables) {
      const name = [`${String(number).padStart(6, '0')}.ldb`, `${String(number).padStart(6, '0')}.sst`].find((n) =>
        names.includes(n),
      );
      if (!name) {
        problem(`${String(number).padStart(6, '0')}.ldb`, 'is missing, yet the MANIFEST lists it');
        continue;
      }
      const actual = statSync(join(dir, name)).size;
      if (actual !== size) {
        problem(name, `holds ${actual} bytes where the MANIFEST records ${size}`);
        continue;
      }
      for (const damage of checkTable(read(name))) tableProblem(name, damage);
    }
  } else {
    for (const name of tables) {
      for (const damage of checkTable(read(name))) tableProblem(name, damage);
    }
  }
  return { problems, notes, files };
}

/** Shows what a file holds, for a message: printable ASCII, at most 40 characters. */
function printable(text: string): string {
  const shown = text.replace(/[^\x20-\x7e]/g, '?');
  return shown.length > 40 ? `${shown.slice(0, 40)}…` : shown;
}

/** How to get going again when the store cannot be read. */
export function recoveryAdvice(dataDir: string): string {
  return `To recover: restore a backup into a fresh data directory (npm run admin -- restore FILE --data-dir NEW --stopped) and start with FXRATES_DATA_DIR=NEW, or move ${dataDir} aside and start again with a new one.`;
}

/** The store's files are damaged: opening it would lose what the damaged records hold. */
export class StoreDamagedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly problems: readonly StoreProblem[],
  ) {
    const [first] = problems;
    const more =
      problems.length > 1 ? ` (and ${problems.length - 1} more problem${problems.length > 2 ? 's' : ''})` : '';
    super(
      `The local store cannot be read: ${first?.text ?? 'it is damaged'}${more}. Nothing was changed.\n${recoveryAdvice(dataDir)}`,
    );
    this.name = 'StoreDamagedError';
  }
}

/** The data directory named in the advice is `dir`'s parent, as the local server lays it out. */
export function assertStoreReadable(dir: string, dataDir = dirname(dir)): StoreCheck {
  const check = checkStoreFiles(dir);
  if (check.problems.length > 0) throw new StoreDamagedError(dataDir, check.problems);
  return check;
}
