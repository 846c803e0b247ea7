/**
 * cognito-local stores passwords and refresh tokens as given, in files anyone reading the data directory could
 * read; here a password is a salted scrypt hash (a person may choose a guessable one) and a refresh token its
 * SHA-256 (a long random value: nothing to guess).
 */
import { createHash, randomBytes, scrypt, scryptSync, timingSafeEqual } from 'node:crypto';
import type { DataStore } from 'cognito-local/lib/services/dataStore/dataStore.js';
import type { DataStoreFactory } from 'cognito-local/lib/services/dataStore/factory.js';

/** scrypt's cost: N = 2^14, r = 8, p = 1 (Node's defaults, 16 MiB and a few tens of milliseconds a check). */
const COST = { N: 16_384, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;
const PASSWORD_HASH = /^scrypt\$(\d+)\$(\d+)\$(\d+)\$([A-Za-z0-9_-]{22})\$([A-Za-z0-9_-]{43})$/;
const TOKEN_HASH = /^sha256\$[0-9a-f]{64}$/;

function scryptAsync(secret: string, salt: Buffer, cost: { N: number; r: number; p: number }): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(secret, salt, KEY_LENGTH, { ...cost, maxmem: 64 * 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

function formatHash(salt: Buffer, key: Buffer): string {
  return `scrypt$${COST.N}$${COST.r}$${COST.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

function isPasswordHash(value: unknown): value is string {
  return typeof value === 'string' && PASSWORD_HASH.test(value);
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  return formatHash(salt, await scryptAsync(password, salt, COST));
}

/** For the rare password cognito-local makes itself (an administrator's temporary one), at the moment it is stored. */
function hashPasswordSync(password: string): string {
  const salt = randomBytes(SALT_LENGTH);
  return formatHash(salt, scryptSync(password, salt, KEY_LENGTH, COST));
}

/** A hash of nothing anyone can type, checked against when no user matches, so that both cases take as long. */
const DECOY = hashPasswordSync(randomBytes(32).toString('base64url'));

/** Whether `password` is the one `stored` was made from; a missing or malformed hash never matches. */
export async function passwordMatches(password: string, stored: unknown): Promise<boolean> {
  const parts = PASSWORD_HASH.exec(isPasswordHash(stored) ? stored : DECOY);
  if (!parts) return false;
  const [, n, r, p, salt = '', key = ''] = parts;
  const expected = Buffer.from(key, 'base64url');
  const cost = { N: Number(n), r: Number(r), p: Number(p) };
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64url'), cost);
  return timingSafeEqual(actual, expected) && isPasswordHash(stored);
}

export function hashRefreshToken(token: string): string {
  return `sha256$${createHash('sha256').update(token).digest('hex')}`;
}

interface StoredUser {
  Password?: unknown;
  RefreshTokens?: unknown;
}

/** The user as it may be written: its password hashed if it is not a hash yet, its refresh tokens likewise. */
function withoutSecrets<T extends StoredUser>(user: T): T {
  const password = user.Password;
  const tokens = user.RefreshTokens;
  return {
    ...user,
    ...(typeof password === 'string' && !isPasswordHash(password) ? { Password: hashPasswordSync(password) } : {}),
    ...(Array.isArray(tokens)
      ? {
          RefreshTokens: tokens.map((token: unknown) =>
            typeof token === 'string' && !TOKEN_HASH.test(token) ? hashRefreshToken(token) : token,
          ),
        }
      : {}),
  };
}

function isUserKey(key: string | string[]): boolean {
  return Array.isArray(key) && key.length === 2 && key[0] === 'Users';
}

/** Synchronous up to the store's own write, so no other request's save can come between. */
export function secretFreeDataStores(inner: DataStoreFactory): DataStoreFactory {
  return {
    async create(ctx, id, defaults) {
      const store = await inner.create(ctx, id, defaults);
      const wrapped: DataStore = {
        delete: (c, key) => store.delete(c, key),
        get: ((c: Parameters<DataStore['get']>[0], key: string | string[], fallback?: unknown) =>
          fallback === undefined ? store.get(c, key) : store.get(c, key, fallback)) as DataStore['get'],
        getRoot: (c) => store.getRoot(c),
        set: (c, key, value) =>
          store.set(
            c,
            key,
            isUserKey(key) && typeof value === 'object' && value !== null ? withoutSecrets(value) : value,
          ),
      };
      return wrapped;
    },
  };
}
