/** Environment variables, read once per name, failing loudly when a required one is missing. */
const cache = new Map<string, string>();

export function requireEnv(name: string): string {
  const cached = cache.get(name);
  if (cached !== undefined) return cached;
  const value = process.env[name];
  if (value === undefined || value === '') {
    throw new Error(`Environment variable ${name} is required but not set`);
  }
  cache.set(name, value);
  return value;
}

/** A set of variables read like the process's own: a deployed template's, say, for the local tools. */
export type Environment = Readonly<Record<string, string | undefined>>;

export function optionalEnv(name: string, fallback: string, env: Environment = process.env): string {
  const value = env[name];
  return value === undefined || value === '' ? fallback : value;
}
