/**
 * The metrics CloudWatch extracts from stored log events in Embedded Metric Format, following the specification:
 * https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/CloudWatch_Embedded_Metric_Format_Specification.html
 * An event is EMF only if it parses as a JSON object whose `_aws` member holds `Timestamp` and `CloudWatchMetrics`;
 * every metric a directive names, and every dimension of its dimension sets, must be a top-level member of that
 * object (a number or an array of numbers; a string). A line that breaks these rules yields no metric.
 */

export interface ExtractedMetric {
  namespace: string;
  name: string;
  unit: string | undefined;
  /** Values in the order the line lists them (one for a single value). */
  values: number[];
  dimensions: Record<string, string>;
  timestamp: number;
}

export interface Extraction {
  metrics: ExtractedMetric[];
  /** Events that claim to be EMF (`_aws` present) but break the specification, with the reason. */
  rejected: { event: string; reason: string }[];
}

interface Directive {
  Namespace?: unknown;
  Dimensions?: unknown;
  Metrics?: unknown;
}

/** A stored log event as a JSON object, or undefined when it is not one (a Text-format line, a platform line). */
export function parseObject(event: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(event);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function metricsOf(root: Record<string, unknown>): ExtractedMetric[] | string {
  const aws = root._aws as { Timestamp?: unknown; CloudWatchMetrics?: unknown } | null;
  if (aws === null || typeof aws !== 'object') return '_aws is not an object';
  if (typeof aws.Timestamp !== 'number') return '_aws.Timestamp is not a number';
  if (!Array.isArray(aws.CloudWatchMetrics)) return '_aws.CloudWatchMetrics is not an array';
  const out: ExtractedMetric[] = [];
  for (const directive of aws.CloudWatchMetrics as Directive[]) {
    if (typeof directive.Namespace !== 'string' || directive.Namespace === '') return 'a directive has no Namespace';
    if (!Array.isArray(directive.Dimensions) || !Array.isArray(directive.Metrics)) {
      return 'a directive lacks Dimensions or Metrics';
    }
    const sets = directive.Dimensions as unknown[];
    if (sets.some((set) => !Array.isArray(set) || set.some((name) => typeof name !== 'string'))) {
      return 'Dimensions is not an array of arrays of names';
    }
    for (const name of (sets as string[][]).flat()) {
      if (typeof root[name] !== 'string') return `dimension ${name} is not a top-level string member`;
    }
    for (const metric of directive.Metrics as { Name?: unknown; Unit?: unknown }[]) {
      if (typeof metric.Name !== 'string') return 'a metric has no Name';
      const raw = root[metric.Name];
      const values = typeof raw === 'number' ? [raw] : Array.isArray(raw) ? raw : undefined;
      if (!values?.length || values.some((v) => typeof v !== 'number')) {
        return `metric ${metric.Name} is not a top-level number`;
      }
      for (const set of sets as string[][]) {
        out.push({
          namespace: directive.Namespace,
          name: metric.Name,
          unit: typeof metric.Unit === 'string' ? metric.Unit : undefined,
          values: values as number[],
          dimensions: Object.fromEntries(set.map((name) => [name, root[name] as string])),
          timestamp: aws.Timestamp,
        });
      }
    }
  }
  return out;
}

export function extractMetrics(events: readonly string[]): Extraction {
  const extraction: Extraction = { metrics: [], rejected: [] };
  for (const event of events) {
    const root = parseObject(event);
    if (!root || !('_aws' in root)) continue;
    const metrics = metricsOf(root);
    if (typeof metrics === 'string') extraction.rejected.push({ event, reason: metrics });
    else extraction.metrics.push(...metrics);
  }
  return extraction;
}
