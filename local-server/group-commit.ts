/**
 * Group commit for the embedded store's LevelDB files: the writes of many DynamoDB requests go to disk together,
 * and no request is answered before its writes are there.
 *
 * Without it every admitted API request waits, under the usage item's lock, for two round trips to LevelDB's
 * thread pool (read the item, write it back), one request after the other, while the store's thread idles.
 *
 * With it, on every LevelDB database of the thread that installs it:
 * - a write (put, del, batch) joins the next batch and is reported done at once, so the item's lock is released
 *   and the next request to the same item goes on;
 * - a read finds the newest value of a key in the batches not yet on disk, or reads LevelDB synchronously (its
 *   memtable and block cache, microseconds) instead of through the thread pool;
 * - one batch is on its way to LevelDB at a time, in the order the writes came: while it is, the writes that
 *   arrive gather in the next, which is written, whole and atomically, once the first is;
 * - `durable()` says when everything written so far is on disk: the store's request listener (see
 *   `withDurableAnswers`) holds each answer until then, so a client never sees an effect that a crash could undo.
 *
 * What a crash (kill -9) can lose is therefore what was in flight: requests not answered yet, whose effects may or
 * may not be on disk, each whole or not at all. A batch reaches the operating system when LevelDB's write returns
 * (LevelDB writes its log without fsync, as dynalite always did), so only a crash of the machine loses more.
 * A batch that fails to be written fails every request under way (begun and not answered, its answer ready or not)
 * with DynamoDB's 500, and the database goes back to what is on disk: their answers may rest on writes that are not.
 * Until every request begun before the failure has ended, writes are refused with the same 500: such a request may
 * have read a write the failure discarded and would write what it computed from it. So no discarded write stands,
 * nor any made from one. A request under way whose own writes were on disk before the failure is failed too, though
 * they stand: DynamoDB's own 500 leaves a write's outcome open the same way. Iterators (Scan, Query) read what is on
 * disk, which includes every write of an answered request.
 */

