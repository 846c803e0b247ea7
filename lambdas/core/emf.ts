/**
 * EMF lines, apart from observability.ts (which re-exports it) so the endpoints can load it at their first 5xx.
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

/** Dimensions added with addDimension apply to the next publication only. */
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

  /** Powertools' `addMetadata`: kept in the log line for Logs and Contributor Insights, no metric. */
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
