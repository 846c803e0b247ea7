import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { buildSite, OPENAPI_FILE } from '../../../api-docs/site';
import { useTestApi } from '../../support/api-service';
import { type SignedIn, signUpAndSignIn } from '../../support/dashboard';
import { type RawHttpReply, rawHttp } from '../../support/raw-http';

/**
 * The page, its assets, /docs/ and /openapi.json on the local server, over real HTTP with Node's client (which
 * neither asks for nor undoes compression): sent in the coding the client accepts best, each coding with its own
 * ETag, revalidated with 304, as CloudFront serves them on AWS. The API's own answers stay uncompressed, as API
 * Gateway sends them.
 */
describe('the local server’s static files', () => {
  const ctx = useTestApi({ dashboard: true });
  const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    rawHttp(ctx.api.service.port, method, path, { headers });
  const decoded = (reply: RawHttpReply): Buffer => {
    const coding = reply.headers['content-encoding'];
    if (coding === 'br') return brotliDecompressSync(reply.body);
    if (coding === 'gzip') return gunzipSync(reply.body);
    if (coding === undefined) return reply.body;
    throw new Error(`unexpected coding ${String(coding)}`);
  };
  const CHROME = 'gzip, deflate, br, zstd';

  describe('/openapi.json', () => {
    const document = Buffer.from(buildSite()[OPENAPI_FILE], 'utf8');

    it('is sent as it is, without Content-Encoding, to a client that sends no Accept-Encoding', async () => {
      const reply = await get('/openapi.json');
      expect(reply.status).toBe(200);
      expect(reply.headers['content-encoding']).toBeUndefined();
      expect(reply.headers['content-length']).toBe(String(document.length));
      expect(reply.headers.vary).toBe('Accept-Encoding');
      expect(reply.body.equals(document)).toBe(true);
    });

    it.each([
      ['gzip', 8],
      ['br', 16],
    ])('is sent %s-compressed to a client that accepts it, at least %d times smaller', async (coding, ratio) => {
      const reply = await get('/openapi.json', { 'Accept-Encoding': coding });
      expect(reply.status).toBe(200);
      expect(reply.headers['content-encoding']).toBe(coding);
      expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(reply.headers.vary).toBe('Accept-Encoding');
      expect(reply.headers['content-length']).toBe(String(reply.body.length));
      expect(decoded(reply).equals(document)).toBe(true);
      expect(reply.body.length * ratio).toBeLessThan(document.length);
    });

    it('prefers brotli when both are equally welcome, and is the same bytes on every request', async () => {
      const first = await get('/openapi.json', { 'Accept-Encoding': CHROME });
      const second = await get('/openapi.json', { 'Accept-Encoding': CHROME });
      expect(first.headers['content-encoding']).toBe('br');
      expect(second.body.equals(first.body)).toBe(true);
      const gzip = await get('/openapi.json', { 'Accept-Encoding': 'gzip' });
      expect(first.body.length).toBeLessThan(gzip.body.length);
    });

    it.each([
      ['gzip;q=1, br;q=0.5', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['br;q=0, gzip;q=0', 'identity'],
      ['gzip;q=0', 'identity'],
      ['*', 'br'],
      ['*;q=0.5, br;q=0', 'gzip'],
      ['identity, gzip;q=0.5', 'identity'],
      ['identity;q=0, gzip;q=0.2', 'gzip'],
      ['x-gzip', 'gzip'],
      ['BR', 'br'],
      ['deflate, zstd', 'identity'],
      ['', 'identity'],
    ])('honours Accept-Encoding "%s", its weights and refusals: sends %s', async (accept, coding) => {
      const reply = await get('/openapi.json', { 'Accept-Encoding': accept });
      expect([accept, reply.status, reply.headers['content-encoding'] ?? 'identity']).toEqual([accept, 200, coding]);
      expect(decoded(reply).equals(document)).toBe(true);
    });

    it('answers 406 in the envelope when every coding, identity included, is refused', async () => {
      for (const accept of ['identity;q=0, *;q=0', '*;q=0', 'deflate, identity;q=0']) {
        const reply = await get('/openapi.json', { 'Accept-Encoding': accept });
        expect([accept, reply.status]).toEqual([accept, 406]);
        expect(JSON.parse(reply.body.toString('utf8'))).toEqual({
          success: false,
          error: { code: 'invalid-parameter', message: 'The request was refused.' },
        });
        expect(reply.headers['x-request-id']).toBeTruthy();
      }
    });

    it('answers HEAD with the headers of GET in the same coding, and no body', async () => {
      for (const accept of [undefined, 'gzip', 'br']) {
        const headers: Record<string, string> = accept === undefined ? {} : { 'Accept-Encoding': accept };
        const got = await get('/openapi.json', headers);
        const head = await get('/openapi.json', headers, 'HEAD');
        expect(head.status).toBe(200);
        expect(head.body.length).toBe(0);
        for (const name of ['content-encoding', 'content-length', 'content-type', 'etag', 'vary', 'cache-control']) {
          expect([accept, name, head.headers[name]]).toEqual([accept, name, got.headers[name]]);
        }
      }
    });

    it('gives each coding its own ETag and answers 304 to an If-None-Match naming the tag of the coding sent', async () => {
      const tags = new Map<string, string>();
      for (const accept of ['identity', 'gzip', 'br']) {
        const reply = await get('/openapi.json', { 'Accept-Encoding': accept });
        const etag = String(reply.headers.etag);
        expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
        tags.set(accept, etag);

        const again = await get('/openapi.json', { 'Accept-Encoding': accept, 'If-None-Match': etag });
        expect([accept, again.status, again.body.length]).toEqual([accept, 304, 0]);
        expect(again.headers.etag).toBe(etag);
        expect(again.headers.vary).toBe('Accept-Encoding');
        expect(again.headers['cache-control']).toBe('no-cache');
        // Weak comparison: the W/ prefix and a list of tags still match.
        const weak = await get('/openapi.json', { 'Accept-Encoding': accept, 'If-None-Match': `"x", W/${etag}` });
        expect(weak.status).toBe(304);
      }
      expect(new Set(tags.values()).size).toBe(3);
      // A tag of another coding does not match: the client gets the body it asked for now.
      const switched = await get('/openapi.json', {
        'Accept-Encoding': 'br',
        'If-None-Match': String(tags.get('gzip')),
      });
      expect([switched.status, switched.headers['content-encoding']]).toEqual([200, 'br']);
      expect(decoded(switched).equals(document)).toBe(true);
      expect((await get('/openapi.json', { 'If-None-Match': '*' })).status).toBe(304);
      expect((await get('/openapi.json', { 'If-None-Match': '"stale"' })).status).toBe(200);
    });
  });

  describe('the page, its assets and the reference page', () => {
    it.each([
      ['/', 'br'],
      ['/index.html', 'br'],
      ['/app.js', 'br'],
      ['/app.css', 'br'],
      ['/docs/', 'br'],
      // Under 1,000 bytes, as CloudFront, the identity body is sent when the client accepts it.
      ['/favicon.svg', 'identity'],
      ['/config.json', 'identity'],
    ])('sends %s to a browser as %s, the same bytes once decoded, with the same headers', async (path, coding) => {
      const plain = await get(path);
      const compressed = await get(path, { 'Accept-Encoding': CHROME });
      expect([path, plain.status, compressed.status]).toEqual([path, 200, 200]);
      expect([path, compressed.headers['content-encoding'] ?? 'identity']).toEqual([path, coding]);
      expect(decoded(compressed).equals(plain.body)).toBe(true);
      expect(compressed.headers.vary).toBe('Accept-Encoding');
      for (const name of ['content-type', 'cache-control', 'content-security-policy', 'x-content-type-options']) {
        expect([path, name, compressed.headers[name]]).toEqual([path, name, plain.headers[name]]);
      }
      if (coding !== 'identity') expect(compressed.body.length).toBeLessThan(plain.body.length / 2);
      // Asked for it, a small file is compressed too.
      const gzip = await get(path, { 'Accept-Encoding': 'gzip, identity;q=0' });
      expect([path, gzip.status, gzip.headers['content-encoding']]).toEqual([path, 200, 'gzip']);
      expect(decoded(gzip).equals(plain.body)).toBe(true);
    });

    it('serves the favicon once: a browser revalidating it gets 304 and no body, for as long as it is unchanged', async () => {
      const first = await get('/favicon.svg', { 'Accept-Encoding': CHROME });
      expect(first.status).toBe(200);
      expect(first.headers['content-type']).toBe('image/svg+xml');
      expect(first.headers['cache-control']).toBe('no-cache');
      const etag = String(first.headers.etag);
      for (let i = 0; i < 3; i += 1) {
        const again = await get('/favicon.svg', { 'Accept-Encoding': CHROME, 'If-None-Match': etag });
        expect([again.status, again.body.length, again.headers.etag]).toEqual([304, 0, etag]);
      }
    });

    it('keeps the /docs redirect as it is', async () => {
      const redirect = await get('/docs', { 'Accept-Encoding': CHROME });
      expect([redirect.status, redirect.headers.location, redirect.headers['content-encoding']]).toEqual([
        301,
        '/docs/',
        undefined,
      ]);
    });
  });

  describe('the API', () => {
    let person: SignedIn;
    beforeAll(async () => {
      const cognito = ctx.api.service.cognito;
      if (!cognito) throw new Error('the dashboard was not started');
      person = await signUpAndSignIn(cognito);
    });

    it('sends its answers uncompressed, as API Gateway does without minimumCompressionSize', async () => {
      const key = (await ctx.api.newKey('business')).key;
      const rates = await get('/v1/rates/latest', { 'Accept-Encoding': CHROME, 'X-API-Key': key });
      expect(rates.status).toBe(200);
      expect(rates.headers['content-encoding']).toBeUndefined();
      expect(JSON.parse(rates.body.toString('utf8')).success).toBe(true);
      const account = await get('/api/account', { 'Accept-Encoding': CHROME, Authorization: person.idToken });
      expect(account.status).toBe(200);
      expect(account.headers['content-encoding']).toBeUndefined();
      expect(JSON.parse(account.body.toString('utf8')).success).toBe(true);
    });
  });
});
