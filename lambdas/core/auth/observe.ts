import { PLANS } from '../domain/plans';
import type { MeterState } from '../domain/quota';
import {
  AUTHORIZER_METRICS,
  type AuthorizerVerdict,
  DECISION_FIELDS,
  METRIC_DIMENSIONS,
  NO_PLAN,
} from '../metric-names';
import {
  logger as defaultLogger,
  metrics as defaultMetrics,
  type Logger,
  type Metrics,
  MetricUnit,
} from '../observability';
import type { AuthorizerOutcome, StoreFailure } from './authorizer';

/** Later in its minute, a sample's line could land in the next minute beside that minute's own sample. */
export const QUOTA_SAMPLE_CUTOFF_MS = 55_000;

/** The verdict a decision is counted and logged under. */
export function verdictOf(outcome: AuthorizerOutcome): AuthorizerVerdict {
  return outcome.kind === 'metered' ? outcome.meter.verdict : outcome.kind;
}

/** The month's use in percent of the limit the account is refused at, rounded down to a tenth; none without a limit. */
export function percentUsed(meter: Pick<MeterState, 'monthUsed' | 'monthLimit'>): number | undefined {
  if (!(meter.monthLimit > 0)) return undefined;
  return Math.floor((meter.monthUsed * 1000) / meter.monthLimit) / 10;
}

/** Exactly one request per account and minute sees the count 1: the usage store counts atomically. */
export function isQuotaSample(meter: MeterState): boolean {
  const intoMinute = ((meter.at % 60_000) + 60_000) % 60_000;
  return meter.verdict === 'admitted' && meter.minuteUsed === 1 && intoMinute < QUOTA_SAMPLE_CUTOFF_MS;
}

export interface ObserverOutput {
  metrics: Metrics;
  logger: Logger;
}

/**
 * One EMF line per decision: `Requests` by plan and verdict, with the account and its month's use as plain fields
 * (never the key) for the Contributor Insights rules over the authorizer's log group.
 */
export function createAuthorizerObserver(
  now: () => number = Date.now,
  output: ObserverOutput = { metrics: defaultMetrics, logger: defaultLogger },
) {
  const { metrics, logger } = output;
  return (outcome: AuthorizerOutcome): void => {
    const verdict = verdictOf(outcome);
    const plan = outcome.kind === 'metered' || outcome.kind === 'account-inactive' ? PLANS[outcome.plan].name : NO_PLAN;
    metrics.addDimension(METRIC_DIMENSIONS.plan, plan);
    metrics.addDimension(METRIC_DIMENSIONS.verdict, verdict);
    metrics.addMetric(AUTHORIZER_METRICS.requests, MetricUnit.Count, 1);
    if (outcome.kind === 'metered' || outcome.kind === 'account-inactive') {
      metrics.addMetadata(DECISION_FIELDS.accountId, outcome.accountId);
    }
    if (outcome.kind === 'metered') {
      const { meter } = outcome;
      metrics.addMetadata(DECISION_FIELDS.monthUsed, meter.monthUsed);
      metrics.addMetadata(DECISION_FIELDS.monthLimit, meter.monthLimit);
      const percent = percentUsed(meter);
      if (percent !== undefined) metrics.addMetadata(DECISION_FIELDS.percentUsed, percent);
      if (isQuotaSample(meter)) metrics.addMetadata(DECISION_FIELDS.quotaSample, 1);
    }
    metrics.publishStoredMetrics(now());

    if (verdict === 'admitted') return;
    const refusal: Record<string, unknown> = { reason: verdict };
    if (outcome.kind === 'metered' || outcome.kind === 'account-inactive') {
      refusal.accountId = outcome.accountId;
      refusal.plan = plan;
    }
    if (outcome.kind === 'metered') {
      refusal.minuteUsed = outcome.meter.minuteUsed;
      refusal.monthUsed = outcome.meter.monthUsed;
    }
    logger.info('request refused', refusal);
  };
}

/** The operator sees the outage in the authorizer's log; the API's 5xx alarm counts the 503s themselves. */
export function logUnavailable(failure: StoreFailure): void {
  const { stage, accountId, error } = failure;
  defaultLogger.warn('store unavailable: answered 503', {
    stage,
    ...(accountId ? { accountId } : {}),
    ...(error === undefined ? {} : { error: error as Error }),
  });
}
