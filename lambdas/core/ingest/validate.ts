/**
 * Pure plausibility rules for day snapshots. A snapshot that breaks a rule is not written and the stored one
 * stays; each refusal carries a reason for the log and the Rejections metric.
 *
 * The jump rule works per currency, against its last accepted rate within JUMP_LOOKBACK_DAYS (a new currency, or
 * one back after a suspension, has nothing to jump from). A move of more than 25 % stands when a second source quotes
 * the same day within 2 %, or when the next day holds the new level: the ECB history's four real one-day moves
 * (TRL 2001-02-22, ISK 2008-10-08 and 2008-11-06, TRY 2021-12-21) held the next day, while a spike that reverts is
 * refused. On the newest day an uncorroborated jump is held back until a run confirms it. A refused jump removes the
 * currency from the day (the stored value stays); if that leaves a major missing, the whole day is rejected.
 */
import { PIVOT, type RateSnapshot, type SourceId } from '../domain/rates';
import { isPositiveRate } from '../sources/source-day';

/** Every day must carry these: the ECB has quoted them since 1999-01-04 and currency-api always has them. */
export const MAJORS = ['USD', 'GBP', 'JPY', 'CHF'] as const;
export const MAX_DAILY_MOVE = 0.25;
export const SOURCE_AGREEMENT = 0.02;
export const JUMP_LOOKBACK_DAYS = 7;
/** Ratios of decimal rates are not exact in binary; a boundary case must not fall on the wrong side by 1e-17. */
const EPSILON = 1e-9;

export type RejectionReason = 'future-date' | 'unusable-base' | 'invalid-rate' | 'missing-majors' | 'jump';

export interface Rejection {
  date: string;
  reason: RejectionReason;
  detail: string;
  source?: SourceId;
  code?: string;
}

/** The relative size of a move from one rate to another, in either direction. */
export function relativeMove(from: number, to: number): number {
  return Math.abs(to / from - 1);
}

export function isJump(from: number, to: number): boolean {
  return relativeMove(from, to) > MAX_DAILY_MOVE + EPSILON;
}

/** At least two sources quote the value, and the highest is within 2 % of the lowest. */
export function sourcesAgree(values: readonly number[]): boolean {
  if (values.length < 2) return false;
  return Math.max(...values) / Math.min(...values) - 1 <= SOURCE_AGREEMENT + EPSILON;
}

/** Whole-snapshot rules: EUR is 1, every rate positive and finite, every major present. */
export function checkSnapshot(snapshot: RateSnapshot): Rejection | undefined {
  const { date } = snapshot;
  if (snapshot.rates[PIVOT] !== 1) return { date, reason: 'invalid-rate', code: PIVOT, detail: 'EUR must be 1' };
  for (const [code, value] of Object.entries(snapshot.rates)) {
    if (!isPositiveRate(value)) return { date, reason: 'invalid-rate', code, detail: `${code} is ${value}` };
  }
  const missing = MAJORS.filter((code) => snapshot.rates[code] === undefined);
  if (missing.length > 0) return { date, reason: 'missing-majors', detail: `missing ${missing.join(', ')}` };
  return undefined;
}

export function describeJump(code: string, from: number, to: number): string {
  const percent = ((to / from - 1) * 100).toFixed(1);
  return `${code} moved from ${from} to ${to} (${percent} %) without a second source or the next day confirming`;
}
