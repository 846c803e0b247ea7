import { createSign, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTokenVerifier, tokenOfHeader } from '../../../local-server/cognito-tokens';

const ISSUER = 'http://127.0.0.1:9/local_pool';
const CLIENT_ID = 'client-1';
const NOW = Date.parse('2026-11-23T12:00:00Z') / 1000;

const pool = generateKeyPairSync('rsa', { modulusLength: 2048 });
const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 });

function sign(
  claims: Record<string, unknown>,
  options: { key?: KeyObject; header?: Record<string, unknown> } = {},
): string {
  const header = options.header ?? { alg: 'RS256', kid: 'pool-key', typ: 'JWT' };
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const signed = `${encode(header)}.${encode(claims)}`;
  const signature = createSign('RSA-SHA256')
    .update(signed)
    .sign(options.key ?? pool.privateKey)
    .toString('base64url');
  return `${signed}.${signature}`;
}

const idClaims = (overrides: Record<string, unknown> = {}) => ({
  sub: 'person-1',
  email: 'person@example.com',
  email_verified: true,
  token_use: 'id',
  aud: CLIENT_ID,
  iss: ISSUER,
  iat: NOW - 10,
  exp: NOW + 3600,
  ...overrides,
});

let server: Server;
let jwksUrl: string;
let jwksRequests = 0;

beforeAll(async () => {
  server = createServer((_req, res) => {
    jwksRequests++;
    const jwk = { ...pool.publicKey.export({ format: 'jwk' }), kid: 'pool-key', alg: 'RS256', use: 'sig' };
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  jwksUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/local_pool/.well-known/jwks.json`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function verifier() {
  return createTokenVerifier({ issuer: ISSUER, clientId: CLIENT_ID, jwksUrl, clock: () => new Date(NOW * 1000) });
}

describe('createTokenVerifier', () => {
  it("accepts an ID token of the pool's app client and returns its claims", async () => {
    const claims = await verifier().verifyToken(sign(idClaims()));
    expect(claims).toMatchObject({ sub: 'person-1', email: 'person@example.com', email_verified: true });
  });

  it.each([
    ['signed by another key under the pool key id', () => sign(idClaims(), { key: stranger.privateKey })],
    ['for another app client', () => sign(idClaims({ aud: 'client-2' }))],
    ['from another issuer', () => sign(idClaims({ iss: 'http://127.0.0.1:9/local_other' }))],
    ['that is an access token', () => sign(idClaims({ token_use: 'access' }))],
    ['that has expired', () => sign(idClaims({ exp: NOW - 1 }))],
    ['without an expiry', () => sign(idClaims({ exp: undefined }))],
    ['issued in the future', () => sign(idClaims({ iat: NOW + 600 }))],
    ['without a sub', () => sign(idClaims({ sub: undefined }))],
    ['with an empty sub', () => sign(idClaims({ sub: '' }))],
    [
      'with alg none',
      () =>
        `${sign(idClaims(), { header: { alg: 'none', kid: 'pool-key' } })
          .split('.')
          .slice(0, 2)
          .join('.')}.`,
    ],
    ['with an HMAC algorithm', () => sign(idClaims(), { header: { alg: 'HS256', kid: 'pool-key' } })],
    ['naming a key the pool does not have', () => sign(idClaims(), { header: { alg: 'RS256', kid: 'other' } })],
    [
      'with its claims altered after signing',
      () => {
        const [header, , signature] = sign(idClaims()).split('.');
        const forged = Buffer.from(JSON.stringify(idClaims({ sub: 'person-2' }))).toString('base64url');
        return `${header}.${forged}.${signature}`;
      },
    ],
    ['that is not a JWT', () => 'not-a-token'],
    ['with four parts', () => `${sign(idClaims())}.extra`],
    ['with a payload that is not JSON', () => `${sign(idClaims()).split('.')[0]}.bm90IGpzb24.c2ln`],
  ])('refuses a token %s', async (_, token) => {
    expect(await verifier().verifyToken(token())).toBeUndefined();
  });

  it('refuses a missing token without fetching the key set', async () => {
    const before = jwksRequests;
    expect(await verifier().verifyToken(undefined)).toBeUndefined();
    expect(jwksRequests).toBe(before);
  });

  it('fetches the key set once for many tokens of a known key', async () => {
    const v = verifier();
    const before = jwksRequests;
    for (let i = 0; i < 5; i++) expect(await v.verifyToken(sign(idClaims()))).toBeDefined();
    expect(jwksRequests - before).toBe(1);
  });
});

describe('tokenOfHeader', () => {
  it.each([
    ['abc.def.ghi', 'abc.def.ghi'],
    ['Bearer abc.def.ghi', 'abc.def.ghi'],
    ['bearer   abc.def.ghi ', 'abc.def.ghi'],
    ['', undefined],
    ['Bearer ', undefined],
    [undefined, undefined],
  ])('reads %p as %p', (header, token) => {
    expect(tokenOfHeader(header)).toBe(token);
  });
});
