/**
 * An independent oracle for the rate math: exact rationals over BigInt, so the tests do not check big.js against
 * itself. Only what the rate tests need: parse a decimal (or a JS number's shortest text), divide, multiply,
 * round half-even to significant digits or decimal places, and print a plain decimal.
 */
export interface Rational {
  num: bigint;
  den: bigint;
}

const TEN = 10n;

function pow10(exponent: number): bigint {
  return TEN ** BigInt(exponent);
}

/** Parses `123.45`, `1e-7`, `1.5e+21` (and so any `String(number)`) exactly. */
export function parseDecimal(text: string): Rational {
  const m = /^(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i.exec(text);
  if (!m) throw new RangeError(`not a decimal: ${text}`);
  const digits = BigInt(`${m[1]}${m[2] ?? ''}`);
  const scale = (m[2] ?? '').length - Number(m[3] ?? '0');
  return scale >= 0 ? { num: digits, den: pow10(scale) } : { num: digits * pow10(-scale), den: 1n };
}

export const ofNumber = (value: number): Rational => parseDecimal(String(value));

export function divide(a: Rational, b: Rational): Rational {
  return { num: a.num * b.den, den: a.den * b.num };
}

export function multiply(a: Rational, b: Rational): Rational {
  return { num: a.num * b.num, den: a.den * b.den };
}

/** floor(num/den) rounded half-even by the remainder. */
function roundHalfEven(num: bigint, den: bigint): bigint {
  const q = num / den;
  const twice = 2n * (num % den);
  if (twice > den || (twice === den && q % 2n === 1n)) return q + 1n;
  return q;
}

/** `coefficient × 10^-scale` as a plain decimal with no trailing fraction zeros. */
function plain(coefficient: bigint, scale: number): string {
  if (scale <= 0) return (coefficient * pow10(-scale)).toString();
  const digits = coefficient.toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

/** A positive rational rounded half-even to `digits` significant digits, as a plain decimal. */
export function toSignificant(value: Rational, digits: number): string {
  if (value.num <= 0n || value.den <= 0n) throw new RangeError('positive values only');
  // Choose the scale so the integer part of value × 10^scale has exactly `digits` digits.
  let scale = digits - (value.num.toString().length - value.den.toString().length) - 1;
  const low = pow10(digits - 1);
  const high = pow10(digits);
  for (;;) {
    const scaled = scale >= 0 ? (value.num * pow10(scale)) / value.den : value.num / (value.den * pow10(-scale));
    if (scaled < low) scale++;
    else if (scaled >= high) scale--;
    else break;
  }
  const num = scale >= 0 ? value.num * pow10(scale) : value.num;
  const den = scale >= 0 ? value.den : value.den * pow10(-scale);
  return plain(roundHalfEven(num, den), scale);
}

/** A non-negative rational rounded half-even to `places` decimal places, as a plain decimal. */
export function toPlaces(value: Rational, places: number): string {
  return plain(roundHalfEven(value.num * pow10(places), value.den), places);
}

/** Significant digits of a JS number as JSON would print it (`1.2e-7` → 2, `113000` → 3). */
export function significantDigits(value: number): number {
  const mantissa = String(Math.abs(value)).split(/e/i)[0] ?? '';
  return mantissa.replace('.', '').replace(/^0+/, '').replace(/0+$/, '').length;
}
