/**
 * Backup and restore of the accounts table as DynamoDB JSON (numbers and types come back exact), in one file whose
 * header names its origin and the SHA-256 of its items.
 */
import { createHash } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import {
  type AttributeValue,
  BatchWriteItemCommand,
  type DynamoDBClient,
  paginateScan,
  UpdateItemCommand,
  type WriteRequest,
} from '@aws-sdk/client-dynamodb';
import { ACCOUNTS_KEY_PREFIXES } from '../lambdas/core/store/tables';
import type { StoreSource } from './target';

export const BACKUP_FORMAT = 'fxrates-accounts-backup';
export const BACKUP_VERSION = 1;

/** A backup or restore refused for a reason in the file or the target; the CLI exits 1 and nothing was written. */
export class BackupRefusedError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'BackupRefusedError';
  }
}

/** An attribute value as JSON: DynamoDB's own JSON form, binary values in base64 (as the AWS CLI writes them). */
export type JsonAttributeValue =
  | { S: string }
  | { N: string }
  | { B: string }
  | { BOOL: boolean }
  | { NULL: true }
  | { M: JsonItem }
  | { L: JsonAttributeValue[] }
  | { SS: string[] }
  | { NS: string[] }
  | { BS: string[] };

export type JsonItem = { [name: string]: JsonAttributeValue };

export interface ItemCounts {
  accounts: number;
  keys: number;
  usage: number;
  other: number;
}

export interface BackupHeader {
  format: typeof BACKUP_FORMAT;
  version: typeof BACKUP_VERSION;
  created_at: string;
  source: StoreSource;
  item_count: number;
  counts: ItemCounts;
  /** Hex SHA-256 of the items array's canonical JSON (object keys sorted, no spaces). */
  sha256: string;
}

export interface Backup extends BackupHeader {
  items: JsonItem[];
}

function toJsonValue(value: AttributeValue): JsonAttributeValue {
  if (value.S !== undefined) return { S: value.S };
  if (value.N !== undefined) return { N: value.N };
  if (value.B !== undefined) return { B: Buffer.from(value.B).toString('base64') };
  if (value.BOOL !== undefined) return { BOOL: value.BOOL };
  if (value.NULL !== undefined) return { NULL: true };
  if (value.M !== undefined) return { M: toJsonItem(value.M) };
  if (value.L !== undefined) return { L: value.L.map(toJsonValue) };
  if (value.SS !== undefined) return { SS: [...value.SS] };
  if (value.NS !== undefined) return { NS: [...value.NS] };
  if (value.BS !== undefined) return { BS: value.BS.map((b) => Buffer.from(b).toString('base64')) };
  throw new Error(`an attribute value of an unknown type: ${Object.keys(value).join(', ')}`);
}

export function toJsonItem(item: Record<string, AttributeValue>): JsonItem {
  return Object.fromEntries(Object.entries(item).map(([name, value]) => [name, toJsonValue(value)]));
}

function fromJsonValue(value: JsonAttributeValue): AttributeValue {
  if ('B' in value) return { B: Buffer.from(value.B, 'base64') };
  if ('BS' in value) return { BS: value.BS.map((b) => Buffer.from(b, 'base64')) };
  if ('M' in value) return { M: fromJsonItem(value.M) };
  if ('L' in value) return { L: value.L.map(fromJsonValue) };
  return value as AttributeValue;
}

export function fromJsonItem(item: JsonItem): Record<string, AttributeValue> {
  return Object.fromEntries(Object.entries(item).map(([name, value]) => [name, fromJsonValue(value)]));
}

