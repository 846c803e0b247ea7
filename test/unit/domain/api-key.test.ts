import { createHash, randomBytes } from 'node:crypto';
import { crc32 as zlibCrc32 } from 'node:zlib';
import fc from 'fast-check';
import {
  accountIdForOwner,
  crc32,
  generateApiKey,
  hashApiKey,
  isWellFormedApiKey,
  KEY_CHECKSUM_LENGTH,
  KEY_LENGTH,
  KEY_PREFIX,
  KEY_RANDOM_LENGTH,
} from '../../../lambdas/core/domain/api-key';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const cryptoBytes = (size: number): Uint8Array => randomBytes(size);

/** A random source that replays the given bytes, then zeros, and records how much was asked for. */
function replay(bytes: number[]) {
  const queue = [...bytes];
  const requests: number[] = [];
  const source = (size: number): Uint8Array => {
    requests.push(size);
    return Uint8Array.from({ length: size }, () => queue.shift() ?? 0);
  };
  return { source, requests };
}

/** The contract's checksum, written out independently: CRC-32 of the random part in 6 base62 digits. */
function expectedChecksum(random: string): string {
  let rest = zlibCrc32(random);
  let out = '';
  for (let i = 0; i < KEY_CHECKSUM_LENGTH; i++) {
    out = BASE62.charAt(rest % 62) + out;
    rest = Math.floor(rest / 62);
  }
  return out;
}

describe('generateApiKey', () => {
  it('makes 42-character keys: fxr_, 32 base62 characters of randomness, 6 of checksum', () => {
    expect(KEY_LENGTH).toBe(42);
    for (let i = 0; i < 200; i++) {
      const key = generateApiKey(cryptoBytes);
      expect(key).toHaveLength(42);
      expect(key).toMatch(/^fxr_[0-9A-Za-z]{38}$/);
      const random = key.slice(4, 4 + KEY_RANDOM_LENGTH);
      expect(key.slice(4 + KEY_RANDOM_LENGTH)).toBe(expectedChecksum(random));
      expect(isWellFormedApiKey(key)).toBe(true);
    }
  });

  it('makes a different key each time from a real random source', () => {
    const keys = new Set(Array.from({ length: 500 }, () => generateApiKey(cryptoBytes)));
    expect(keys.size).toBe(500);
  });

  it('is deterministic for injected randomness, each byte below 248 giving BASE62[byte % 62]', () => {
    const bytes = Array.from({ length: 32 }, (_, i) => i * 7);
    const first = generateApiKey(replay(bytes).source);
    const second = generateApiKey(replay(bytes).source);
    const random = bytes.map((b) => BASE62.charAt(b % 62)).join('');
    expect(first).toBe(second);
    expect(first).toBe(`${KEY_PREFIX}${random}${expectedChecksum(random)}`);
  });

  it('discards bytes of 248 and above so that every character is equally likely', () => {
    // 248 = 4 × 62: bytes 0..247 cover each character exactly four times; 248..255 would favour '0'..'7'.
    const bytes = [248, 0, 255, 61, 249, 62, 250, 247, 251, 252, 253, 254, 123, 124];
    const key = generateApiKey(replay(bytes).source);
    // Kept: 0, 61, 62, 247, 123, 124 → '0', 'z', '0', 'z', 'z', '0'.
    expect(key.slice(4, 10)).toBe('0z0zz0');
  });

  it('asks for more bytes when a whole draw is discarded', () => {
    const rejected = Array.from({ length: 64 }, () => 255);
    const { source, requests } = replay([...rejected, 5, 6, 7]);
    const key = generateApiKey(source);
    expect(requests.length).toBeGreaterThan(1);
    expect(key.slice(4, 7)).toBe('567');
    expect(isWellFormedApiKey(key)).toBe(true);
  });

  it('uses every base62 character for uniform bytes', () => {
    const seen = new Set<string>();
    for (let round = 0; round < 8; round++) {
      const bytes = Array.from({ length: 32 }, (_, i) => (round * 32 + i) % 248);
      for (const c of generateApiKey(replay(bytes).source).slice(4, 36)) seen.add(c);
    }
    expect(seen.size).toBe(62);
  });
});

