import { currencyApiPublishedAt, ecbPublishedAt } from '../../../lambdas/core/domain/dates';
import type { RateSnapshot } from '../../../lambdas/core/domain/rates';
import type { SourceDay } from '../../../lambdas/core/sources/source-day';

/** The four majors every day must carry, at plausible levels. */
export const MAJORS = { USD: 1.1, GBP: 0.85, JPY: 160, CHF: 0.95 };

export function ecbDay(date: string, rates: Record<string, number> = {}): SourceDay {
  return {
    source: 'ecb',
    date,
    base: 'EUR',
    rates: { EUR: 1, ...MAJORS, ...rates },
    publishedAt: ecbPublishedAt(date),
  };
}

export function currencyApiDay(date: string, rates: Record<string, number> = {}): SourceDay {
  return {
    source: 'currency-api',
    date,
    base: 'EUR',
    rates: { EUR: 1, ...MAJORS, AED: 4.04, ...rates },
    publishedAt: currencyApiPublishedAt(date),
  };
}

export function byDate(snapshots: readonly RateSnapshot[]): Map<string, RateSnapshot> {
  return new Map(snapshots.map((s) => [s.date, s]));
}
