/**
 * The metrics the functions emit and the metrics the dashboard and alarms read must be the same set: a metric
 * emitted but read nowhere is paid for and unseen; one read but never emitted blanks a graph or silences an alarm.
 * The emitted side is what the real emitters write as EMF; the read side is the synthesized CloudFormation. The same
 * holds for the fields of the authorizer's decision lines and the Contributor Insights rules that read them.
 */
import { createAuthorizerObserver } from '../../lambdas/core/auth/observe';
import { PLAN_IDS } from '../../lambdas/core/domain/plans';
import { METER_VERDICTS } from '../../lambdas/core/domain/quota';
import { AGGREGATOR, SOURCE_IDS } from '../../lambdas/core/domain/rates';
import { countServerError } from '../../lambdas/core/http/server-errors';
import type { IngestResult } from '../../lambdas/core/ingest/ingest';
import {
  ACCOUNT_VERDICTS,
  AUTHORIZER_METRICS,
  DECISION_FIELDS,
  INGEST_METRICS,
  KEYLESS_VERDICTS,
  METRIC_DIMENSIONS,
  METRIC_NAMESPACE,
} from '../../lambdas/core/metric-names';
import { Metrics } from '../../lambdas/core/observability';
import { publishIngestMetrics } from '../../lambdas/ingest/handler';
import { captureStdoutLines } from '../support/stdout-lines';
import { renderJoin, resourcesOf, SKIP_BUNDLING, type Synthesized, synthesize } from './synth';