describe('isWellFormedApiKey', () => {
  const key = generateApiKey(replay(Array.from({ length: 32 }, (_, i) => (i * 37) % 248)).source);

  it('accepts a generated key', () => {
    expect(isWellFormedApiKey(key)).toBe(true);
  });

  it('refuses every single-character change of the random part or the checksum', () => {
    const accepted: string[] = [];
    let tried = 0;
    for (let position = KEY_PREFIX.length; position < KEY_LENGTH; position++) {
      for (const replacement of BASE62) {
        if (replacement === key[position]) continue;
        const changed = `${key.slice(0, position)}${replacement}${key.slice(position + 1)}`;
        tried++;
        if (isWellFormedApiKey(changed)) accepted.push(changed);
      }
    }
    expect(tried).toBe((KEY_LENGTH - KEY_PREFIX.length) * 61);
    expect(accepted).toEqual([]);
  });

  it('refuses single-character changes of random keys (property)', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 64, maxLength: 64 }),
        fc.integer({ min: KEY_PREFIX.length, max: KEY_LENGTH - 1 }),
        fc.integer({ min: 1, max: 61 }),
        (bytes, position, shift) => {
          const original = generateApiKey(replay([...bytes]).source);
          const at = BASE62.indexOf(original.charAt(position));
          const replacement = BASE62.charAt((at + shift) % 62);
          const changed = `${original.slice(0, position)}${replacement}${original.slice(position + 1)}`;
          expect(isWellFormedApiKey(original)).toBe(true);
          expect(isWellFormedApiKey(changed)).toBe(false);
        },
      ),
    );
  });

  it('refuses a wrong prefix', () => {
    const body = key.slice(KEY_PREFIX.length);
    for (const prefix of ['fxs_', 'FXR_', 'fxr-', 'xfr_', 'sk__']) {
      expect(isWellFormedApiKey(`${prefix}${body}`)).toBe(false);
    }
  });

  it('refuses a key one character too short or too long', () => {
    expect(isWellFormedApiKey(key.slice(0, -1))).toBe(false);
    expect(isWellFormedApiKey(`${key}0`)).toBe(false);
    expect(isWellFormedApiKey(`${key.slice(0, 4)}0${key.slice(4)}`)).toBe(false);
    expect(isWellFormedApiKey('')).toBe(false);
    expect(isWellFormedApiKey(KEY_PREFIX)).toBe(false);
  });

  it('refuses characters outside base62 even where the checksum would match', () => {
    const random = `${'A'.repeat(31)}-`;
    expect(isWellFormedApiKey(`${KEY_PREFIX}${random}${expectedChecksum(random)}`)).toBe(false);
    const spaced = ` ${key.slice(1)}`;
    expect(isWellFormedApiKey(spaced)).toBe(false);
    expect(isWellFormedApiKey(`${key.slice(0, 41)}\n`)).toBe(false);
  });

  it('refuses arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (text) => {
        expect(isWellFormedApiKey(text)).toBe(false);
      }),
    );
  });
});

describe('crc32', () => {
  it('matches the published CRC-32 check values', () => {
    expect(crc32('123456789')).toBe(0xcbf43926);
    expect(crc32('')).toBe(0);
    expect(crc32('The quick brown fox jumps over the lazy dog')).toBe(0x414fa339);
  });

  it('matches the CRC-32 of the UTF-8 bytes for any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), (text) => {
        expect(crc32(text)).toBe(zlibCrc32(Buffer.from(text, 'utf8')));
      }),
    );
  });

  it('returns an unsigned 32-bit integer', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const value = crc32(text);
        expect(Number.isInteger(value)).toBe(true);
        expect(value).toBeGreaterThanOrEqual(0);
        expect(value).toBeLessThan(2 ** 32);
      }),
    );
  });
});

describe('hashApiKey', () => {
  it('is the lower-case hex SHA-256 of the key', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 64 }), (text) => {
        const hash = hashApiKey(text);
        expect(hash).toBe(createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex'));
        expect(hash).toMatch(/^[0-9a-f]{64}$/);
      }),
    );
  });

  it('matches the SHA-256 test vector for "abc"', () => {
    expect(hashApiKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('does not contain the key', () => {
    const key = generateApiKey(cryptoBytes);
    expect(hashApiKey(key)).not.toContain(key.slice(4));
  });
});

describe('accountIdForOwner', () => {
  it("derives the same id from a Cognito sub as before, so an owner's account is found again", () => {
    expect(accountIdForOwner('5f0c3b2e-9a41-4c7d-b2e8-1d6f0a9c3e77')).toBe('acc_jRHpJQv86geVqI1a');
    expect(accountIdForOwner('another-sub')).not.toBe(accountIdForOwner('5f0c3b2e-9a41-4c7d-b2e8-1d6f0a9c3e77'));
  });
});
