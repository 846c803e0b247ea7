import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../../../lambdas/core/store/clients';
import { ACCOUNTS_TABLE } from '../../../lambdas/core/store/tables';
import { createTable } from '../../../local-server/create-tables';
import { startDynalite } from '../../../local-server/dynalite-server';
import {
  assertStoreReadable,
  checkLog,
  checkStoreFiles,
  checkTable,
  crc32c,
  LOG_BLOCK_SIZE,
  maskCrc,
  StoreDamagedError,
  snappyDecompress,
  unmaskCrc,
} from '../../../local-server/store-integrity';

/** Writes records in LevelDB's log format, as its log::Writer does: fragments across 32 KiB blocks, zero padding. */
function logOf(records: readonly Uint8Array[]): Buffer {
  const out: number[] = [];
  const physical = (type: number, payload: Uint8Array) => {
    const crc = maskCrc(crc32c(payload, crc32c(Uint8Array.of(type))));
    out.push(crc & 0xff, (crc >>> 8) & 0xff, (crc >>> 16) & 0xff, crc >>> 24);
    out.push(payload.length & 0xff, payload.length >>> 8, type, ...payload);
  };
  for (const record of records) {
    let left = record;
    let first = true;
    do {
      let room = LOG_BLOCK_SIZE - (out.length % LOG_BLOCK_SIZE);
      if (room < 7) {
        for (let i = 0; i < room; i++) out.push(0);
        room = LOG_BLOCK_SIZE;
      }
      const length = Math.min(left.length, room - 7);
      const last = length === left.length;
      physical(first && last ? 1 : first ? 2 : last ? 4 : 3, left.subarray(0, length));
      left = left.subarray(length);
      first = false;
    } while (left.length > 0);
  }
  return Buffer.from(out);
}

const text = (value: string) => new TextEncoder().encode(value);
const flip = (bytes: Buffer, at: number) => {
  const copy = Buffer.from(bytes);
  copy[at] = (copy[at] as number) ^ 0x40;
  return copy;
};

describe('CRC32C and its mask', () => {
  it('matches the published check values of CRC32C (Castagnoli)', () => {
    expect(crc32c(text('123456789'))).toBe(0xe3069283);
    expect(crc32c(new Uint8Array(32))).toBe(0x8a9136aa);
    expect(crc32c(new Uint8Array(32).fill(0xff))).toBe(0x62a8ab43);
    expect(crc32c(new Uint8Array(0))).toBe(0);
  });

  it('continues a CRC over a second part as over the whole', () => {
    const whole = text('the quick brown fox');
    expect(crc32c(whole.subarray(9), crc32c(whole.subarray(0, 9)))).toBe(crc32c(whole));
    expect(crc32c(whole, 0, 4, 9)).toBe(crc32c(whole.subarray(4, 9)));
  });

  it('masks as LevelDB does, and unmasks back', () => {
    const crc = crc32c(text('123456789'));
    expect(maskCrc(crc)).toBe((((crc >>> 15) | (crc << 17)) + 0xa282ead8) >>> 0);
    expect(maskCrc(crc)).not.toBe(crc);
    for (const value of [0, 1, crc, 0xffffffff, 0x80000000]) expect(unmaskCrc(maskCrc(value))).toBe(value);
  });
});

