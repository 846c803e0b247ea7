import Big from 'big.js';

/**
 * One configured decimal type for the whole service: no exponent notation in output, and half-even
 * rounding as the contract asks for `converted`.
 */
const Decimal = Big();
Decimal.DP = 40;
Decimal.RM = Big.roundHalfEven;
Decimal.NE = -1e6;
Decimal.PE = 1e6;

export type DecimalValue = Big.Big;
export const decimal = (value: string | number): DecimalValue => new Decimal(value);
export const ROUND_HALF_EVEN = Big.roundHalfEven;