/** JSON with every object's keys sorted and no whitespace: one text for one value, whatever order it was built in. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}

export function itemsDigest(items: readonly JsonItem[]): string {
  return createHash('sha256').update(canonicalJson(items)).digest('hex');
}

const pkOf = (item: JsonItem): string => {
  const pk = item.pk;
  return pk && 'S' in pk ? pk.S : '';
};

export function countItems(items: readonly JsonItem[]): ItemCounts {
  const counts: ItemCounts = { accounts: 0, keys: 0, usage: 0, other: 0 };
  for (const item of items) {
    const pk = pkOf(item);
    if (pk.startsWith(ACCOUNTS_KEY_PREFIXES.account)) counts.accounts++;
    else if (pk.startsWith(ACCOUNTS_KEY_PREFIXES.key)) counts.keys++;
    else if (pk.startsWith(ACCOUNTS_KEY_PREFIXES.usage)) counts.usage++;
    else counts.other++;
  }
  return counts;
}

const capitalized = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "3 accounts, 5 keys and 12 usage items", with "and 1 other item" when there are any. */
export function describeCounts(counts: ItemCounts): string {
  const parts = [plural(counts.accounts, 'account'), plural(counts.keys, 'key'), plural(counts.usage, 'usage item')];
  if (counts.other > 0) parts.push(plural(counts.other, 'other item'));
  return `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

/** Sorted by `pk`, so two backups of the same data are the same file but for their time. */
export async function scanItems(raw: DynamoDBClient, tableName: string): Promise<JsonItem[]> {
  const items: JsonItem[] = [];
  for await (const page of paginateScan({ client: raw }, { TableName: tableName, ConsistentRead: true })) {
    for (const item of page.Items ?? []) items.push(toJsonItem(item));
  }
  return items.sort((a, b) => (pkOf(a) < pkOf(b) ? -1 : pkOf(a) > pkOf(b) ? 1 : 0));
}

export function buildBackup(items: JsonItem[], source: StoreSource, createdAt: string): Backup {
  return {
    format: BACKUP_FORMAT,
    version: BACKUP_VERSION,
    created_at: createdAt,
    source,
    item_count: items.length,
    counts: countItems(items),
    sha256: itemsDigest(items),
    items,
  };
}

/** The file's text: the header on the first line, then one item per line, so it reads and diffs well. */
export function encodeBackup(backup: Backup): string {
  const { items, ...header } = backup;
  const head = JSON.stringify(header).slice(0, -1);
  if (items.length === 0) return `${head},"items":[]}\n`;
  return `${head},"items":[\n${items.map((item) => JSON.stringify(item)).join(',\n')}\n]}\n`;
}

const NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');

/** Why a value is not an attribute value in DynamoDB JSON, or undefined when it is one. */
function invalidValue(value: unknown, path: string): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return `${path} is not an attribute value`;
  const keys = Object.keys(value);
  if (keys.length !== 1) return `${path} has ${keys.length} types, not one`;
  const [type] = keys as [string];
  const inner = (value as Record<string, unknown>)[type];
  switch (type) {
    case 'S':
      return typeof inner === 'string' ? undefined : `${path}.S is not a string`;
    case 'N':
      return typeof inner === 'string' && NUMBER.test(inner) ? undefined : `${path}.N is not a number`;
    case 'B':
      return typeof inner === 'string' && BASE64.test(inner) ? undefined : `${path}.B is not base64`;
    case 'BOOL':
      return typeof inner === 'boolean' ? undefined : `${path}.BOOL is not a boolean`;
    case 'NULL':
      return inner === true ? undefined : `${path}.NULL is not true`;
    case 'SS':
      return isStringArray(inner) ? undefined : `${path}.SS is not a list of strings`;
    case 'NS':
      return isStringArray(inner) && inner.every((n) => NUMBER.test(n)) ? undefined : `${path}.NS is not numbers`;
    case 'BS':
      return isStringArray(inner) && inner.every((b) => BASE64.test(b)) ? undefined : `${path}.BS is not base64`;
    case 'L':
      if (!Array.isArray(inner)) return `${path}.L is not a list`;
      for (const [i, element] of inner.entries()) {
        const problem = invalidValue(element, `${path}[${i}]`);
        if (problem) return problem;
      }
      return undefined;
    case 'M':
      return invalidItem(inner, `${path}.`);
    default:
      return `${path} has the unknown type ${JSON.stringify(type).slice(0, 20)}`;
  }
}

function invalidItem(item: unknown, prefix: string): string | undefined {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return `${prefix || 'it'} is not a map`;
  for (const [name, value] of Object.entries(item)) {
    const problem = invalidValue(value, `${prefix}${name}`);
    if (problem) return problem;
  }
  return undefined;
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

function validSource(value: unknown): value is StoreSource {
  const source = value as Record<string, unknown> | null;
  if (source === null || typeof source !== 'object') return false;
  if (source.kind === 'local') return typeof source.data_dir === 'string';
  return source.kind === 'aws' && typeof source.table === 'string' && typeof source.region === 'string';
}

/** Checked whole before anything is written; any fault is a BackupRefusedError naming it. */
export function decodeBackup(text: string, label: string): Backup {
  const damaged = (what: string) =>
    new BackupRefusedError('backup-damaged', `The backup ${label} is damaged: ${what}. Nothing was written.`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw damaged(`it is not valid JSON (${(error as Error).message.split('\n')[0]}); it may be cut short`);
  }
  const file = parsed as Record<string, unknown> | null;
  if (file === null || typeof file !== 'object' || file.format !== BACKUP_FORMAT) {
    const found = file !== null && typeof file === 'object' ? JSON.stringify(file.format ?? null) : 'no object';
    throw new BackupRefusedError(
      'backup-format',
      `The file ${label} is not an fxrates accounts backup (format ${found.slice(0, 60)}, expected "${BACKUP_FORMAT}"). Nothing was written.`,
    );
  }
  if (file.version !== BACKUP_VERSION) {
    throw new BackupRefusedError(
      'backup-version',
      `The backup ${label} has version ${JSON.stringify(file.version ?? null).slice(0, 20)}; this fxrates reads version ${BACKUP_VERSION}. Nothing was written.`,
    );
  }
  if (typeof file.created_at !== 'string' || !TIMESTAMP.test(file.created_at)) {
    throw damaged('created_at is not a UTC timestamp');
  }
  if (!validSource(file.source)) throw damaged('source is not {kind: local, data_dir} or {kind: aws, table, region}');
  if (typeof file.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(file.sha256)) {
    throw damaged('sha256 is not 64 hexadecimal digits');
  }
  if (!Array.isArray(file.items)) throw damaged('it has no items list');
  const items = file.items as unknown[];
  if (file.item_count !== items.length) {
    throw damaged(`it holds ${items.length} items where its header says ${JSON.stringify(file.item_count ?? null)}`);
  }
  const digest = itemsDigest(items as JsonItem[]);
  if (digest !== file.sha256) {
    throw damaged(`the SHA-256 of its items is ${digest}, its header says ${file.sha256}`);
  }
  for (const [i, item] of items.entries()) {
    const problem = invalidItem(item, '');
    if (problem) throw damaged(`item ${i + 1}: ${problem}`);
    if (!pkOf(item as JsonItem)) throw damaged(`item ${i + 1} has no string pk`);
  }
  return {
    format: BACKUP_FORMAT,
    version: BACKUP_VERSION,
    created_at: file.created_at,
    source: file.source,
    item_count: items.length,
    counts: countItems(items as JsonItem[]),
    sha256: digest,
    items: items as JsonItem[],
  };
}

/** A temporary file beside it (mode 600), flushed, then renamed: never half a backup under the name. */
export async function writeFileWhole(path: string, text: string): Promise<void> {
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.tmp`);
  try {
    const handle = await open(temporary, 'wx', 0o600);
    try {
      await handle.writeFile(text);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}

export interface RestoreResult {
  counts: ItemCounts;
  itemsWritten: number;
  /** Items of the target that had the same key as one in the backup, overwritten (only with `replace`). */
  replaced: number;
  /** Accounts whose active-key count was set from their key items. */
  recounted: number;
  /** Of those, the accounts whose stored count was different. */
  corrected: number;
}

export interface RestoreOptions {
  replace: boolean;
  /** The target in words, for the refusal. */
  description: string;
  /** Waits before retrying unprocessed items; a parameter so tests need not wait. */
  sleep?: (ms: number) => Promise<void>;
  maxAttempts?: number;
}

interface ExistingItem {
  account?: string;
  revoked: boolean;
  activeKeys?: string;
}

const BATCH_SIZE = 25;

const accountIdOf = (pk: string) => pk.slice(ACCOUNTS_KEY_PREFIXES.account.length);

/** Every pk in the target, and what a recount needs of each: one consistent Scan of a few attributes. */
async function scanExisting(raw: DynamoDBClient, tableName: string): Promise<Map<string, ExistingItem>> {
  const existing = new Map<string, ExistingItem>();
  const pages = paginateScan(
    { client: raw },
    {
      TableName: tableName,
      ConsistentRead: true,
      ProjectionExpression: '#pk, #account, #revoked, #keys',
      ExpressionAttributeNames: {
        '#pk': 'pk',
        '#account': 'key_account_id',
        '#revoked': 'revoked_at',
        '#keys': 'active_keys',
      },
    },
  );
  for await (const page of pages) {
    for (const item of page.Items ?? []) {
      const pk = item.pk?.S;
      if (pk === undefined) continue;
      existing.set(pk, {
        ...(item.key_account_id?.S !== undefined ? { account: item.key_account_id.S } : {}),
        revoked: item.revoked_at !== undefined && item.revoked_at.NULL === undefined,
        ...(item.active_keys?.N !== undefined ? { activeKeys: item.active_keys.N } : {}),
      });
    }
  }
  return existing;
}

/** Writes the requests in batches of 25, sending unprocessed items again with a growing pause. */
async function batchWrite(
  raw: DynamoDBClient,
  tableName: string,
  requests: WriteRequest[],
  options: RestoreOptions,
): Promise<void> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((done) => setTimeout(done, ms)));
  const maxAttempts = options.maxAttempts ?? 8;
  for (let start = 0; start < requests.length; start += BATCH_SIZE) {
    let pending = requests.slice(start, start + BATCH_SIZE);
    for (let attempt = 1; pending.length > 0; attempt++) {
      if (attempt > maxAttempts) {
        throw new Error(
          `the store left ${pending.length} items unwritten after ${maxAttempts} attempts; the restore is incomplete: run it again with --replace`,
        );
      }
      if (attempt > 1) await sleep(Math.min(50 * 2 ** (attempt - 2), 2000));
      const out = await raw.send(new BatchWriteItemCommand({ RequestItems: { [tableName]: pending } }));
      pending = out.UnprocessedItems?.[tableName] ?? [];
    }
  }
}