describe('reading a log file', () => {
  const small = [text('one'), text('two'), new Uint8Array(100).fill(7)];
  const large = new Uint8Array(3 * LOG_BLOCK_SIZE + 123).map((_, i) => i % 251);

  it('reads every record of a well-formed log, fragments joined, and finds no damage', () => {
    const seen: Uint8Array[] = [];
    const check = checkLog(logOf([...small, large, text('after')]), (record) => seen.push(Buffer.from(record)));
    expect(check).toEqual({ damage: [], records: 5 });
    expect(seen.map((record) => Buffer.from(record).toString('hex'))).toEqual(
      [...small, large, text('after')].map((record) => Buffer.from(record).toString('hex')),
    );
  });

  it('skips the zero padding at the end of a block', () => {
    // A first record that leaves 3 bytes in the block: the next header cannot fit and starts the next block.
    const log = logOf([new Uint8Array(LOG_BLOCK_SIZE - 7 - 3), text('next')]);
    expect(log.subarray(LOG_BLOCK_SIZE - 3, LOG_BLOCK_SIZE)).toEqual(Buffer.alloc(3));
    expect(checkLog(log)).toEqual({ damage: [], records: 2 });
  });

  it('names the offset of a record whose bytes changed (checksum mismatch), in its payload or its header', () => {
    const log = logOf(small);
    // Records: 'one' at 0 (7 + 3 bytes), 'two' at 10, the 100 bytes at 20.
    expect(checkLog(flip(log, 12)).damage).toEqual([{ offset: 10, reason: 'checksum mismatch' }]);
    expect(checkLog(flip(log, 20 + 7 + 50)).damage).toEqual([{ offset: 20, reason: 'checksum mismatch' }]);
    expect(checkLog(flip(log, 1)).damage).toEqual([{ offset: 0, reason: 'checksum mismatch' }]);
  });

  it('reports damage in a record spread over blocks once, and reads the records after it', () => {
    const log = logOf([large, text('after')]);
    const check = checkLog(flip(log, 100));
    expect(check.damage).toEqual([{ offset: 0, reason: 'checksum mismatch' }]);
    expect(check.records).toBe(1);
  });

  it('reports a length that runs past its block, a bad type, and fragments out of order', () => {
    const log = logOf([text('one'), text('two')]);
    const long = Buffer.from(log);
    long.writeUInt16LE(LOG_BLOCK_SIZE, 4);
    expect(checkLog(Buffer.concat([long, Buffer.alloc(LOG_BLOCK_SIZE)])).damage[0]).toEqual({
      offset: 0,
      reason: 'record length runs past its block',
    });
    const typed = (type: number, payload: Uint8Array) => {
      const record = logOf([payload]);
      record[6] = type;
      record.writeUInt32LE(maskCrc(crc32c(payload, crc32c(Uint8Array.of(type)))), 0);
      return record;
    };
    expect(checkLog(Buffer.concat([typed(9, text('x')), log])).damage).toEqual([
      { offset: 0, reason: 'unknown record type 9' },
    ]);
    expect(checkLog(Buffer.concat([typed(4, text('tail')), log])).damage).toEqual([
      { offset: 0, reason: 'record fragment whose first fragment is missing' },
    ]);
    expect(checkLog(Buffer.concat([typed(2, text('head')), log])).damage).toEqual([
      { offset: 0, reason: 'record whose last fragment is missing' },
    ]);
  });

  it('reports zeroed bytes followed by records as damage, but zeros to the end of the file as a cut-short tail', () => {
    const log = logOf(small);
    const zeroed = Buffer.concat([Buffer.alloc(10), log.subarray(10)]);
    expect(checkLog(zeroed).damage).toEqual([{ offset: 0, reason: 'zeroed bytes where a record should be' }]);
    expect(checkLog(Buffer.concat([log, Buffer.alloc(300)]))).toEqual({
      damage: [],
      records: 3,
      truncatedAt: log.length,
    });
  });

  it('takes a record cut short by the end of the file (a crash mid-write) for a truncated tail, not damage', () => {
    const log = logOf(small);
    for (const cut of [log.length - 1, log.length - 50, 20 + 3]) {
      expect(checkLog(log.subarray(0, cut))).toEqual({ damage: [], records: 2, truncatedAt: 20 });
    }
    // A record whose later fragments were never written.
    const spread = logOf([text('one'), large]);
    expect(checkLog(spread.subarray(0, LOG_BLOCK_SIZE + 20))).toEqual({ damage: [], records: 1, truncatedAt: 10 });
  });
});

