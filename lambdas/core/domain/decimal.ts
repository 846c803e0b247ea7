/**
 * Exact decimal arithmetic over BigInt, just what the rate math needs; it reproduces the big.js setup it replaced
 * (quotients to 40 places, half-even, no exponent notation) digit for digit.
 */
// Why: docs/clever-parts.md#decimal-arithmetic-over-bigint

/** `coefficient × 10^exponent`. */
export interface Decimal {
  coefficient: bigint;
  exponent: number;
}

/** Decimal places of a quotient before any further rounding, as big.js's `DP` was set. */
export const QUOTIENT_PLACES = 40;

const DECIMAL_TEXT = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i;

const pow10 = (exponent: number): bigint => 10n ** BigInt(exponent);

/** A plain or exponent-notation decimal (`12.5`, `1e-7`), or a finite number read through its shortest text. */
export function decimal(value: string | number): Decimal {
  const m = DECIMAL_TEXT.exec(String(value));
  if (!m || (typeof value === 'number' && !Number.isFinite(value))) throw new RangeError(`not a decimal: ${value}`);
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = m;
  const magnitude = BigInt(`${whole}${fraction}`);
  return { coefficient: sign ? -magnitude : magnitude, exponent: Number(exponent) - fraction.length };
}

/** `num / den` rounded to an integer, half to even; `den` is positive. */
function divideHalfEven(num: bigint, den: bigint): bigint {
  const negative = num < 0n;
  const magnitude = negative ? -num : num;
  let quotient = magnitude / den;
  const twiceRemainder = 2n * (magnitude % den);
  if (twiceRemainder > den || (twiceRemainder === den && quotient % 2n === 1n)) quotient += 1n;
  return negative ? -quotient : quotient;
}

export function multiply(a: Decimal, b: Decimal): Decimal {
  return { coefficient: a.coefficient * b.coefficient, exponent: a.exponent + b.exponent };
}

export function subtract(a: Decimal, b: Decimal): Decimal {
  const exponent = Math.min(a.exponent, b.exponent);
  return {
    coefficient: a.coefficient * pow10(a.exponent - exponent) - b.coefficient * pow10(b.exponent - exponent),
    exponent,
  };
}

/** `a / b` rounded half-even to `places` decimal places. */
export function divide(a: Decimal, b: Decimal, places: number = QUOTIENT_PLACES): Decimal {
  if (b.coefficient === 0n) throw new RangeError('division by zero');
  const shift = a.exponent - b.exponent + places;
  let num = shift >= 0 ? a.coefficient * pow10(shift) : a.coefficient;
  let den = shift >= 0 ? b.coefficient : b.coefficient * pow10(-shift);
  if (den < 0n) {
    num = -num;
    den = -den;
  }
  return { coefficient: divideHalfEven(num, den), exponent: -places };
}

/** Rounded half-even to `places` decimal places. */
export function roundToPlaces(value: Decimal, places: number): Decimal {
  if (value.exponent >= -places) return value;
  return { coefficient: divideHalfEven(value.coefficient, pow10(-places - value.exponent)), exponent: -places };
}

/** Rounded half-even to `digits` significant digits. */
export function roundToSignificant(value: Decimal, digits: number): Decimal {
  const length = (value.coefficient < 0n ? -value.coefficient : value.coefficient).toString().length;
  if (length <= digits) return value;
  const dropped = length - digits;
  return { coefficient: divideHalfEven(value.coefficient, pow10(dropped)), exponent: value.exponent + dropped };
}

/** The value as a plain decimal: no exponent, no trailing fraction zeros, `0` for zero. */
export function toPlain(value: Decimal): string {
  if (value.coefficient === 0n) return '0';
  const negative = value.coefficient < 0n;
  let digits = (negative ? -value.coefficient : value.coefficient).toString();
  let exponent = value.exponent;
  const trailingZeros = digits.length - digits.replace(/0+$/, '').length;
  if (trailingZeros > 0 && exponent < 0) {
    const removed = Math.min(trailingZeros, -exponent);
    digits = digits.slice(0, digits.length - removed);
    exponent += removed;
  }
  let text: string;
  if (exponent >= 0) text = digits + '0'.repeat(exponent);
  else {
    const padded = digits.padStart(-exponent + 1, '0');
    text = `${padded.slice(0, exponent)}.${padded.slice(exponent)}`;
  }
  return negative ? `-${text}` : text;
}
