/**
 * CloudWatch Embedded Metric Format (EMF): metrics written as JSON lines on stdout, which CloudWatch turns into
 * metrics. Apart from observability.ts, which re-exports it, so that the functions that write metrics only at a
 * 5xx answer (the endpoints, through http/server-errors.ts) can load this module at that answer instead of at init.
 */
// Why: docs/clever-parts.md#hand-written-logger-and-emf-writer
import { METRIC_DIMENSIONS, METRIC_NAMESPACE, SERVICE_NAME } from './metric-names';
import { stdout, type Write } from './stdout';

export const MetricUnit = {
  Count: 'Count',
  Seconds: 'Seconds',
  Milliseconds: 'Milliseconds',
  Bytes: 'Bytes',
} as const;
export type MetricUnit = (typeof MetricUnit)[keyof typeof MetricUnit];

export interface MetricsOptions {
  namespace?: string;
  serviceName?: string;
  write?: Write;
  /** Overrides POWERTOOLS_METRICS_DISABLED. */
  disabled?: boolean;
  /** Publish at every addMetric (a single metric with its own dimensions). */
  immediate?: boolean;
}

/**
 * Collects metrics and dimensions and writes them as one EMF line. Every line carries the `service` dimension;
 * dimensions added with addDimension apply to the next publication only.
 */
export class Metrics {
  private readonly namespace: string;
  private readonly serviceName: string;
  private readonly write: Write;
  private readonly dimensions = new Map<string, string>();
  private readonly values = new Map<string, { unit: MetricUnit; value: number }>();
  private readonly metadata = new Map<string, unknown>();

  constructor(private readonly options: MetricsOptions = {}) {
    this.namespace = options.namespace ?? process.env.POWERTOOLS_METRICS_NAMESPACE ?? METRIC_NAMESPACE;
    this.serviceName = options.serviceName ?? process.env.POWERTOOLS_SERVICE_NAME ?? SERVICE_NAME;
    this.write = options.write ?? stdout;
  }

  addDimension(name: string, value: string): this {
    this.dimensions.set(name, value);
    return this;
  }

  addMetric(name: string, unit: MetricUnit, value: number): this {
    this.values.set(name, { unit, value });
    if (this.options.immediate) this.publishStoredMetrics();
    return this;
  }

  /**
   * A property of the next line that is neither a metric nor a dimension (Powertools' `addMetadata`): CloudWatch
   * keeps it in the log line, where Logs Insights and Contributor Insights read it, and makes no metric of it.
   */
  addMetadata(key: string, value: unknown): this {
    this.metadata.set(key, value);
    return this;
  }

  /** A metric published on its own line with its own dimensions, leaving this instance's stored ones alone. */
  singleMetric(): Metrics {
    return new Metrics({ ...this.options, namespace: this.namespace, serviceName: this.serviceName, immediate: true });
  }

  publishStoredMetrics(at: number = Date.now()): void {
    const disabled = this.options.disabled ?? process.env.POWERTOOLS_METRICS_DISABLED === 'true';
    if (this.values.size > 0 && !disabled) {
      const dimensions: Record<string, string> = {
        [METRIC_DIMENSIONS.service]: this.serviceName,
        ...Object.fromEntries(this.dimensions),
      };
      const line: Record<string, unknown> = {
        _aws: {
          Timestamp: at,
          CloudWatchMetrics: [
            {
              Namespace: this.namespace,
              Dimensions: [Object.keys(dimensions)],
              Metrics: [...this.values].map(([name, { unit }]) => ({ Name: name, Unit: unit })),
            },
          ],
        },
        ...Object.fromEntries(this.metadata),
        ...dimensions,
      };
      for (const [name, { value }] of this.values) line[name] = value;
      this.write(JSON.stringify(line));
    }
    this.values.clear();
    this.dimensions.clear();
    this.metadata.clear();
  }
}
