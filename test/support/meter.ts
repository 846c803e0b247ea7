import type { MeterState } from '../../lambdas/core/domain/quota';

/** 19 s into a minute of September (30 days), the instant the metering tests reason about. */
export const METER_AT = Date.parse('2026-09-15T10:20:19.000Z');

/** A meter as the usage store builds it for a Pro account on its plan's limits, 900 requests into the month. */
export function proMeter(overrides: Partial<MeterState> = {}): MeterState {
  return {
    verdict: 'admitted',
    plan: 'Pro',
    minuteLimit: 60,
    minuteUsed: 1,
    monthLimit: 33000,
    monthUsed: 900,
    at: METER_AT,
    ...overrides,
  };
}
