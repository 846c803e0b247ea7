import {
  ApiFailure,
  BAD_RESPONSE,
  createDashboardApi,
  NETWORK_ERROR,
  parseEnvelope,
  retryAfterSeconds,
} from '../../../web/src/api';

const envelope = (data: unknown) =>
  JSON.stringify({ success: true, data, meta: { timestamp: '2026-11-23T17:00:00.000Z' } });
const refusal = (code: string, message: string, param?: string) =>
  JSON.stringify({ success: false, error: { code, message, ...(param ? { param } : {}) } });

const headerOf = (init: RequestInit | undefined, name: string) =>
  (init?.headers as Record<string, string> | undefined)?.[name];

function fakeFetch(answer: () => Response | Promise<Response>) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetch = jest.fn(async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {} });
    return answer();
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, calls, mock: fetch };
}

describe("reading the API's envelope", () => {
  it('returns data from a success envelope', () => {
    expect(parseEnvelope(200, envelope({ active: 1 }))).toEqual({ active: 1 });
  });

  it('throws the error code, message and param of an error envelope', () => {
    expect(() => parseEnvelope(400, refusal('invalid-parameter', 'Bad name.', 'name'))).toThrow(
      expect.objectContaining({ status: 400, code: 'invalid-parameter', message: 'Bad name.', param: 'name' }),
    );
  });

  it('keeps Retry-After in seconds beside a 429', () => {
    expect(() => parseEnvelope(429, refusal('rate-limit-exceeded', 'slow down'), '120')).toThrow(
      expect.objectContaining({ code: 'rate-limit-exceeded', retryAfterSeconds: 120 }),
    );
  });

  it('refuses a body that is not JSON, such as a gateway error page', () => {
    expect(() => parseEnvelope(502, '<html>Bad Gateway</html>')).toThrow(
      expect.objectContaining({ code: BAD_RESPONSE, status: 502 }),
    );
  });

  it('refuses JSON that is no envelope, and a success envelope under an error status', () => {
    expect(() => parseEnvelope(200, '{"message":"Unauthorized"}')).toThrow(
      expect.objectContaining({ code: BAD_RESPONSE }),
    );
    expect(() => parseEnvelope(500, envelope({}))).toThrow(expect.objectContaining({ code: BAD_RESPONSE }));
  });

  it('reads Retry-After only as whole seconds', () => {
    expect(retryAfterSeconds('30')).toBe(30);
    expect(retryAfterSeconds(' 5 ')).toBe(5);
    expect(retryAfterSeconds('Wed, 21 Oct 2026 07:28:00 GMT')).toBeUndefined();
    expect(retryAfterSeconds(null)).toBeUndefined();
  });
});

describe('the dashboard API client', () => {
  it('sends the raw ID token in Authorization to the configured base', async () => {
    const { fetch, calls } = fakeFetch(() => new Response(envelope({ keys: [] }), { status: 200 }));
    const api = createDashboardApi({ base: '/api', fetch, idToken: () => 'id.t.k' });
    await expect(api.listKeys()).resolves.toEqual({ keys: [] });
    expect(calls[0]?.url).toBe('/api/keys');
    expect(calls[0]?.init.method).toBe('GET');
    expect(headerOf(calls[0]?.init, 'Authorization')).toBe('id.t.k');
    expect(calls[0]?.init.credentials).toBe('omit');
  });

  it('posts a new key name as JSON', async () => {
    const { fetch, calls } = fakeFetch(
      () => new Response(envelope({ key: 'fxr_x', name: 'my laptop' }), { status: 201 }),
    );
    const created = await createDashboardApi({ base: '/api', fetch, idToken: () => 't' }).createKey('my laptop');
    expect(created.key).toBe('fxr_x');
    expect(calls[0]?.init.method).toBe('POST');
    expect(headerOf(calls[0]?.init, 'Content-Type')).toBe('application/json');
    expect(JSON.parse(String(calls[0]?.init.body))).toEqual({ name: 'my laptop' });
  });

  it('escapes the key id into the revocation path', async () => {
    const { fetch, calls } = fakeFetch(() => new Response(envelope({ status: 'revoked' }), { status: 200 }));
    await createDashboardApi({ base: '/api', fetch, idToken: () => 't' }).revokeKey('key_1/../x');
    expect(calls[0]?.url).toBe('/api/keys/key_1%2F..%2Fx');
    expect(calls[0]?.init.method).toBe('DELETE');
  });

  it('fails as unauthenticated without calling the server when no one is signed in', async () => {
    const { fetch, mock } = fakeFetch(() => new Response(envelope({}), { status: 200 }));
    await expect(createDashboardApi({ base: '/api', fetch, idToken: () => null }).account()).rejects.toMatchObject({
      status: 401,
      code: 'unauthenticated',
    });
    expect(mock).not.toHaveBeenCalled();
  });

  it("passes the server's 401 on as unauthenticated, for the page to send the customer to sign-in", async () => {
    const { fetch } = fakeFetch(
      () =>
        new Response(refusal('unauthenticated', 'Sign in again: the session is missing, expired or not valid.'), {
          status: 401,
        }),
    );
    const failure = createDashboardApi({ base: '/api', fetch, idToken: () => 'old' }).plans();
    await expect(failure).rejects.toBeInstanceOf(ApiFailure);
    await expect(failure).rejects.toMatchObject({ status: 401, code: 'unauthenticated' });
  });

  it('reports a failed connection as a network error with status 0', async () => {
    const { fetch } = fakeFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(createDashboardApi({ base: '/api', fetch, idToken: () => 't' }).account()).rejects.toMatchObject({
      status: 0,
      code: NETWORK_ERROR,
    });
  });
});

describe('renewing the session once before giving up', () => {
  const unauthorized = () =>
    new Response(refusal('unauthenticated', 'Sign in again.'), { status: 401, headers: { 'Content-Type': 'x' } });

  function withRefresh(renews: boolean, answers: (() => Response)[]) {
    let token = 'old.id.token';
    const refresh = jest.fn(async () => {
      if (renews) token = 'new.id.token';
      return renews;
    });
    const { fetch, calls } = fakeFetch(() => (answers.shift() ?? unauthorized)());
    const api = createDashboardApi({ base: '/api', fetch, idToken: () => token, refresh });
    return { api, calls, refresh };
  }

  it('renews the ID token after a 401 and sends the request again with the new one', async () => {
    const { api, calls, refresh } = withRefresh(true, [unauthorized, () => new Response(envelope({ keys: [] }))]);
    await expect(api.listKeys()).resolves.toEqual({ keys: [] });
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(calls.map((call) => headerOf(call.init, 'Authorization'))).toEqual(['old.id.token', 'new.id.token']);
  });

  it('gives up with the 401 when the renewal fails or the renewed token is refused too', async () => {
    for (const renews of [false, true]) {
      const { api, calls, refresh } = withRefresh(renews, []);
      await expect(api.account()).rejects.toMatchObject({ status: 401, code: 'unauthenticated' });
      expect([renews, refresh.mock.calls.length, calls.length]).toEqual([renews, 1, renews ? 2 : 1]);
    }
  });

  it('renews first when no current token is left, instead of answering "not signed in"', async () => {
    let token: string | null = null;
    const refresh = async () => {
      token = 'fresh.id.token';
      return true;
    };
    const { fetch, calls } = fakeFetch(() => new Response(envelope({ plans: [] })));
    const api = createDashboardApi({ base: '/api', fetch, idToken: () => token, refresh });
    await expect(api.plans()).resolves.toEqual({ plans: [] });
    expect(headerOf(calls[0]?.init, 'Authorization')).toBe('fresh.id.token');
  });
});