describe('snappy blocks', () => {
  it('decodes literals and copies', () => {
    // 12 bytes: the literal 'abc', then a copy of 9 bytes from 3 back (tag 1: length 4-11, 11-bit offset).
    expect(Buffer.from(snappyDecompress(Uint8Array.of(12, 0x08, 0x61, 0x62, 0x63, 0x15, 0x03))).toString()).toBe(
      'abcabcabcabc',
    );
    // A 2-byte-offset copy (tag 2) of 5 bytes after a literal of 5.
    expect(
      Buffer.from(snappyDecompress(Uint8Array.of(10, 0x10, 0x68, 0x65, 0x6c, 0x6c, 0x6f, 0x12, 0x05, 0x00))).toString(),
    ).toBe('hellohello');
  });

  it('refuses a copy from before the start, and a block shorter than it claims', () => {
    expect(() => snappyDecompress(Uint8Array.of(8, 0x15, 0x03))).toThrow('a bad snappy copy');
    expect(() => snappyDecompress(Uint8Array.of(5, 0x08, 0x61, 0x62, 0x63))).toThrow('shorter than it claims');
  });
});

describe('the store directory', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'fxrates-integrity-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** Writes items through dynalite into a LevelDB store at `path`, then closes it; `reopen` turns the log into a table. */
  async function writeStore(path: string, items: number, reopen = false): Promise<void> {
    const store = await startDynalite({ path });
    const client = createDocumentClient(store.endpoint);
    await createTable(client, ACCOUNTS_TABLE, 'accounts');
    for (let i = 0; i < items; i++) {
      await client.send(
        new PutCommand({
          TableName: 'accounts',
          Item: { pk: `ACCOUNT#${i}`, sk: 'ACCOUNT', email: `${i}@example.com` },
        }),
      );
    }
    client.destroy();
    await store.close();
    if (reopen) await (await startDynalite({ path })).close();
  }

  it('passes a store that does not exist yet, and an empty directory', () => {
    expect(checkStoreFiles(join(dir, 'none'))).toEqual({ problems: [], notes: [], files: 0 });
    expect(checkStoreFiles(dir).problems).toEqual([]);
  });

  it('passes the files dynalite wrote, logs and tables, and finds a flipped byte in a log, naming file and offset', async () => {
    const path = join(dir, 'dynalite');
    await writeStore(path, 40, true);
    await writeStore(path, 20);
    const names = readdirSync(path);
    expect(names.some((name) => name.endsWith('.ldb'))).toBe(true);
    const check = assertStoreReadable(path);
    expect(check.problems).toEqual([]);
    expect(check.files).toBeGreaterThanOrEqual(4);

    const log = names
      .filter((name) => name.endsWith('.log'))
      .sort()
      .at(-1) as string;
    const bytes = readFileSync(join(path, log));
    expect(checkLog(bytes).records).toBeGreaterThan(10);
    const at = Math.floor(bytes.length / 2);
    writeFileSync(join(path, log), flip(bytes, at));
    const error = (() => {
      try {
        assertStoreReadable(path);
      } catch (thrown) {
        return thrown;
      }
    })() as StoreDamagedError;
    expect(error).toBeInstanceOf(StoreDamagedError);
    const [problem] = error.problems;
    expect(problem?.file).toBe(join(path, log));
    expect(problem?.reason).toBe('checksum mismatch');
    expect(problem?.offset).toBeLessThanOrEqual(at);
    expect(at - (problem?.offset ?? 0)).toBeLessThan(LOG_BLOCK_SIZE);
    expect(error.message).toBe(
      `The local store cannot be read: ${join(path, log)} has a damaged record at byte ${problem?.offset} (checksum mismatch). Nothing was changed.\n` +
        `To recover: restore a backup into a fresh data directory (npm run admin -- restore FILE --data-dir NEW --stopped) and start with FXRATES_DATA_DIR=NEW, or move ${dir} aside and start again with a new one.`,
    );
  });

  it('tolerates a log cut short at its very end (a crash mid-write), and notes it', async () => {
    const path = join(dir, 'dynalite');
    await writeStore(path, 10);
    const log = readdirSync(path).find((name) => name.endsWith('.log')) as string;
    const bytes = readFileSync(join(path, log));
    writeFileSync(join(path, log), bytes.subarray(0, bytes.length - 5));
    const check = checkStoreFiles(path);
    expect(check.problems).toEqual([]);
    expect(check.notes).toEqual([expect.stringMatching(new RegExp(`${log} ends in a record cut short at byte \\d+`))]);
  });

  it('finds damage in a table file: a changed block, a missing magic number, a wrong size, a missing table', async () => {
    const path = join(dir, 'dynalite');
    await writeStore(path, 60, true);
    const table = readdirSync(path).find((name) => name.endsWith('.ldb')) as string;
    const bytes = readFileSync(join(path, table));
    expect(checkTable(bytes)).toEqual([]);
    expect(checkTable(flip(bytes, 10))).toEqual([{ offset: 0, reason: 'checksum mismatch in a data block' }]);
    expect(checkTable(flip(bytes, bytes.length - 1))[0]?.reason).toMatch(/no table magic number/);
    expect(checkTable(bytes.subarray(0, 20))[0]?.reason).toMatch(/too short to be a table/);

    writeFileSync(join(path, table), flip(bytes, 10));
    expect(checkStoreFiles(path).problems.map((problem) => problem.text)).toEqual([
      `${join(path, table)} is damaged at byte 0 (checksum mismatch in a data block)`,
    ]);
    writeFileSync(join(path, table), bytes.subarray(0, bytes.length - 100));
    expect(checkStoreFiles(path).problems.map((problem) => problem.text)).toEqual([
      `${join(path, table)} holds ${bytes.length - 100} bytes where the MANIFEST records ${bytes.length}`,
    ]);
    rmSync(join(path, table));
    expect(checkStoreFiles(path).problems.map((problem) => problem.text)).toEqual([
      `${join(path, table)} is missing, yet the MANIFEST lists it`,
    ]);
  });

  it('finds a CURRENT that is missing, unterminated, garbage, or names a MANIFEST that does not exist', async () => {
    const path = join(dir, 'dynalite');
    await writeStore(path, 3);
    const current = readFileSync(join(path, 'CURRENT'), 'utf8');
    const problems = () => checkStoreFiles(path).problems.map((problem) => problem.text);
    expect(problems()).toEqual([]);
    writeFileSync(join(path, 'CURRENT'), current.trimEnd());
    expect(problems()).toEqual([
      `${join(path, 'CURRENT')} does not end in a newline (it holds '${current.trimEnd()}')`,
    ]);
    writeFileSync(join(path, 'CURRENT'), 'garbage\n');
    expect(problems()).toEqual([`${join(path, 'CURRENT')} does not name a MANIFEST file (it holds 'garbage')`]);
    writeFileSync(join(path, 'CURRENT'), 'MANIFEST-000099\n');
    expect(problems()).toEqual([`${join(path, 'CURRENT')} names MANIFEST-000099, which does not exist`]);
    rmSync(join(path, 'CURRENT'));
    expect(problems()).toEqual([`${join(path, 'CURRENT')} is missing, so the store files beside it cannot be found`]);
  });

  it('finds a damaged MANIFEST record', async () => {
    const path = join(dir, 'dynalite');
    await writeStore(path, 3);
    const manifest = readFileSync(join(path, 'CURRENT'), 'utf8').trim();
    const bytes = readFileSync(join(path, manifest));
    writeFileSync(join(path, manifest), flip(bytes, 10));
    expect(checkStoreFiles(path).problems.map((problem) => problem.text)).toEqual([
      `${join(path, manifest)} has a damaged record at byte 0 (checksum mismatch)`,
    ]);
  });

  it('checks a store at well under 200 ms of CPU per MB of its files', async () => {
    const path = join(dir, 'dynalite');
    mkdirSync(path);
    await writeStore(path, 300);
    const size = readdirSync(path).reduce((sum, name) => sum + statSync(join(path, name)).size, 0);
    // CPU time, the least of three checks: one wall-clock check of this 50 KB store, scaled to a MB, measured the
    // load of the suite's other processes as much as the check (314 ms per MB once in CI; about 16 of CPU here).
    const cpuMs = () => {
      const started = process.cpuUsage();
      checkStoreFiles(path);
      const { user, system } = process.cpuUsage(started);
      return (user + system) / 1000;
    };
    const perMb = Math.min(cpuMs(), cpuMs(), cpuMs()) / Math.max(size / 1e6, 0.01);
    expect(perMb).toBeLessThan(200);
  });
});
