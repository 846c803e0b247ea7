/**
 * The names of the EMF metrics the functions publish, which the operators' dashboard and alarms read
 * (lib/monitoring.ts). Both sides import them from here; a test checks that what the functions emit and what
 * CloudWatch reads are the same set, so a renamed metric cannot blank a graph or silence an alarm.
 */
export const METRIC_NAMESPACE = 'fxrates';
export const SERVICE_NAME = 'fxrates';

/** One count per authorizer decision, with the `plan` dimension (the plan's name, or NO_PLAN). */
export const AUTHORIZER_METRICS = {
  admitted: 'Admitted',
  rateLimited: 'RateLimited',
  quotaExceeded: 'QuotaExceeded',
  invalidKey: 'InvalidKey',
} as const;

/** One set per ingestion run; SourceFailures carries the `source` dimension. */
export const INGEST_METRICS = {
  sourceFailures: 'SourceFailures',
  daysWritten: 'DaysWritten',
  rejections: 'Rejections',
  snapshotAgeSeconds: 'SnapshotAgeSeconds',
  currenciesServed: 'CurrenciesServed',
} as const;

export const METRIC_DIMENSIONS = { service: 'service', plan: 'plan', source: 'source' } as const;

/** The plan dimension of InvalidKey, which has no account behind it. */
export const NO_PLAN = 'none';
