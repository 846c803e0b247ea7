/**
 * Whether X-Ray tracing is on for this deployment (context flag `tracing`, off by default). The CDK app sets the
 * variable on every function from the same name, and code that instruments clients reads it here, so the two
 * sides cannot disagree on it.
 */
export const TRACING_ENV = 'FXRATES_TRACING';

export type TracingSetting = 'true' | 'false';

/** The variable's value for a deployment. */
export function tracingSetting(enabled: boolean): TracingSetting {
  return enabled ? 'true' : 'false';
}

/** True only when the deployment turned tracing on; a missing or other value (local runs) means off. */
export function tracingEnabled(env: Readonly<Record<string, string | undefined>> = process.env): boolean {
  return env[TRACING_ENV] === 'true';
}