/** `Name{dim=value,...}` with the dimensions sorted, for one metric of our namespace. */
const metricKey = (name: string, dimensions: Record<string, string>) =>
  `${name}{${Object.entries(dimensions)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}=${v}`)
    .join(',')}}`;

function keysOfEmfLines(lines: string[]): string[] {
  return lines.flatMap((line) => {
    const record = JSON.parse(line) as Record<string, unknown> & {
      _aws: { CloudWatchMetrics: { Namespace: string; Dimensions: string[][]; Metrics: { Name: string }[] }[] };
    };
    return record._aws.CloudWatchMetrics.flatMap((directive) =>
      directive.Namespace !== METRIC_NAMESPACE
        ? []
        : directive.Metrics.flatMap((metric) =>
            directive.Dimensions.map((set) =>
              metricKey(metric.Name, Object.fromEntries(set.map((d) => [d, String(record[d])]))),
            ),
          ),
    );
  });
}

/** The EMF lines the authorizer's observer writes over every outcome it can report (its decision lines). */
function decisionLines(): string[] {
  const previous = process.env.POWERTOOLS_METRICS_DISABLED;
  process.env.POWERTOOLS_METRICS_DISABLED = 'false';
  const stdout = captureStdoutLines();
  try {
    const observe = createAuthorizerObserver(() => 0);
    observe({ kind: 'missing-api-key' });
    observe({ kind: 'invalid-api-key' });
    observe({ kind: 'api-key-in-url' });
    for (const plan of PLAN_IDS) {
      observe({ kind: 'account-inactive', accountId: `a-${plan}`, plan });
      for (const verdict of METER_VERDICTS) {
        const meter = { verdict, plan, minuteLimit: 1, minuteUsed: 1, monthLimit: 1, monthUsed: 1, at: 0 };
        observe({ kind: 'metered', accountId: `a-${plan}`, plan, meter });
      }
    }
  } finally {
    stdout.restore();
    process.env.POWERTOOLS_METRICS_DISABLED = previous;
  }
  return stdout.lines.filter((line) => line.includes('"_aws"'));
}

/** Every metric the authorizer's observer and the ingestion handler write, over every outcome they can report. */
function emitted(): Set<string> {
  const lines = decisionLines();
  const result: IngestResult = {
    status: 'partial',
    daysWritten: 1,
    daysUnchanged: 0,
    latestWritten: true,
    itemsWritten: 2,
    seriesWrites: 3,
    rejections: [],
    sources: Object.fromEntries(
      SOURCE_IDS.map((source, i) => [source, { status: i === 0 ? 'ok' : 'failed', days: 1 - i }]),
    ),
    // Every official source cross-checked; the aggregator never is.
    crossChecks: Object.fromEntries(
      SOURCE_IDS.filter((source) => source !== AGGREGATOR).map((source) => [
        source,
        { date: '2026-11-20', tolerance: 0.05, compared: 2, overTolerance: 1, maxSpread: 0.07, worst: null },
      ]),
    ),
    latest: { date: '2026-11-20', publishedAt: '2026-11-20T15:00:00Z', currencies: 150 },
    durationMs: 1,
  };
  const metrics = new Metrics({ write: (line) => lines.push(line), disabled: false });
  publishIngestMetrics(metrics, result, new Date('2026-11-21T00:00:00Z'));
  // A 5xx answer of each released function, named as Lambda names it: the function's name and the version running.
  for (const { alias } of s.fx.service.releases.releases) {
    const functionName = renderJoin(s.fx.service.resolve(alias.version.lambda.functionName));
    countServerError({ functionName, version: renderJoin(s.fx.service.resolve(alias.version.version)) }, metrics);
  }
  return new Set(keysOfEmfLines(lines));
}

/** Every metric of our namespace that the dashboard's widgets and the alarms of the service stack read. */
function read(s: Synthesized): Set<string> {
  const keys: string[] = [];
  for (const dashboard of Object.values(resourcesOf(s.service, 'AWS::CloudWatch::Dashboard'))) {
    const body = JSON.parse(renderJoin(dashboard.Properties?.DashboardBody)) as {
      widgets: { properties: { metrics?: unknown[][] } }[];
    };
    for (const widget of body.widgets) {
      for (const row of widget.properties.metrics ?? []) {
        const parts = row.filter((part): part is string => typeof part === 'string');
        if (parts[0] !== METRIC_NAMESPACE || parts[1] === undefined) continue;
        const dimensions: Record<string, string> = {};
        for (let i = 2; i + 1 < parts.length; i += 2) dimensions[parts[i] as string] = parts[i + 1] as string;
        keys.push(metricKey(parts[1], dimensions));
      }
    }
  }
  type Dimension = { Name: string; Value: unknown };
  type MetricRef = { MetricName?: string; Namespace?: string; Dimensions?: Dimension[] };
  const addRef = (ref: MetricRef | undefined) => {
    if (ref?.Namespace !== METRIC_NAMESPACE || !ref.MetricName) return;
    const dimensions = (ref.Dimensions ?? []).map((d) => [d.Name, renderJoin(d.Value)]);
    keys.push(metricKey(ref.MetricName, Object.fromEntries(dimensions)));
  };
  for (const alarm of Object.values(resourcesOf(s.service, 'AWS::CloudWatch::Alarm'))) {
    const props = alarm.Properties as MetricRef & { Metrics?: { MetricStat?: { Metric?: MetricRef } }[] };
    addRef(props);
    for (const query of props.Metrics ?? []) addRef(query.MetricStat?.Metric);
  }
  return new Set(keys);
}

let s: Synthesized;
beforeAll(() => {
  s = synthesize(SKIP_BUNDLING);
});
afterAll(() => s?.dispose());

/** The log fields each Contributor Insights rule of the service stack reads (keys, value and filters), by rule name. */
function ruleFields(s: Synthesized): Map<string, Set<string>> {
  const rules = new Map<string, Set<string>>();
  for (const rule of Object.values(resourcesOf(s.service, 'AWS::CloudWatch::InsightRule'))) {
    const body = JSON.parse(renderJoin(rule.Properties?.RuleBody)) as {
      Contribution: { Keys: string[]; ValueOf?: string; Filters?: { Match: string }[] };
    };
    const { Keys, ValueOf, Filters = [] } = body.Contribution;
    const paths = [...Keys, ...(ValueOf ? [ValueOf] : []), ...Filters.map((f) => f.Match)];
    rules.set(String(rule.Properties?.RuleName), new Set(paths.map((path) => path.replace(/^\$\./, ''))));
  }
  return rules;
}

/** The fields of the decision lines besides the EMF envelope, the service dimension and the metric values. */
function decisionFields(): Set<string> {
  const fields = new Set<string>();
  for (const line of decisionLines()) {
    const record = JSON.parse(line) as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      if (key !== '_aws' && key !== METRIC_DIMENSIONS.service && key !== AUTHORIZER_METRICS.requests) fields.add(key);
    }
  }
  return fields;
}

describe('metric names', () => {
  it('reads on the dashboard and in the alarms exactly the metrics the functions emit', () => {
    const out = emitted();
    const inn = read(s);
    // Both sides are non-trivial, so an emitter or a parser that found nothing cannot pass by accident: a Requests
    // count per plan and verdict, SourceFailures per source, and the run's figures with the heartbeat.
    const requests = PLAN_IDS.length * ACCOUNT_VERDICTS.length + KEYLESS_VERDICTS.length;
    const releases = s.fx.service.releases.releases.length;
    // SourceFailures per source, CrossCheckOverTolerance per source but the aggregator, the rest once each.
    const perSource = SOURCE_IDS.length + (SOURCE_IDS.length - 1);
    expect(out.size).toBe(requests + perSource + Object.keys(INGEST_METRICS).length - 2 + releases);
    expect([...out].filter((key) => key.startsWith(`${AUTHORIZER_METRICS.requests}{`))).toHaveLength(requests);
    expect(out).toContain('SuccessfulRuns{service=fxrates}');
    expect([...out].filter((key) => !inn.has(key)).sort()).toEqual([]);
    expect([...inn].filter((key) => !out.has(key)).sort()).toEqual([]);
  });
});

describe('decision line fields', () => {
  it('are what the Contributor Insights rules read, and each one the observer writes is read by a rule or the query', () => {
    const written = decisionFields();
    const rules = ruleFields(s);
    expect(rules.size).toBe(3);
    const readByRules = new Set([...rules.values()].flatMap((fields) => [...fields]));
    // Every field a rule reads is one the observer writes.
    expect([...readByRules].filter((f) => !written.has(f)).sort()).toEqual([]);
    // Every field the observer writes is read: by a rule, or by the dashboard's Logs Insights query.
    const [dashboard] = Object.values(resourcesOf(s.service, 'AWS::CloudWatch::Dashboard'));
    const queries = renderJoin(dashboard?.Properties?.DashboardBody);
    const unread = [...written].filter((f) => !readByRules.has(f) && !queries.includes(f));
    expect(unread.sort()).toEqual([]);
    expect([...written].sort()).toEqual(Object.values(DECISION_FIELDS).sort());
  });
});
