/** The page's settings, read from /config.json at start (generated at deploy on AWS, served by the local server). */
export interface PageConfig {
  cognito: { endpoint: string; region: string; userPoolId: string; clientId: string };
  /** The dashboard API's base path, same origin as the page, e.g. `/api`. */
  apiBase: string;
  /** The public API's base URL, for the example request, e.g. `https://example.com/v1/`. */
  apiUrl: string;
  contact: string | null;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(source: Record<string, unknown>, key: string, where: string): string {
  const value = source[key];
  if (typeof value !== 'string' || value.trim() === '') throw new ConfigError(`${where}${key} is missing`);
  return value;
}

function webUrl(value: string, what: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${what} is not a URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ConfigError(`${what} is not an http(s) URL`);
  return value;
}

/** Checks the parsed config.json; a page with half a config would fail later in ways a customer cannot read. */
export function parseConfig(raw: unknown): PageConfig {
  if (!isRecord(raw) || !isRecord(raw.cognito)) throw new ConfigError('cognito settings are missing');
  const cognito = raw.cognito;
  const contact = raw.contact;
  return {
    cognito: {
      endpoint: webUrl(text(cognito, 'endpoint', 'cognito.'), 'cognito.endpoint'),
      region: text(cognito, 'region', 'cognito.'),
      userPoolId: text(cognito, 'userPoolId', 'cognito.'),
      clientId: text(cognito, 'clientId', 'cognito.'),
    },
    apiBase: text(raw, 'apiBase', '').replace(/\/+$/, ''),
    apiUrl: webUrl(text(raw, 'apiUrl', ''), 'apiUrl'),
    contact: typeof contact === 'string' && contact.trim() !== '' ? contact : null,
  };
}