import type { RequestListener, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';

type Format = 'utf8' | 'buffer' | 'view';
interface LevelOptions {
  keyEncoding?: Format;
  valueEncoding?: Format;
  [option: string]: unknown;
}
type Key = string | Uint8Array;
interface WriteOperation {
  type: 'put' | 'del';
  key: Key;
  value?: string | Uint8Array;
  keyEncoding?: Format;
  valueEncoding?: Format;
}

/** The private methods of abstract-level that classic-level implements, which the public ones call. */
interface LevelPrivate {
  _get(key: Key, options: LevelOptions): Promise<unknown>;
  _getSync(key: Key, options: LevelOptions): unknown;
  _getMany(keys: Key[], options: LevelOptions): Promise<unknown[]>;
  _has(key: Key, options: LevelOptions): Promise<boolean>;
  _hasMany(keys: Key[], options: LevelOptions): Promise<boolean[]>;
  _put(key: Key, value: string | Uint8Array, options: LevelOptions): Promise<void>;
  _del(key: Key, options: LevelOptions): Promise<void>;
  _batch(operations: WriteOperation[], options: LevelOptions): Promise<void>;
  _clear(options: LevelOptions): Promise<void>;
  _close(): Promise<void>;
}

/** A key as the map of unwritten operations holds it: the same string for a key given as text or as its bytes. */
function mapKey(key: Key): string {
  if (typeof key !== 'string') return Buffer.from(key).toString('latin1');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range, control characters included
  return /^[\x00-\x7f]*$/.test(key) ? key : Buffer.from(key, 'utf8').toString('latin1');
}

function inFormat(value: string | Uint8Array, format: Format | undefined): string | Uint8Array {
  if (format === 'utf8') return typeof value === 'string' ? value : Buffer.from(value).toString('utf8');
  if (typeof value === 'string') return format === 'view' ? new Uint8Array(Buffer.from(value)) : Buffer.from(value);
  return format === 'buffer' && !Buffer.isBuffer(value) ? Buffer.from(value) : value;
}

/**
 * How many batches have failed in this thread, and the last one's error. A request that was under way when one
 * failed may have written, or read, what that failure discarded, even if it had not asked to wait yet.
 */
let failures = 0;
let lastFailure: unknown;
/** The requests under way, counted by the number of failures when each began (`beginRequest`). */
const underWay = new Map<number, number>();

/**
 * After a failure, until every request begun before it has ended, no write is taken: such a request may have read
 * a write the failure discarded and would write what it computed from it. Requests begun since cannot be told
 * apart from them at the write, so theirs are refused too, with the same 500.
 */
function refuseWrites(): void {
  if (failures === 0) return;
  for (const since of underWay.keys()) {
    if (since < failures) throw storeWriteError(lastFailure);
  }
}

interface Waiter {
  upTo: number;
  resolve(): void;
  reject(error: unknown): void;
}

/** The unwritten writes of one database and the sequence numbers that say what is on disk. */
class WriteBehind {
  /** Writes that arrived while a batch was on its way; they form the next one. */
  private next = new Map<string, WriteOperation>();
  /** The batch on its way to LevelDB. */
  private writing = new Map<string, WriteOperation>();
  private accepted = 0;
  private written = 0;
  private waiters: Waiter[] = [];
  private flushScheduled = false;

  constructor(
    private readonly db: LevelPrivate,
    private readonly writeBatch: (operations: WriteOperation[]) => Promise<void>,
  ) {}

  /** The newest unwritten operation on `key`, if any. */
  private unwritten(key: Key): WriteOperation | undefined {
    if (this.next.size === 0 && this.writing.size === 0) return undefined;
    const k = mapKey(key);
    return this.next.get(k) ?? this.writing.get(k);
  }

  accept(operations: readonly WriteOperation[]): void {
    if (operations.length === 0) return;
    for (const operation of operations) this.next.set(mapKey(operation.key), operation);
    this.accepted++;
    if (!this.flushScheduled && this.writing.size === 0) {
      this.flushScheduled = true;
      // After the current job: a batch() of many operations, or several requests answered in one turn, go together.
      queueMicrotask(() => this.flush());
    }
  }

  /** Resolves once every write accepted so far is on disk; undefined when it already is. */
  durable(): Promise<void> | undefined {
    if (this.written >= this.accepted) return undefined;
    const upTo = this.accepted;
    return new Promise((resolve, reject) => this.waiters.push({ upTo, resolve, reject }));
  }

  private flush(): void {
    this.flushScheduled = false;
    if (this.writing.size > 0 || this.next.size === 0) return;
    this.writing = this.next;
    this.next = new Map();
    const upTo = this.accepted;
    this.writeBatch([...this.writing.values()]).then(
      () => {
        this.writing = new Map();
        this.written = upTo;
        this.settle((waiter) => waiter.resolve());
        this.flush();
      },
      (error: unknown) => {
        failures++;
        lastFailure = error;
        // The writes that followed were computed from these: none of them stands.
        this.writing = new Map();
        this.next = new Map();
        this.written = this.accepted;
        this.settle((waiter) => waiter.reject(error));
      },
    );
  }

  private settle(done: (waiter: Waiter) => void): void {
    const settled = this.waiters.filter((waiter) => waiter.upTo <= this.written);
    this.waiters = this.waiters.filter((waiter) => waiter.upTo > this.written);
    for (const waiter of settled) done(waiter);
  }

  /** Waits until nothing is left unwritten (before clearing a range or closing). */
  async drain(): Promise<void> {
    for (let pending = this.durable(); pending; pending = this.durable()) await pending.catch(() => undefined);
  }

  read(key: Key, options: LevelOptions): unknown {
    const operation = this.unwritten(key);
    if (operation) return operation.type === 'del' ? undefined : inFormat(operation.value ?? '', options.valueEncoding);
    return this.db._getSync(key, options);
  }
}

const STATE = Symbol('group commit');
type Patched = LevelPrivate & { [STATE]?: WriteBehind };

/** classic-level's database class, as dynalite loads it. */
function classicLevelOfDynalite(): { prototype: LevelPrivate } {
  const requireFromDynalite = createRequire(createRequire(import.meta.url).resolve('dynalite'));
  return (requireFromDynalite('level') as { Level: { prototype: LevelPrivate } }).Level;
}

let installed = false;
const databases = new Set<WriteBehind>();

/**
 * Installs group commit on classic-level's databases in this thread (dynalite's, the only ones it opens). Once per
 * thread; the store's in-memory variant (memory-level) is not affected.
 */
export function installGroupCommit(): void {
  if (installed) return;
  installed = true;
  const proto = classicLevelOfDynalite().prototype as Patched;
  const original = {
    _batch: proto._batch,
    _clear: proto._clear,
    _close: proto._close,
  };
  const state = (db: Patched): WriteBehind => {
    let writeBehind = db[STATE];
    if (!writeBehind) {
      writeBehind = new WriteBehind(db, (operations) => original._batch.call(db, operations, {}));
      db[STATE] = writeBehind;
      databases.add(writeBehind);
    }
    return writeBehind;
  };
  proto._put = async function (this: Patched, key, value, options) {
    refuseWrites();
    state(this).accept([{ type: 'put', key, value, ...formats(options) }]);
  };
  proto._del = async function (this: Patched, key, options) {
    refuseWrites();
    state(this).accept([{ type: 'del', key, ...formats(options) }]);
  };
  proto._batch = async function (this: Patched, operations, options) {
    refuseWrites();
    state(this).accept(operations.map((operation) => ({ ...formats(options), ...operation })));
  };
  proto._get = async function (this: Patched, key, options) {
    return state(this).read(key, options);
  };
  proto._getMany = async function (this: Patched, keys, options) {
    const writeBehind = state(this);
    return keys.map((key) => writeBehind.read(key, options));
  };
  proto._has = async function (this: Patched, key, options) {
    return state(this).read(key, options) !== undefined;
  };
  proto._hasMany = async function (this: Patched, keys, options) {
    const writeBehind = state(this);
    return keys.map((key) => writeBehind.read(key, options) !== undefined);
  };
  proto._clear = async function (this: Patched, options) {
    await state(this).drain();
    return original._clear.call(this, options);
  };
  proto._close = async function (this: Patched) {
    const writeBehind = this[STATE];
    if (writeBehind) {
      await writeBehind.drain();
      databases.delete(writeBehind);
      delete this[STATE];
    }
    return original._close.call(this);
  };
}

function formats(options: LevelOptions): Pick<WriteOperation, 'keyEncoding' | 'valueEncoding'> {
  return {
    ...(options.keyEncoding ? { keyEncoding: options.keyEncoding } : {}),
    ...(options.valueEncoding ? { valueEncoding: options.valueEncoding } : {}),
  };
}

/** Resolves once every write accepted so far, on every database of this thread, is on disk. */
export function allDurable(): Promise<void> | undefined {
  const pending = [...databases].map((db) => db.durable()).filter((p): p is Promise<void> => p !== undefined);
  if (pending.length === 0) return undefined;
  return Promise.all(pending).then(() => undefined);
}

/** DynamoDB's 500 for a request whose writes did not reach the disk (the SDK retries it): its body. */
function failedWriteBody(error: unknown): { __type: string; message: string } {
  return {
    __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError',
    message: `The store could not write to disk: ${error instanceof Error ? error.message : String(error)}`,
  };
}

/** The same body as the JSON text an answer carries. */
function failedWriteJson(error: unknown): string {
  return JSON.stringify(failedWriteBody(error));
}

/** A refused write as dynalite passes an API error on: its status and body become the answer. */
function storeWriteError(error: unknown): Error & { statusCode: number; body: object } {
  const body = failedWriteBody(error);
  return Object.assign(new Error(body.message), { statusCode: 500, body });
}

/** How many requests of the store are under way in this thread (begun and not ended). */
export function requestsUnderWay(): number {
  let count = 0;
  for (const n of underWay.values()) count += n;
  return count;
}

/** One request of the store, from before it reads or writes until its answer (`beginRequest`). */
export interface StoreRequest {
  /** It can write no more (its connection is gone, say); calls after the first do nothing. */
  end(): void;
  /**
   * Ends it, then: `durable()` once every write accepted so far (on every database of this thread) is on disk, at
   * once when none is pending; `failed(body)` with DynamoDB's 500 body if that write failed, or if any batch failed
   * after the request began: its writes, or what it read, may be among those that failed.
   */
  settle<T>(durable: () => T, failed: (body: string) => T): T | Promise<T>;
}

/**
 * Begins a request of the store, over HTTP (`withDurableAnswers`) or as a store call, before it reads or writes.
 * Every answer that may rest on the store's data is settled through it.
 */
export function beginRequest(): StoreRequest {
  const since = failures;
  underWay.set(since, (underWay.get(since) ?? 0) + 1);
  let ended = false;
  const end = (): void => {
    if (ended) return;
    ended = true;
    const left = (underWay.get(since) ?? 0) - 1;
    if (left > 0) underWay.set(since, left);
    else underWay.delete(since);
  };
  return {
    end,
    settle(durable, failed) {
      end();
      const settle = () => (failures === since ? durable() : failed(failedWriteJson(lastFailure)));
      const pending = allDurable();
      if (!pending) return settle();
      return pending.then(settle, (error: unknown) => failed(failedWriteJson(error)));
    },
  };
}

/**
 * The store's request listener with each answer held until the writes made so far (its own among them) are on
 * disk; an answer whose writes failed becomes a 500. For requests over the port and from this process alike.
 */
export function withDurableAnswers(listener: RequestListener): RequestListener {
  return (req, res) => {
    const request = beginRequest();
    // dynalite answers every request whose body arrived; one whose body never does ends with its connection.
    res.once('close', () => {
      if (!req.complete) request.end();
    });
    const send = res.end as (this: ServerResponse, ...args: unknown[]) => ServerResponse;
    res.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
      void request.settle(
        () => send.call(this, chunk, ...rest),
        (body) => {
          this.statusCode = 500;
          this.removeHeader('x-amz-crc32');
          this.setHeader('Content-Type', 'application/x-amz-json-1.0');
          this.setHeader('Content-Length', Buffer.byteLength(body));
          return send.call(this, body);
        },
      );
      return this;
    } as ServerResponse['end'];
    listener(req, res);
  };
}
