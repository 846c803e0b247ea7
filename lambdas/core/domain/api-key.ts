import { hash } from 'node:crypto';
import { crc32 as zlibCrc32 } from 'node:zlib';

/**
 * Key format: `fxr_` + 32 base62 characters of randomness + 6 base62 characters of the CRC32 of those 32.
 * The checksum lets the authorizer refuse typos and garbage without a database read.
 */
export const KEY_PREFIX = 'fxr_';
export const KEY_RANDOM_LENGTH = 32;
export const KEY_CHECKSUM_LENGTH = 6;
export const KEY_LENGTH = KEY_PREFIX.length + KEY_RANDOM_LENGTH + KEY_CHECKSUM_LENGTH;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_PATTERN = new RegExp(`^${KEY_PREFIX}[0-9A-Za-z]{${KEY_RANDOM_LENGTH + KEY_CHECKSUM_LENGTH}}$`);

/** CRC-32 (IEEE) of the text's UTF-8 bytes, as an unsigned 32-bit integer. */
export function crc32(text: string): number {
  return zlibCrc32(text);
}

function base62Fixed(value: number, width: number): string {
  let out = '';
  let rest = value;
  for (let i = 0; i < width; i++) {
    out = BASE62[rest % 62] + out;
    rest = Math.floor(rest / 62);
  }
  return out;
}

export type RandomBytes = (size: number) => Uint8Array;

/** Draws base62 characters without modulo bias: bytes of 248 and above are discarded. */
export function randomBase62(length: number, randomBytes: RandomBytes): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

export function generateApiKey(randomBytes: RandomBytes): string {
  const random = randomBase62(KEY_RANDOM_LENGTH, randomBytes);
  return `${KEY_PREFIX}${random}${base62Fixed(crc32(random), KEY_CHECKSUM_LENGTH)}`;
}

export function isWellFormedApiKey(key: string): boolean {
  if (key.length !== KEY_LENGTH || !KEY_PATTERN.test(key)) return false;
  const random = key.slice(KEY_PREFIX.length, KEY_PREFIX.length + KEY_RANDOM_LENGTH);
  const checksum = key.slice(KEY_PREFIX.length + KEY_RANDOM_LENGTH);
  return base62Fixed(crc32(random), KEY_CHECKSUM_LENGTH) === checksum;
}

/** The only form in which a key is stored. */
// crypto.hash, not createHash: one call and no Hash object, about half the time for a key (the authorizer's hot path).
export function hashApiKey(key: string): string {
  return hash('sha256', key, 'hex');
}

/** What stays secret (28 random characters, about 166 bits) is still far beyond guessing. */
export const KEY_DISPLAY_PREFIX_LENGTH = KEY_PREFIX.length + 4;

export function displayPrefix(key: string): string {
  return key.slice(0, KEY_DISPLAY_PREFIX_LENGTH);
}

/** Random characters of an account or key id (`acc_…`, `key_…`). */
export const ACCOUNT_ID_RANDOM_LENGTH = 16;

/** Derived from the Cognito `sub`: no lookup item, and two first requests racing create one account. */
export function accountIdForOwner(sub: string): string {
  const digest = hash('sha256', `owner:${sub}`, 'buffer');
  let id = '';
  for (const byte of digest) {
    if (id.length === ACCOUNT_ID_RANDOM_LENGTH) break;
    id += BASE62[byte % 62];
  }
  return `acc_${id}`;
}
