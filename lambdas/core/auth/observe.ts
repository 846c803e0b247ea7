import { PLANS } from '../domain/plans';
import { AUTHORIZER_METRICS, METRIC_DIMENSIONS, NO_PLAN } from '../metric-names';
import { logger, MetricUnit, metrics } from '../observability';
import type { AuthorizerOutcome } from './authorizer';

const METRIC_BY_VERDICT = {
  admitted: AUTHORIZER_METRICS.admitted,
  'rate-limit-exceeded': AUTHORIZER_METRICS.rateLimited,
  'quota-exceeded': AUTHORIZER_METRICS.quotaExceeded,
} as const;

/**
 * Turns authorizer decisions into EMF metrics per plan and log lines: one per refusal (with the account id,
 * never the key), and one `usage` line per account and minute that the dashboard's "nearest their monthly
 * limit" query reads.
 */
export function createAuthorizerObserver(now: () => number = Date.now) {
  const lastUsageMinute = new Map<string, number>();
  return (outcome: AuthorizerOutcome): void => {
    switch (outcome.kind) {
      case 'missing-api-key':
      case 'invalid-api-key':
        metrics.addDimension(METRIC_DIMENSIONS.plan, NO_PLAN);
        metrics.addMetric(AUTHORIZER_METRICS.invalidKey, MetricUnit.Count, 1);
        logger.info('request refused', { reason: outcome.kind });
        break;
      case 'api-key-in-url':
        logger.info('request refused', { reason: outcome.kind });
        return;
      case 'account-inactive':
        logger.info('request refused', { reason: outcome.kind, accountId: outcome.accountId });
        return;
      case 'metered': {
        const plan = PLANS[outcome.plan].name;
        const { meter } = outcome;
        metrics.addDimension(METRIC_DIMENSIONS.plan, plan);
        metrics.addMetric(METRIC_BY_VERDICT[meter.verdict], MetricUnit.Count, 1);
        if (meter.verdict !== 'admitted') {
          logger.info('request refused', {
            reason: meter.verdict,
            accountId: outcome.accountId,
            plan,
            minuteUsed: meter.minuteUsed,
            monthUsed: meter.monthUsed,
          });
        }
        const minute = Math.floor(now() / 60_000);
        if (lastUsageMinute.get(outcome.accountId) !== minute) {
          lastUsageMinute.set(outcome.accountId, minute);
          if (lastUsageMinute.size > 10_000) lastUsageMinute.clear();
          logger.info('usage', {
            accountId: outcome.accountId,
            plan,
            monthUsed: meter.monthUsed,
            monthLimit: meter.monthLimit,
          });
        }
        break;
      }
    }
    metrics.publishStoredMetrics();
  };
}
