/** The header that carries the API key: the authorizer's identity source, on AWS and in the local gateway. */
export const API_KEY_HEADER = 'X-API-Key';

/** A header's value by name, in any case: clients, API Gateway and Node each spell header names their own way. */
export function headerValue(
  headers: Readonly<Record<string, string | null | undefined>> | null | undefined,
  name: string,
): string | undefined {
  if (!headers) return undefined;
  const lower = name.toLowerCase();
  // Looked up on every request, several times: a key loop allocates nothing, where Object.entries built the pairs.
  for (const key in headers) {
    if (Object.hasOwn(headers, key) && key.toLowerCase() === lower) return headers[key] ?? undefined;
  }
  return undefined;
}
