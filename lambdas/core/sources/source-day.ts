import type { SourceId } from '../domain/rates';
import { printable } from '../domain/text';

/** One day of rates exactly as one source delivered it, after parsing and filtering to the catalog. */
export interface SourceDay {
  source: SourceId;
  /** `YYYY-MM-DD` the source assigns to the rates. */
  date: string;
  /** The currency the rates are quoted against (units of each currency per 1 base); the base itself is 1. */
  base: string;
  rates: Record<string, number>;
  /** ISO 8601 UTC publication time of this day by this source. */
  publishedAt: string;
}

/** Plain decimals as the ECB writes them; signs, exponents, hex, spaces and leading zeros are refused. */
export const DECIMAL_TEXT = /^(?:0|[1-9]\d{0,14})(?:\.\d{1,12})?$/;

/** Parses a rate written as text; undefined unless it is a plain positive decimal. */
export function parseRateText(text: string): number | undefined {
  if (!DECIMAL_TEXT.test(text)) return undefined;
  const value = Number(text);
  return Number.isFinite(value) && value > 0 ? value : undefined;
}

export function isPositiveRate(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0;
}

export const CURRENCY_CODE = /^[A-Z]{3}$/;

/** Echoes upstream text in an error message only as a short printable token. */
export const printableUpstream = (text: string): string => printable(text, 24);
