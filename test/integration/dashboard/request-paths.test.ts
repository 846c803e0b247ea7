import { MAX_GATEWAY_BODY_BYTES } from '../../../local-server/gateway';
import { useTestApi } from '../../support/api-service';
import { type SignedIn, signUpAndSignIn } from '../../support/dashboard';
import { type RawHttpReply, rawHttp } from '../../support/raw-http';

/**
 * Request targets with dot segments, sent as they are over a real connection (fetch and browsers would remove the
 * segments first): the local gateway decides whether to read the body and which route answers on one path, the
 * normalized one, so such a request gets the answer of its normalized path.
 */
describe('the local gateway on paths with dot segments', () => {
  const ctx = useTestApi({ dashboard: true, now: '2026-11-23T12:00:00Z' });
  let person: SignedIn;

  beforeAll(async () => {
    const cognito = ctx.api.service.cognito;
    if (!cognito) throw new Error('the dashboard was not started');
    person = await signUpAndSignIn(cognito);
  });

  const send = (method: string, path: string, options: { token?: string; body?: string; key?: string } = {}) =>
    rawHttp(ctx.api.service.port, method, path, {
      headers: {
        ...(options.token === undefined ? {} : { Authorization: options.token }),
        ...(options.key === undefined ? {} : { 'X-API-Key': options.key }),
        ...(options.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      ...(options.body === undefined ? {} : { body: options.body }),
    });
  const outcome = (reply: RawHttpReply) => {
    const text = reply.body.toString('utf8');
    const json = reply.headers['content-type']?.toString().startsWith('application/json')
      ? (JSON.parse(text) as { success: boolean; error?: { code: string; message: string } })
      : undefined;
    return { status: reply.status, error: json?.error };
  };

  it('creates a key for a valid body sent to /v1/../api/keys, as it would at /api/keys', async () => {
    const created = await send('POST', '/v1/../api/keys', { token: person.idToken, body: '{"name":"dotted"}' });
    expect(outcome(created)).toEqual({ status: 201, error: undefined });
    const key = JSON.parse(created.body.toString('utf8')).data as { key: string; name: string };
    expect(key.name).toBe('dotted');

    const listed = await send('GET', '/api/keys', { token: person.idToken });
    expect(JSON.parse(listed.body.toString('utf8')).data.keys).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'dotted' })]),
    );
    // The key works on the public API, reached through a dot segment too.
    expect((await send('GET', '/api/../v1/rates/latest', { key: key.key })).status).toBe(200);
  });

  const tooLarge = 'x'.repeat(MAX_GATEWAY_BODY_BYTES + 1);

  it.each([
    ['a parent segment from the public API', '/v1/../api/keys', '/api/keys'],
    ['a percent-encoded parent segment', '/v1/%2e%2e/api/keys', '/api/keys'],
    ['a current-directory segment', '/api/./keys', '/api/keys'],
    ['a parent segment inside the dashboard API', '/api/plans/../keys', '/api/keys'],
    ['a parent segment out of the dashboard API', '/api/../v1/keys', '/v1/keys'],
  ])('answers %s (%s) as its normalized path %s, whatever the body', async (_what, dotted, normalized) => {
    for (const options of [
      { token: person.idToken, body: '{"name":' },
      { body: '{"name":"x"}' },
      { token: person.idToken, body: tooLarge },
    ]) {
      const viaDots = outcome(await send('POST', dotted, options));
      const direct = outcome(await send('POST', normalized, options));
      expect({ dotted, size: options.body.length, ...viaDots }).toEqual({
        dotted,
        size: options.body.length,
        ...direct,
      });
    }
  });

  it('reads the body of POST /v1/../api/keys as the dashboard API reads it: too large, malformed, or no token', async () => {
    const refused = outcome(await send('POST', '/v1/../api/keys', { token: person.idToken, body: tooLarge }));
    expect(refused.error).toEqual({ code: 'invalid-parameter', message: 'The request is too large.' });
    const malformed = outcome(await send('POST', '/v1/../api/keys', { token: person.idToken, body: '{"name":' }));
    expect(malformed.status).toBe(400);
    expect(malformed.error?.code).toBe('invalid-parameter');
    const unauthenticated = outcome(await send('POST', '/v1/../api/keys', { body: '{"name":"x"}' }));
    expect(unauthenticated).toEqual({ status: 401, error: expect.objectContaining({ code: 'unauthenticated' }) });
  });

  it('serves the page and the reference through dot segments, and keeps // and %2f as part of the path', async () => {
    expect((await send('GET', '/v1/../openapi.json')).status).toBe(200);
    expect((await send('GET', '/api/../docs/')).status).toBe(200);
    expect((await send('GET', '/api/../index.html')).status).toBe(200);
    const redirect = await send('GET', '/v1/../docs');
    expect([redirect.status, redirect.headers.location]).toEqual([301, '/docs/']);
    // `//docs/` is a path, not a host named docs with the path `/`; `..%2f` is one segment, not a parent one.
    for (const [method, path] of [
      ['GET', '//docs/'],
      ['POST', '//api/keys'],
      ['POST', '/v1/..%2fapi/keys'],
    ] as const) {
      const body = method === 'POST' ? { body: '{"name":"x"}' } : {};
      const reply = outcome(await send(method, path, { token: person.idToken, ...body }));
      expect({ path, ...reply }).toEqual({
        path,
        status: 404,
        error: { code: 'not-found', message: 'No such endpoint.' },
      });
    }
  });
});
