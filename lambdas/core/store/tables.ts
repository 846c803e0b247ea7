/**
 * The two DynamoDB tables, defined once: the CDK data construct and the local bootstrap both read this.
 * Names are not fixed here: CDK generates them, and functions learn them from these environment variables.
 */
export interface TableDefinition {
  /** Logical id in CDK and the default local table name. */
  id: string;
  /** Environment variable carrying the physical table name into functions and tools. */
  envVar: string;
  partitionKey: string;
  /** Attribute holding an epoch-seconds expiry, if the table uses TTL. */
  ttlAttribute?: string;
  /** Sparse global secondary indexes (string partition key, all attributes projected). */
  indexes: readonly { name: string; partitionKey: string }[];
}

export const RATES_TABLE: TableDefinition = {
  id: 'Rates',
  envVar: 'RATES_TABLE_NAME',
  partitionKey: 'pk',
  indexes: [],
};

/**
 * The accounts table's indexes, which only key items populate: an account's keys, and a key by its public id.
 * Plain constants, not an object: a property read would keep ACCOUNTS_TABLE in bundles that never use it.
 */
export const KEYS_BY_ACCOUNT_INDEX = 'keys-by-account';
export const KEYS_BY_ID_INDEX = 'keys-by-id';
export type AccountsIndex = typeof KEYS_BY_ACCOUNT_INDEX | typeof KEYS_BY_ID_INDEX;

export const ACCOUNTS_TABLE: TableDefinition = {
  id: 'Accounts',
  envVar: 'ACCOUNTS_TABLE_NAME',
  partitionKey: 'pk',
  ttlAttribute: 'expires_at',
  indexes: [
    { name: KEYS_BY_ACCOUNT_INDEX, partitionKey: 'key_account_id' },
    { name: KEYS_BY_ID_INDEX, partitionKey: 'key_id' },
  ],
};

export const TABLES = [RATES_TABLE, ACCOUNTS_TABLE] as const;

export const LATEST_KEY = 'LATEST';
/** One item with each source's last delivery (GET /v1/sources); ingestion updates one attribute per source. */
export const SOURCES_KEY = 'SOURCES';
export const dayKey = (day: string): string => `DAY#${day}`;
/** One currency's EUR rates over one calendar year: one attribute `dMMDD` per day that has a rate. */
export const SERIES_KEY_PREFIX = 'SERIES#';
export const seriesKey = (code: string, year: number): string => `${SERIES_KEY_PREFIX}${code}#${year}`;
/** Which version of the series items the table holds; written after a full rebuild (backfillSeries). */
export const SERIES_META_KEY = 'META#series';

/** Partition key prefixes, read by the key builders below and by the IAM grants (`dynamodb:LeadingKeys`). */
export const ACCOUNTS_KEY_PREFIXES = { account: 'ACCOUNT#', key: 'KEY#', usage: 'USAGE#' } as const;
export type AccountsItemKind = keyof typeof ACCOUNTS_KEY_PREFIXES;

export const accountKey = (accountId: string): string => `${ACCOUNTS_KEY_PREFIXES.account}${accountId}`;
export const apiKeyKey = (sha256: string): string => `${ACCOUNTS_KEY_PREFIXES.key}${sha256}`;
export const usageKey = (accountId: string, month: string): string =>
  `${ACCOUNTS_KEY_PREFIXES.usage}${accountId}#${month}`;

/** The IAM `StringLike` patterns of every partition key of these kinds of item: each kind's prefix, then `*`. */
export const accountsItemPatterns = (kinds: readonly AccountsItemKind[]): string[] =>
  kinds.map((kind) => `${ACCOUNTS_KEY_PREFIXES[kind]}*`);
