/** The one name of the tracing variable, so the CDK app that sets it and the code that reads it cannot disagree. */
export const TRACING_ENV = 'FXRATES_TRACING';

export type TracingSetting = 'true' | 'false';

export function tracingSetting(enabled: boolean): TracingSetting {
  return enabled ? 'true' : 'false';
}

/** True only when the deployment turned tracing on; a missing or other value (local runs) means off. */
export function tracingEnabled(env: Readonly<Record<string, string | undefined>> = process.env): boolean {
  return env[TRACING_ENV] === 'true';
}