/**
 * Refused, with nothing written, when the table holds any account or key and `replace` is not set. `active_keys` is
 * recounted from the key items afterwards, so the plan's key limit counts what is really active.
 */
export async function restoreItems(
  raw: DynamoDBClient,
  tableName: string,
  items: readonly JsonItem[],
  options: RestoreOptions,
): Promise<RestoreResult> {
  const existing = await scanExisting(raw, tableName);
  let existingAccounts = 0;
  let existingKeys = 0;
  for (const pk of existing.keys()) {
    if (pk.startsWith(ACCOUNTS_KEY_PREFIXES.account)) existingAccounts++;
    else if (pk.startsWith(ACCOUNTS_KEY_PREFIXES.key)) existingKeys++;
  }
  const replaced = items.filter((item) => existing.has(pkOf(item))).length;
  if (!options.replace && existingAccounts + existingKeys > 0) {
    throw new BackupRefusedError(
      'target-not-empty',
      `${capitalized(options.description)} already holds ${plural(existingAccounts, 'account')} and ${plural(existingKeys, 'key')} (${replaced} of its items have the same keys as items of the backup); nothing was written. Restore into an empty store, or pass --replace to overwrite those items.`,
    );
  }

  // The key items after the restore: the table's, with the backup's written over them.
  const keys = new Map<string, { account?: string; revoked: boolean }>();
  for (const [pk, item] of existing) if (pk.startsWith(ACCOUNTS_KEY_PREFIXES.key)) keys.set(pk, item);
  for (const item of items) {
    const pk = pkOf(item);
    if (!pk.startsWith(ACCOUNTS_KEY_PREFIXES.key)) continue;
    const account = item.key_account_id;
    const revoked = item.revoked_at;
    keys.set(pk, {
      ...(account && 'S' in account ? { account: account.S } : {}),
      revoked: revoked !== undefined && !('NULL' in revoked),
    });
  }
  const active = new Map<string, number>();
  for (const key of keys.values()) {
    if (key.account !== undefined && !key.revoked) active.set(key.account, (active.get(key.account) ?? 0) + 1);
  }
  const countOf = (accountId: string) => String(active.get(accountId) ?? 0);

  let corrected = 0;
  const restoredAccounts = new Set<string>();
  const requests: WriteRequest[] = items.map((item) => {
    const pk = pkOf(item);
    const written = fromJsonItem(item);
    if (pk.startsWith(ACCOUNTS_KEY_PREFIXES.account)) {
      const accountId = accountIdOf(pk);
      restoredAccounts.add(accountId);
      const count = countOf(accountId);
      const stored = item.active_keys;
      if (!stored || !('N' in stored) || Number(stored.N) !== Number(count)) corrected++;
      written.active_keys = { N: count };
    }
    return { PutRequest: { Item: written } };
  });
  await batchWrite(raw, tableName, requests, options);

  // Accounts the table kept whose keys the backup changed: their count set likewise.
  let recounted = restoredAccounts.size;
  for (const [pk, item] of existing) {
    if (!pk.startsWith(ACCOUNTS_KEY_PREFIXES.account) || restoredAccounts.has(accountIdOf(pk))) continue;
    const count = countOf(accountIdOf(pk));
    if (item.activeKeys !== undefined && Number(item.activeKeys) === Number(count)) continue;
    await raw.send(
      new UpdateItemCommand({
        TableName: tableName,
        Key: { pk: { S: pk } },
        UpdateExpression: 'SET #keys = :count',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#keys': 'active_keys' },
        ExpressionAttributeValues: { ':count': { N: count } },
      }),
    );
    recounted++;
    corrected++;
  }
  return { counts: countItems(items), itemsWritten: items.length, replaced, recounted, corrected };
}
