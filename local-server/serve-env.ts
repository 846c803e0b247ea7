/**
 * `npm start`'s settings from its environment, checked before anything starts. The ingestion settings are the
 * backfill's too (bin/backfill.ts).
 */
import { isIP } from 'node:net';
import { parseSourceList, SOURCE_IDS, SOURCES_ENV, type SourceId } from '../lambdas/core/domain/rates';
import { type Environment, optionalEnv } from '../lambdas/core/env';
import { crossCheckExemptFromEnv, crossCheckToleranceFromEnv, INGEST_ENV } from '../lambdas/core/ingest/fetchers';
import { StartupError } from './startup-errors';

export const DEFAULT_PORT = 3000;
export const DEFAULT_HOST = '127.0.0.1';

/** A value as a message shows it: control and non-ASCII characters escaped, at most 40 characters. */
function shown(value: string): string {
  const escaped = JSON.stringify(value).slice(1, -1).replaceAll("'", "\\'");
  return escaped.length > 40 ? `${escaped.slice(0, 40)}…` : escaped;
}

/**
 * PORT: unset or empty means 3000 (an empty PORT must not bind a random port); otherwise a whole number from 0 to
 * 65535 in decimal digits (0 lets the system pick a free port). Anything else ("abc", "3000x", "-1", "70000", "1e3")
 * is refused.
 */
export function parsePort(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return DEFAULT_PORT;
  const port = /^\s*\d{1,5}\s*$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(port) || port > 65535) {
    throw new StartupError(`PORT must be a port number from 0 to 65535, not '${shown(value)}'.`);
  }
  return port;
}

/** A host name as DNS allows it: labels of letters, digits and hyphens, neither starting nor ending with a hyphen. */
const HOST_NAME =
  /^(?=.{1,253}\.?$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$/;

/**
 * HOST: unset or empty means 127.0.0.1; otherwise an IP address or a host name. Whether it is an address of this
 * machine is known only when the server tries to listen there (startup-errors.ts words that failure).
 */
export function parseHost(value: string | undefined): string {
  if (value === undefined || value.trim() === '') return DEFAULT_HOST;
  const host = value.trim();
  if (isIP(host) === 0 && !HOST_NAME.test(host)) {
    throw new StartupError(`HOST must be an IP address or a host name of this machine, not '${shown(value)}'.`);
  }
  return host;
}

export interface IngestSettings {
  sources: readonly SourceId[];
  crossCheckTolerance: number;
  crossCheckExempt: readonly string[];
}

/**
 * SOURCES, CROSS_CHECK_TOLERANCE and CROSS_CHECK_EXEMPT, read as the ingest function reads them (the same defaults,
 * the same rules), so a start loads, fetches, merges and cross-checks what a deployment with those settings would.
 * `env` is the process's own by default; `npm run serve:cdk-out` passes the ingest function's from the template. A
 * refused value is a StartupError worded as PORT's is.
 */
export function readIngestSettings(env: Environment = process.env): IngestSettings {
  const setting = <T>(name: string, read: () => T, rule: string): T => {
    try {
      return read();
    } catch {
      throw new StartupError(`${name} must be ${rule}, not '${shown(env[name] ?? '')}'.`);
    }
  };
  return {
    sources: setting(
      SOURCES_ENV,
      () => parseSourceList(optionalEnv(SOURCES_ENV, SOURCE_IDS.join(','), env)),
      `some of ${SOURCE_IDS.join(', ')}, separated by commas`,
    ),
    crossCheckTolerance: setting(
      INGEST_ENV.crossCheckTolerance,
      () => crossCheckToleranceFromEnv(env),
      'a fraction above 0 and at most 1',
    ),
    crossCheckExempt: setting(
      INGEST_ENV.crossCheckExempt,
      () => crossCheckExemptFromEnv(env),
      'ISO currency codes separated by commas, or none',
    ),
  };
}

/** What the ingest function merges and cross-checks days by (ingestDays, runIngestion). */
export interface MergeSettings {
  order: readonly SourceId[];
  crossCheckTolerance: number;
  crossCheckExempt: readonly string[];
}

/** The merge's settings from the ingestion's: SOURCES' order ranks the sources. */
export function mergeSettings(settings: IngestSettings): MergeSettings {
  return {
    order: settings.sources,
    crossCheckTolerance: settings.crossCheckTolerance,
    crossCheckExempt: settings.crossCheckExempt,
  };
}
