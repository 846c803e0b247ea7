import type { DeployConfig } from '../config';

/** Alarm thresholds, named so the guides and tests refer to the same figures. */
export const ALARM_THRESHOLDS = {
  /**
   * Hours. currency-api publishes daily, so two days mean a missed day; the ECB's longest gap between TARGET business
   * days is five days (Christmas on a Monday and Tuesday), plus the hour until the next run.
   */
  staleAfterHours: { daily: 48, ecbOnly: 124 },
  /** Currencies the latest snapshot must serve: about 160 with currency-api, the ECB's 31 without it. */
  minCurrencies: { withCurrencyApi: 100, ecbOnly: 25 },
  /** Consecutive runs a source must fail before it alarms. */
  sourceFailureRuns: 3,
  /**
   * Days (UTC) with at least one over-tolerance quote of a currency not exempt, out of the last `crossCheckDays`,
   * before a publisher's cross-check alarms. Two of four: a disagreement on two publication days in a row alarms
   * even across a weekend (Friday and Monday), one odd day (EGP 5.06 % on 2026-03-09 in the recordings) does not.
   */
  crossCheckDaysToAlarm: 2,
  crossCheckDays: 4,
  /** Runs in a row without success (at least three hours) before the heartbeat alarms. */
  heartbeatRuns: 3,
  /** Share of requests answered 5xx over five minutes, once at least `minRequests` arrived. */
  serverErrorRate: 0.05,
  minRequests: 20,
  /** Share of authorizer invocations that failed over five minutes, once at least `minAuthorizerInvocations` ran. */
  authorizerErrorRate: 0.02,
  minAuthorizerInvocations: 50,
  /** p99 of the public API's latency over five minutes, in milliseconds (percentiles of too few requests are ignored). */
  p99LatencyMs: 2500,
  /** Throttled Lambda invocations or DynamoDB requests in five minutes. */
  lambdaThrottles: 1,
  dynamoDbThrottles: 1,
  /** Share of the web ACL's requests it blocked over five minutes, once at least `minWafRequests` arrived. */
  wafBlockedShare: 0.1,
  minWafRequests: 100,
} as const;

/**
 * Hours between two runs of an EventBridge schedule expression, rounded up, at least 1 and at most 48: `rate(...)`
 * exactly, `cron(...)` by its hour field (`*` hourly, `*\/k` every k hours, a list of n hours every 24/n, else daily).
 */
export function scheduleIntervalHours(expression: string): number {
  const clamp = (hours: number) => Math.min(48, Math.max(1, Math.ceil(hours)));
  const rate = /^rate\(\s*(\d+)\s+(minutes?|hours?|days?)\s*\)$/.exec(expression.trim());
  if (rate) {
    const amount = Number(rate[1]);
    const unit = rate[2] ?? '';
    return clamp(unit.startsWith('minute') ? amount / 60 : unit.startsWith('hour') ? amount : amount * 24);
  }
  const cron = /^cron\((.+)\)$/.exec(expression.trim());
  const hourField = cron?.[1]?.trim().split(/\s+/)[1];
  if (hourField === undefined) return 24;
  if (hourField === '*') return 1;
  const step = /^(?:\*|\d+(?:-\d+)?)\/(\d+)$/.exec(hourField);
  if (step) return clamp(Number(step[1]));
  if (/^\d+(,\d+)+$/.test(hourField)) return clamp(24 / hourField.split(',').length);
  return 24;
}

export function ingestionAlarmFigures(config: Pick<DeployConfig, 'sources' | 'ingestSchedule'>) {
  const runHours = scheduleIntervalHours(config.ingestSchedule);
  const daily = config.sources.includes('currency-api');
  return {
    /** The period of the per-run alarms (source failures, currencies): one run per period. */
    runHours,
    /** Hours without a successful run before the heartbeat alarms. */
    heartbeatHours: Math.max(3, ALARM_THRESHOLDS.heartbeatRuns * runHours),
    staleAfterHours: daily ? ALARM_THRESHOLDS.staleAfterHours.daily : ALARM_THRESHOLDS.staleAfterHours.ecbOnly,
    minCurrencies: daily ? ALARM_THRESHOLDS.minCurrencies.withCurrencyApi : ALARM_THRESHOLDS.minCurrencies.ecbOnly,
  };
}
