/**
 * The names of the EMF metrics the functions publish, which the operators' dashboard and alarms read
 * (lib/monitoring.ts), and of the fields of the authorizer's decision lines, which its Contributor Insights rules
 * read. Both sides import them from here; a test checks that what the functions emit and what CloudWatch reads are
 * the same set, so a renamed metric or field cannot blank a graph or silence an alarm.
 */
export const METRIC_NAMESPACE = 'fxrates';
export const SERVICE_NAME = 'fxrates';

export const METRIC_DIMENSIONS = {
  service: 'service',
  plan: 'plan',
  verdict: 'verdict',
  source: 'source',
  function: 'function',
  version: 'version',
} as const;

/**
 * One count per authorizer decision, with the `plan` dimension (the plan's name, or NO_PLAN) and the `verdict`
 * dimension: per-plan totals and refusals by reason without a metric per account.
 */
export const AUTHORIZER_METRICS = {
  requests: 'Requests',
} as const;

/** Verdicts of a request whose key named an account: the `plan` dimension is that account's plan. */
export const ACCOUNT_VERDICTS = ['admitted', 'rate-limit-exceeded', 'quota-exceeded', 'account-inactive'] as const;
/** Verdicts reached before any account was looked up: the `plan` dimension is NO_PLAN. */
export const KEYLESS_VERDICTS = ['missing-api-key', 'invalid-api-key', 'api-key-in-url'] as const;
export type AuthorizerVerdict = (typeof ACCOUNT_VERDICTS)[number] | (typeof KEYLESS_VERDICTS)[number];
/** The verdicts that refuse a valid key's request, one refusal reason each. */
export const REFUSAL_VERDICTS = ['rate-limit-exceeded', 'quota-exceeded', 'account-inactive'] as const;

/**
 * Fields of the authorizer's decision line, one EMF line per request whose dimensions are fields too; never the key.
 * `percentUsed` is the month's use in percent of the limit at which the account is refused (its quota plus any
 * overflow), rounded down to a tenth; `quotaSample` is 1 on exactly one admitted request per account and minute.
 */
export const DECISION_FIELDS = {
  accountId: 'accountId',
  plan: METRIC_DIMENSIONS.plan,
  verdict: METRIC_DIMENSIONS.verdict,
  monthUsed: 'monthUsed',
  monthLimit: 'monthLimit',
  percentUsed: 'percentUsed',
  quotaSample: 'quotaSample',
} as const;

/**
 * One set per ingestion run; SourceFailures carries the `source` dimension. SuccessfulRuns is the heartbeat: 1 for
 * a run that stored what at least one source delivered, 0 for a run that got nothing.
 */
export const INGEST_METRICS = {
  sourceFailures: 'SourceFailures',
  daysWritten: 'DaysWritten',
  rejections: 'Rejections',
  snapshotAgeSeconds: 'SnapshotAgeSeconds',
  currenciesServed: 'CurrenciesServed',
  successfulRuns: 'SuccessfulRuns',
  /** Per official source (`source` dimension): its quotes of its newest day spread over the cross-check's tolerance. */
  crossCheckOverTolerance: 'CrossCheckOverTolerance',
} as const;

/**
 * One count per 5xx answer of a released function (lambdas/core/http/server-errors.ts), with the dimensions `function`
 * (Lambda's function name) and `version` (the published version that answered): the numerator of the release alarm
 * that rolls a canary back (lib/release.ts). Written only on a 5xx, so a healthy version writes nothing.
 */
export const RELEASE_METRICS = {
  serverErrors: 'ServerErrors',
} as const;

/** The plan dimension of a decision that has no account behind it. */
export const NO_PLAN = 'none';
