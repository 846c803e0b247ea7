/**
 * Characters echoed as they are: printable ASCII, and the letters, digits and marks of any script, unless they are
 * default-ignorable (shown as nothing: the Hangul filler, variation selectors, the combining grapheme joiner).
 */
const SHOWN = /^[\x20-\x7e]$|^(?!\p{Default_Ignorable_Code_Point})[\p{L}\p{N}\p{M}]$/u;

/** One code point written as `\u{XXXX}`: upper-case hex, at least four digits. */
function escapeCodePoint(char: string): string {
  const hex = (char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
  return `\\u{${hex}}`;
}

/**
 * Echoes outside text (user input, upstream data, identifiers) in a message as a short token that shows what was
 * sent and cannot disturb whatever displays or stores the message. Printable ASCII and the letters, digits and marks
 * of any script stay as they are ('ÉUR', '円'); every other code point is written as `\u{XXXX}`: control characters,
 * bidi overrides and isolates, zero-width and other format or invisible characters, lone surrogates, private use,
 * symbols and emoji, whitespace other than a space. At most `maxLength` code points of `text` are shown (an escape
 * counts as the one code point it stands for; a surrogate pair is never split), followed by `…` when there is more.
 */
export function printable(text: string, maxLength: number): string {
  let shown = '';
  let count = 0;
  // Iterating a string visits code points: a surrogate pair comes as one, a lone surrogate alone.
  for (const char of text) {
    if (count >= maxLength) return `${shown}…`;
    shown += SHOWN.test(char) ? char : escapeCodePoint(char);
    count += 1;
  }
  return shown;
}
