/**
 * JSON logs and EMF lines on stdout, in Powertools' format and reading its variables (POWERTOOLS_SERVICE_NAME,
 * POWERTOOLS_LOG_LEVEL, POWERTOOLS_METRICS_NAMESPACE, POWERTOOLS_METRICS_DISABLED), written here for init time.
 */
// Why: docs/clever-parts.md#hand-written-logger-and-emf-writer
import { Metrics } from './emf';
import { SERVICE_NAME } from './metric-names';
import { stdout, type Write } from './stdout';

export { Metrics, type MetricsOptions, MetricUnit } from './emf';
export type { Write } from './stdout';
export type LogLevel = 'DEBUG' | 'INFO' | 'WARN' | 'ERROR' | 'SILENT';
const RANK: Record<LogLevel, number> = { DEBUG: 10, INFO: 20, WARN: 30, ERROR: 40, SILENT: 100 };

function levelFrom(text: string | undefined): LogLevel {
  const upper = text?.toUpperCase();
  return upper && upper in RANK ? (upper as LogLevel) : 'INFO';
}

/** With `cause`, since a wrapper's message alone rarely says what the store or the network refused. */
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

/** Pure-annotated, so the endpoints (which make their own emitter at their first 5xx) do not build it at init. */
export const logger = /* @__PURE__ */ new Logger();
export const metrics = /* @__PURE__ */ new Metrics();
