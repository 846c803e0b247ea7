/**
 * What the Cognito emulator keeps of a password and of a refresh token: never the thing itself. cognito-local
 * stores both as given in its JSON files (`cognito/db/<pool>.json`), where anyone who reads the data directory
 * would find every dashboard password; here a password is kept as a salted scrypt hash and a refresh token as its
 * SHA-256, and the emulator compares what a request brings against those.
 *
 * A refresh token is a long random value the emulator made, so one unsalted SHA-256 is enough: nobody can guess
 * one back from its hash. A password is chosen by a person and may be guessed, hence the salt and scrypt's cost.
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

/**
 * cognito-local's data stores, with every user passed through `withoutSecrets` on its way in: whatever target
 * saves a user, its file (and the copy in memory the file is written from) holds no password and no refresh token.
 * The work is synchronous up to the store's own write, so no other request's save can come between.
 */
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
