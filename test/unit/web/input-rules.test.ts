import {
  keyNameMessage,
  looksLikeEmail,
  normalizeCode,
  normalizeEmail,
  passwordMessage,
  passwordProblems,
} from '../../../web/src/input-rules';

describe('the password policy (12 characters, lower case, upper case, digit)', () => {
  it('accepts a password that meets every rule', () => {
    expect(passwordProblems('Correct1horse')).toEqual([]);
    expect(passwordMessage('Correct1horse')).toBeNull();
  });

  it('lists every rule a password misses', () => {
    expect(passwordProblems('short')).toEqual(['at least 12 characters', 'an upper-case letter', 'a digit']);
    expect(passwordProblems('ALLUPPERCASE1')).toEqual(['a lower-case letter']);
    expect(passwordProblems('alllowercase1')).toEqual(['an upper-case letter']);
  });

  it('says what is missing in one sentence', () => {
    expect(passwordMessage('short')).toBe(
      'The password needs at least 12 characters, an upper-case letter and a digit.',
    );
    expect(passwordMessage('Elevenchar1')).toBe('The password needs at least 12 characters.');
  });
});

describe('addresses and codes as typed', () => {
  it('trims and lower-cases the address, so sign-in finds the account made at sign-up', () => {
    expect(normalizeEmail('  Ann@Example.COM ')).toBe('ann@example.com');
  });

  it('accepts something@something.tld and refuses the rest', () => {
    expect(looksLikeEmail('ann@example.com')).toBe(true);
    expect(looksLikeEmail('ann@example')).toBe(false);
    expect(looksLikeEmail('ann example.com')).toBe(false);
    expect(looksLikeEmail('')).toBe(false);
  });

  it('drops the spaces and dashes people paste into codes', () => {
    expect(normalizeCode(' 123 456 ')).toBe('123456');
    expect(normalizeCode('123-456')).toBe('123456');
  });
});

describe('key names (1 to 64 printable ASCII characters after trimming)', () => {
  it('accepts a plain name', () => {
    expect(keyNameMessage('my laptop')).toBeNull();
    expect(keyNameMessage(`  ${'x'.repeat(64)}  `)).toBeNull();
  });

  it('refuses an empty, a too long and a non-ASCII name, each with its reason', () => {
    expect(keyNameMessage('   ')).toMatch(/Give the key a name/);
    expect(keyNameMessage('x'.repeat(65))).toBe('The name is 65 characters long; use at most 64.');
    expect(keyNameMessage('café')).toMatch(/unaccented/);
    expect(keyNameMessage('tab\there')).toMatch(/unaccented/);
  });
});
