/**
 * The local gateway's stand-in for API Gateway's Cognito user pool authorizer on the dashboard API: it accepts an
 * ID token of the pool's app client, RS256-signed with a key of the pool's JWKS, and nothing else. Any failure is one
 * answer, as on AWS: unauthorized.
 */
import { createPublicKey, type JsonWebKey, type KeyObject, verify } from 'node:crypto';

export interface TokenVerifierOptions {
  issuer: string;
  clientId: string;
  /** The pool's JWKS, fetched on first use and again when a token names a key it does not have. */
  jwksUrl: string;
  clock?: () => Date;
}

export type TokenClaims = Readonly<Record<string, unknown>>;

/** Clock skew tolerated on `iat`, as between any two machines. */
const SKEW_SECONDS = 60;

function decodePart(part: string): Record<string, unknown> | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(part)) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The token of an `Authorization` header: the raw token, or after `Bearer `. */
export function tokenOfHeader(header: string | undefined): string | undefined {
  const token = (header ?? '').trim().replace(/^bearer(\s+|$)/i, '');
  return token === '' ? undefined : token;
}

export function createTokenVerifier(options: TokenVerifierOptions) {
  const clock = options.clock ?? (() => new Date());
  let keys: Map<string, KeyObject> | undefined;

  async function loadKeys(): Promise<Map<string, KeyObject>> {
    const response = await fetch(options.jwksUrl);
    if (!response.ok) throw new Error(`the user pool's JWKS answered ${response.status}`);
    const { keys: jwks } = (await response.json()) as { keys?: (JsonWebKey & { kid?: string })[] };
    const loaded = new Map<string, KeyObject>();
    for (const jwk of jwks ?? []) {
      if (typeof jwk.kid === 'string') loaded.set(jwk.kid, createPublicKey({ key: jwk, format: 'jwk' }));
    }
    return loaded;
  }

  async function keyFor(kid: string): Promise<KeyObject | undefined> {
    keys ??= await loadKeys();
    if (!keys.has(kid)) keys = await loadKeys();
    return keys.get(kid);
  }

  /** The verified claims, or undefined for any token API Gateway would refuse. */
  async function verifyToken(token: string | undefined): Promise<TokenClaims | undefined> {
    if (token === undefined) return undefined;
    const parts = token.split('.');
    if (parts.length !== 3) return undefined;
    const [headerPart = '', payloadPart = '', signaturePart = ''] = parts;
    const header = decodePart(headerPart);
    const claims = decodePart(payloadPart);
    if (!header || !claims || header.alg !== 'RS256' || typeof header.kid !== 'string') return undefined;
    if (!/^[A-Za-z0-9_-]+$/.test(signaturePart)) return undefined;
    const key = await keyFor(header.kid);
    if (!key) return undefined;
    const signed = Buffer.from(`${headerPart}.${payloadPart}`);
    if (!verify('RSA-SHA256', signed, key, Buffer.from(signaturePart, 'base64url'))) return undefined;
    const now = clock().getTime() / 1000;
    if (claims.iss !== options.issuer || claims.token_use !== 'id' || claims.aud !== options.clientId) return undefined;
    if (typeof claims.exp !== 'number' || claims.exp <= now) return undefined;
    if (typeof claims.iat === 'number' && claims.iat > now + SKEW_SECONDS) return undefined;
    // Every token Cognito issues names its user; one that does not is forged, and no account can be its owner.
    if (typeof claims.sub !== 'string' || claims.sub === '') return undefined;
    return claims;
  }

  return { verifyToken };
}
