/**
 * Characters echoed as they are besides printable ASCII: the letters, digits and marks of any script, unless they
 * are default-ignorable (shown as nothing: the Hangul filler, variation selectors, the combining grapheme joiner).
 * Built at the first character outside ASCII, not at load.
 */
// Why: docs/clever-parts.md#unicode-pattern-built-on-first-use
let shownBeyondAscii: RegExp | undefined;

function isShown(char: string): boolean {
  const code = char.charCodeAt(0);
  if (code < 0x80) return code >= 0x20 && code <= 0x7e;
  shownBeyondAscii ??= /^(?!\p{Default_Ignorable_Code_Point})[\p{L}\p{N}\p{M}]$/u;
  return shownBeyondAscii.test(char);
}

/** One code point written as `\u{XXXX}`: upper-case hex, at least four digits. */
function escapeCodePoint(char: string): string {
  const hex = (char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
  return `\\u{${hex}}`;
}

/**
 * Outside text in a message as a short token that shows what was sent and cannot disturb whatever displays or
 * stores it: every code point not echoed as it is becomes `\u{XXXX}` (controls, bidi, invisibles, emoji, …). At most
 * `maxLength` code points (a surrogate pair is never split), then `…`.
 */
export function printable(text: string, maxLength: number): string {
  let shown = '';
  let count = 0;
  // Iterating a string visits code points: a surrogate pair comes as one, a lone surrogate alone.
  for (const char of text) {
    if (count >= maxLength) return `${shown}…`;
    shown += isShown(char) ? char : escapeCodePoint(char);
    count += 1;
  }
  return shown;
}
