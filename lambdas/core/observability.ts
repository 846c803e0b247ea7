import { Logger } from '@aws-lambda-powertools/logger';
import { Metrics } from '@aws-lambda-powertools/metrics';

/** One logger and one metrics emitter per function process; every function is service `fxrates`. */
export const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'fxrates' });
export const metrics = new Metrics({
  namespace: process.env.POWERTOOLS_METRICS_NAMESPACE ?? 'fxrates',
  serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'fxrates',
});
