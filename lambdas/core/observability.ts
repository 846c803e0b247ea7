/**
 * Structured JSON logs and CloudWatch Embedded Metric Format (EMF) lines on stdout, where Lambda's log group
 * picks them up and CloudWatch turns EMF into metrics.
 *
 * Written here instead of taken from Powertools: measured in fresh processes, Powertools Logger adds ~10 ms and
 * Metrics ~9 ms to a function's init, which alone breaks the init budget (1.25 × a bare DynamoDB client). The
 * output format is the same, and so are the environment variables it reads (POWERTOOLS_SERVICE_NAME,
 * POWERTOOLS_LOG_LEVEL, POWERTOOLS_METRICS_NAMESPACE, POWERTOOLS_METRICS_DISABLED).
 */
import { METRIC_DIMENSIONS, METRIC_NAMESPACE, SERVICE_NAME } from './metric-names';
export type LogLevel = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR' | 'SILENT';
const RANK: Record<LogLevel, number> = { DEBUG: 10, INFO: 20, WARN: 30, ERROR: 40, SILENT: 100 };

export type Write = (line: string) => void;

/**
 * Each line goes to stdout whole, through the stream itself and never through `console`. In its default Text log
 * format, Lambda's Node.js runtime replaces `console.log` with a writer that prefixes every line with
 * `timestamp<TAB>requestId<TAB>INFO<TAB>` (and in its JSON log format wraps the line as a string in `message`), so
 * the stored event would no longer be the JSON object that the Contributor Insights rules (`LogFormat: JSON`,
 * `$.accountId`), the Logs Insights queries and Embedded Metric Format read. `process.stdout` is not patched:
 * Lambda stores each line written there as one log event, as it is (Powertools writes through a console of its own
 * on process.stdout for the same reason). This keeps the functions on the default Text log format, where every
 * other output (the SDK's warnings, an uncaught error) stays readable, and needs no setting on the functions.
 * The stream is read at the first write, not at import, so loading a bundle costs nothing more.
 */
const stdout: Write = (line) => {
  process.stdout.write(`${line}\n`);
};

function levelFrom(text: string | undefined): LogLevel {
  const upper = text?.toUpperCase();
  return upper && upper in RANK ? (upper as LogLevel) : 'INFO';
}

/**
 * Errors do not survive JSON.stringify; their name, message and stack do here, and so does the error they wrap
 * (`cause`), since a wrapper's message alone rarely says what the store or the network refused.
 */
function plain(value: unknown, depth = 0): unknown {
  if (!(value instanceof Error)) return value;
  const fields: Record<string, unknown> = { name: value.name, message: value.message, stack: value.stack };
  if (value.cause !== undefined && depth < 3) fields.cause = plain(value.cause, depth + 1);
  return fields;
}

export class Logger {
  private readonly serviceName: string;
  private readonly level: LogLevel | undefined;
  private readonly write: Write;

  constructor(options: { serviceName?: string; logLevel?: LogLevel; write?: Write } = {}) {
    this.serviceName = options.serviceName ?? process.env.POWERTOOLS_SERVICE_NAME ?? SERVICE_NAME;
    this.level = options.logLevel;
    this.write = options.write ?? stdout;
  }

  debug(message: string, extra?: Record<string, unknown>): void {
    this.log('DEBUG', message, extra);
  }
  info(message: string, extra?: Record<string, unknown>): void {
    this.log('INFO', message, extra);
  }
  warn(message: string, extra?: Record<string, unknown>): void {
    this.log('WARN', message, extra);
  }
  error(message: string, extra?: Record<string, unknown>): void {
    this.log('ERROR', message, extra);
  }

  private log(level: LogLevel, message: string, extra: Record<string, unknown> = {}): void {
    // Read per call, so a process (tests, the local server) can change it after the module loaded.
    const threshold = this.level ?? levelFrom(process.env.POWERTOOLS_LOG_LEVEL);
    if (RANK[level] < RANK[threshold]) return;
    const fields: Record<string, unknown> = {
      level,
      message,
      timestamp: new Date().toISOString(),
      service: this.serviceName,
    };
    for (const [key, value] of Object.entries(extra)) fields[key] = plain(value);
    this.write(JSON.stringify(fields));
  }
}

export const MetricUnit = {
  Count: 'Count',
  Seconds: 'Seconds',
  Milliseconds: 'Milliseconds',
  Bytes: 'Bytes',
} as const;
export type MetricUnit = (typeof MetricUnit)[keyof typeof MetricUnit];

interface MetricsOptions {
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

/**
 * One logger and one metrics emitter per function process; every function is service `fxrates`. Pure-annotated,
 * so a function that does not use this emitter (the endpoints, which create one of their own only at their first
 * 5xx answer: http/server-errors.ts) does not construct it at init.
 */
export const logger = /* @__PURE__ */ new Logger();
export const metrics = /* @__PURE__ */ new Metrics();
