import fc from 'fast-check';
import { printable } from '../../../lambdas/core/domain/text';

/** The text `printable` stands for: each `\u{XXXX}` read back as its code point (inputs without a backslash only). */
const readBack = (shown: string): string =>
  shown.replace(/\\u\{([0-9A-F]{4,6})\}/g, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)));

/** What a token may consist of: printable ASCII, letters, digits and marks, and the ellipsis. */
const SAFE = /^[\x20-\x7e\p{L}\p{N}\p{M}…]*$/u;

describe('printable: outside text echoed in a message', () => {
  it('keeps printable ASCII as it is', () => {
    expect(printable("USD 'x' {}", 16)).toBe("USD 'x' {}");
  });

  it.each([
    ['ÉUR', 'ÉUR'],
    ['円', '円'],
    ['ınr', 'ınr'],
    ['ДОЛ', 'ДОЛ'],
    ['١٢٣', '١٢٣'],
    ['e\u0301', 'e\u0301'],
  ])('shows the letters, digits and marks of any script as they are: %p', (input, shown) => {
    expect(printable(input, 16)).toBe(shown);
  });

  it.each([
    ['a right-to-left override', 'U\u202eSD', 'U\\u{202E}SD'],
    ['NUL', 'A\u0000B', 'A\\u{0000}B'],
    ['line breaks and a tab', 'a\nb\r\tc', 'a\\u{000A}b\\u{000D}\\u{0009}c'],
    ['bidi isolates', '\u2066x\u2069', '\\u{2066}x\\u{2069}'],
    ['zero-width characters and a BOM', 'a\u200bb\u200dc\ufeff', 'a\\u{200B}b\\u{200D}c\\u{FEFF}'],
    ['whitespace other than a space', 'a\u00a0b\u2028c', 'a\\u{00A0}b\\u{2028}c'],
    ['private use', '\ue000', '\\u{E000}'],
    ['an invisible letter (Hangul filler)', 'a\u3164b', 'a\\u{3164}b'],
    ['a symbol', '€$', '\\u{20AC}$'],
  ])('escapes %s', (_what, input, shown) => {
    expect(printable(input, 16)).toBe(shown);
  });

  it('shows exactly the ASCII characters from space to tilde and escapes the other 33 (controls and DEL)', () => {
    const ascii = Array.from({ length: 0x80 }, (_, code) => String.fromCharCode(code));
    const shown = ascii.filter((char) => printable(char, 1) === char);
    expect(shown.join('')).toBe(ascii.slice(0x20, 0x7f).join(''));
    expect(printable('\u001f\u007f', 2)).toBe('\\u{001F}\\u{007F}');
  });

  it('escapes an emoji as one code point, never as two halves', () => {
    expect(printable('💶', 16)).toBe('\\u{1F4B6}');
    expect(printable('a👍🏽b', 16)).toBe('a\\u{1F44D}\\u{1F3FD}b');
  });

  it('escapes a lone surrogate, high or low', () => {
    expect(printable('A\ud800B', 16)).toBe('A\\u{D800}B');
    expect(printable('\udfff', 16)).toBe('\\u{DFFF}');
  });

  it('shows at most maxLength code points, then an ellipsis', () => {
    const long = 'A'.repeat(300);
    expect(printable(long, 16)).toBe(`${'A'.repeat(16)}…`);
    expect(printable('A'.repeat(16), 16)).toBe('A'.repeat(16));
    expect(printable('円'.repeat(300), 3)).toBe('円円円…');
  });

  it('counts code points when truncating, so a surrogate pair is never split', () => {
    // 16 UTF-16 units but 8 code points: all shown.
    expect(printable('💶'.repeat(8), 8)).toBe('\\u{1F4B6}'.repeat(8));
    expect(printable(`${'A'.repeat(15)}💶B`, 16)).toBe(`${'A'.repeat(15)}\\u{1F4B6}…`);
    expect(printable(`${'A'.repeat(15)}💶`, 16)).toBe(`${'A'.repeat(15)}\\u{1F4B6}`);
  });

  it('is safe and reads back as the first maxLength code points of any input (property)', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ unit: 'binary', maxLength: 40 }), fc.string({ unit: 'grapheme', maxLength: 40 })),
        fc.integer({ min: 0, max: 30 }),
        (input, maxLength) => {
          const shown = printable(input, maxLength);
          expect(shown).toMatch(SAFE);
          expect(shown).not.toMatch(/\p{Default_Ignorable_Code_Point}/u);
          const points = [...input];
          const truncated = points.length > maxLength;
          expect(shown.endsWith('…')).toBe(truncated);
          if (!input.includes('\\')) {
            expect(readBack(truncated ? shown.slice(0, -1) : shown)).toBe(points.slice(0, maxLength).join(''));
          }
        },
      ),
    );
  });
});
