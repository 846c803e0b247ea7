import { KEY_CREATION_LIMIT } from '../../../lambdas/core/dashboard/deps';
import { accountIdForOwner } from '../../../lambdas/core/domain/api-key';
import type { CognitoEmulator } from '../../../local-server/cognito-emulator';
import { type TestApi, useTestApi } from '../../support/api-service';
import {
  cognitoCall,
  dashboardRequest,
  idClaims,
  mintToken,
  type SignedIn,
  signUpAndSignIn,
} from '../../support/dashboard';

/**
 * The dashboard API over real HTTP on the local server, with real tokens from the Cognito emulator: the local
 * gateway checks them as API Gateway's Cognito authorizer does, and the same endpoint modules as the Lambda
 * functions answer.
 */
describe('dashboard API', () => {
  const ctx = useTestApi({ dashboard: true, now: '2026-11-23T12:00:00Z' });
  const api = (): TestApi => ctx.api;
  const cognito = (): CognitoEmulator => {
    const emulator = api().service.cognito;
    if (!emulator) throw new Error('the dashboard was not started');
    return emulator;
  };
  const nowSeconds = () => Math.floor(api().clock.now().getTime() / 1000);
  const call = (method: string, path: string, person: SignedIn | string | undefined, body?: unknown) =>
    dashboardRequest(api(), method, path, {
      ...(person === undefined ? {} : { token: typeof person === 'string' ? person : person.idToken }),
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
  const errorOf = (reply: { json: () => { error?: { code: string; param?: string } } }) => reply.json().error;

  describe('tokens', () => {
    it.each([
      ['no Authorization header', () => undefined],
      ['a token that is not a JWT', () => 'garbage'],
      ['a token signed by another key', () => mintToken(idClaims(cognito(), nowSeconds()), 'stranger')],
      ['an expired token', () => mintToken(idClaims(cognito(), nowSeconds(), { exp: nowSeconds() - 1 }))],
      ['a token for another app client', () => mintToken(idClaims(cognito(), nowSeconds(), { aud: 'other' }))],
      ['a token of another pool', () => mintToken(idClaims(cognito(), nowSeconds(), { iss: `${cognito().issuer}x` }))],
      ['an access token', () => mintToken(idClaims(cognito(), nowSeconds(), { token_use: 'access' }))],
    ])('answers 401 unauthenticated to %s, before any function runs', async (_, token) => {
      const reply = await call('GET', '/api/account', token());
      expect(reply.status).toBe(401);
      expect(reply.json()).toEqual({
        success: false,
        error: { code: 'unauthenticated', message: 'Sign in again: the session is missing, expired or not valid.' },
      });
      expect(reply.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect(reply.headers.get('cache-control')).toBe('no-store');
    });

    it("refuses the emulator's real access token, which is not an ID token", async () => {
      const person = await signUpAndSignIn(cognito());
      expect((await call('GET', '/api/account', person.accessToken)).status).toBe(401);
      expect((await call('GET', '/api/account', `Bearer ${person.idToken}`)).status).toBe(200);
    });

    it('signs a person out everywhere: their refresh token stops working, and a forged access token is refused', async () => {
      const person = await signUpAndSignIn(cognito());
      const refresh = () =>
        cognitoCall(cognito(), 'InitiateAuth', {
          ClientId: cognito().clientId,
          AuthFlow: 'REFRESH_TOKEN_AUTH',
          AuthParameters: { REFRESH_TOKEN: person.refreshToken },
        });
      expect((await refresh()).status).toBe(200);
      const forged = mintToken(
        { ...idClaims(cognito(), nowSeconds()), token_use: 'access', username: person.sub },
        'stranger',
      );
      const refused = await cognitoCall(cognito(), 'GlobalSignOut', { AccessToken: forged });
      expect([refused.status, refused.body.__type]).toEqual([400, 'NotAuthorizedException']);
      expect((await refresh()).status).toBe(200);
      expect(await cognitoCall(cognito(), 'GlobalSignOut', { AccessToken: person.accessToken })).toEqual({
        status: 200,
        body: {},
      });
      const after = await refresh();
      expect([after.status, after.body.__type]).toEqual([400, 'NotAuthorizedException']);
    });

    it('answers 403 email-not-verified to a valid token whose address is not verified', async () => {
      const token = mintToken(idClaims(cognito(), nowSeconds(), { sub: 'unverified', email_verified: false }));
      const reply = await call('GET', '/api/keys', token);
      expect(reply.status).toBe(403);
      expect(errorOf(reply)?.code).toBe('email-not-verified');
      await expect(api().service.accounts.findAccount(accountIdForOwner('unverified'))).resolves.toBeUndefined();
    });

    it('answers 404 not-found to an unknown path or method, whatever the token', async () => {
      for (const [method, path] of [
        ['GET', '/api/nothing'],
        ['PUT', '/api/keys'],
        ['GET', '/api/keys/key_x'],
        ['GET', '/api'],
      ] as const) {
        const reply = await call(method, path, undefined);
        expect([method, path, reply.status, errorOf(reply)?.code]).toEqual([method, path, 404, 'not-found']);
      }
    });
  });

  describe('a new customer', () => {
    let person: SignedIn;
    beforeAll(async () => {
      person = await signUpAndSignIn(cognito());
    });

    it('gets a verified Free account on the first request, which the operator sees with its owner', async () => {
      const reply = await call('GET', '/api/account', person);
      expect(reply.status).toBe(200);
      const data = reply.json().data as Record<string, Record<string, unknown>>;
      expect(data.account).toMatchObject({
        id: accountIdForOwner(person.sub),
        email: person.email,
        plan: 'free',
        plan_name: 'Free',
        status: 'active',
      });
      expect(data.quota).toEqual({
        plan: 'Free',
        quota: {
          base_limit: 1500,
          effective_limit: 1500,
          used: 0,
          remaining: 1500,
          overflow_allowed: false,
          overflow_percent: 0,
        },
        resets_at: '2026-12-01T00:00:00Z',
      });
      expect(data.usage?.month).toBe('2026-11');
      expect(data.usage?.days).toHaveLength(23);
      expect(data.keys).toEqual({ active: 0, max_active: 1, next_key_at: null });
      expect(data.usage?.quota_checks).toBe(0);
      const stored = await api().service.accounts.getAccount(accountIdForOwner(person.sub));
      expect(stored).toMatchObject({ owner: person.sub, email: person.email, verified: true, plan: 'free' });
    });

    it('creates a named key once, lists it without its secret, and refuses a second on Free', async () => {
      const created = await call('POST', '/api/keys', person, { name: '  my laptop  ' });
      expect(created.status).toBe(201);
      const key = created.json().data as { key: string; id: string; prefix: string; name: string; status: string };
      expect(key.key).toMatch(/^fxr_[0-9A-Za-z]{38}$/);
      expect(key).toMatchObject({ name: 'my laptop', status: 'active', prefix: key.key.slice(0, 8) });

      const listed = await call('GET', '/api/keys', person);
      expect(listed.text).not.toContain(key.key);
      expect(listed.text).not.toContain(key.key.slice(8));
      expect(listed.json().data).toMatchObject({
        keys: [{ id: key.id, name: 'my laptop', prefix: key.prefix, status: 'active' }],
        active: 1,
        max_active: 1,
        can_create: false,
        cannot_create_reason: expect.stringContaining('Free plan allows 1 active key'),
      });

      const second = await call('POST', '/api/keys', person, { name: 'second' });
      expect(second.status).toBe(409);
      expect(errorOf(second)?.code).toBe('key-limit-reached');
    });

    it('counts calls with the key on the overview: requests today, refusals, and the quota checks the month leaves out', async () => {
      const { key, id } = await newKeyFor(person, 'pro');
      for (let i = 0; i < 3; i++) expect((await api().get('rates/latest', key)).status).toBe(200);
      for (let i = 0; i < 2; i++) expect((await api().get('quota', key)).status).toBe(200);
      // Back to Free, which holds one active key: the operator revokes the other first, as the store requires.
      const accountId = accountIdForOwner(person.sub);
      for (const other of await api().service.accounts.listKeys(accountId)) {
        if (other.keyId !== id && !other.revokedAt) await api().service.accounts.revokeKey(other.keyId);
      }
      await api().service.accounts.setPlan(accountId, 'free');
      // The authorizer sees the plan change once its cached record expires; Free then allows 10 per minute.
      api().clock.advance(61_000);
      const statuses = [];
      for (let i = 0; i < 11; i++) statuses.push((await api().get('rates/latest', key)).status);
      expect(statuses.filter((s) => s === 429)).toHaveLength(1);
      const overview = (await call('GET', '/api/account', person)).json().data as {
        usage: { days: { date: string; requests: number; refused: number }[]; quota_checks: number };
        quota: { quota: { used: number } };
      };
      expect(overview.usage.days.at(-1)).toEqual({ date: '2026-11-23', requests: 15, refused: 1 });
      expect(overview.usage.days.slice(0, -1).every((d) => d.requests === 0 && d.refused === 0)).toBe(true);
      expect(overview.quota.quota.used).toBe(13);
      expect(overview.usage.quota_checks).toBe(2);
    });

    async function newKeyFor(who: SignedIn, plan: 'pro' | 'business') {
      const accountId = accountIdForOwner(who.sub);
      await api().service.accounts.setPlan(accountId, plan);
      const reply = await call('POST', '/api/keys', who, { name: `k-${Date.now()}` });
      expect(reply.status).toBe(201);
      return reply.json().data as { key: string; id: string };
    }

    it('writes no key to any log, in success or failure', async () => {
      const written: string[] = [];
      const spies = [
        jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
          written.push(String(chunk));
          return true;
        }),
        jest.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
          written.push(String(chunk));
          return true;
        }),
        ...(['log', 'info', 'warn', 'error', 'debug'] as const).map((level) =>
          jest.spyOn(console, level).mockImplementation((...args: unknown[]) => {
            written.push(args.map(String).join(' '));
          }),
        ),
      ];
      try {
        await api().service.accounts.setPlan(accountIdForOwner(person.sub), 'business');
        const { key } = (await call('POST', '/api/keys', person, { name: 'quiet' })).json().data as { key: string };
        expect(key).toMatch(/^fxr_/);
        await api().get('rates/latest', key);
        await api().get('rates/latest', `${key.slice(0, -1)}x`);
        await call('POST', '/api/keys', person, '{"name":');
        expect(written.join('\n')).not.toContain(key.slice(8));
      } finally {
        for (const spy of spies) spy.mockRestore();
      }
    });

    it('shows the current plan, which the operator changes, and the plans on offer', async () => {
      await api().service.accounts.setPlan(accountIdForOwner(person.sub), 'business');
      const reply = await call('GET', '/api/plans', person);
      const data = reply.json().data as { current: string; contact: unknown; plans: { id: string }[] };
      expect(data.current).toBe('business');
      expect(data.contact).toBeNull();
      expect(data.plans.map((p) => p.id)).toEqual(['free', 'pro', 'business']);
      expect(data.plans[1]).toMatchObject({ name: 'Pro', price_eur_per_month: 10, history: '1 year back' });
    });
  });

  describe('revoking', () => {
    it('revokes its own key, which the public API refuses once the cached record expires (60 s)', async () => {
      const person = await signUpAndSignIn(cognito());
      const { key, id } = (await call('POST', '/api/keys', person, { name: 'soon gone' })).json().data as {
        key: string;
        id: string;
      };
      expect((await api().get('rates/latest', key)).status).toBe(200);
      const revoked = await call('DELETE', `/api/keys/${id}`, person);
      expect(revoked.status).toBe(200);
      expect(revoked.json().data).toMatchObject({ id, status: 'revoked', already_revoked: false });
      expect(revoked.text).not.toContain(key);
      const again = await call('DELETE', `/api/keys/${id}`, person);
      expect(again.json().data).toMatchObject({ id, status: 'revoked', already_revoked: true });

      api().clock.advance(61_000);
      const refused = await api().get('rates/latest', key);
      expect(refused.status).toBe(401);
      expect(refused.json().error?.code).toBe('invalid-api-key');
      const listed = (await call('GET', '/api/keys', person)).json().data as { can_create: boolean };
      expect(listed.can_create).toBe(true);
    });

    it("answers another account's key id, and a malformed one, as 404 and leaves the key working", async () => {
      const owner = await signUpAndSignIn(cognito());
      const intruder = await signUpAndSignIn(cognito());
      const { key, id } = (await call('POST', '/api/keys', owner, { name: 'mine' })).json().data as {
        key: string;
        id: string;
      };
      for (const path of [`/api/keys/${id}`, '/api/keys/key_doesNotExist1234', '/api/keys/%E2%80%AE']) {
        const reply = await call('DELETE', path, intruder);
        expect([path, reply.status, errorOf(reply)?.code]).toEqual([path, 404, 'not-found']);
      }
      api().clock.advance(61_000);
      expect((await api().get('rates/latest', key)).status).toBe(200);
    });
  });

  describe('bad input', () => {
    let person: SignedIn;
    beforeAll(async () => {
      person = await signUpAndSignIn(cognito());
    });

    it.each([
      ['a name of 65 characters', { name: 'x'.repeat(65) }, 'name'],
      ['an empty name', { name: '   ' }, 'name'],
      ['a name with a line break', { name: 'a\nb' }, 'name'],
      ['no name', {}, 'name'],
      ['a name that is not a string', { name: 42 }, 'name'],
      ['a body that is not JSON', '{"name":', 'body'],
      ['a body of 5000 bytes', JSON.stringify({ name: 'a', pad: 'x'.repeat(5000) }), 'body'],
    ])('answers 400 invalid-parameter naming the %s', async (_, body, param) => {
      const reply = await call('POST', '/api/keys', person, body);
      expect(reply.status).toBe(400);
      expect(errorOf(reply)).toMatchObject({ code: 'invalid-parameter', param });
      expect(reply.text).not.toMatch(/at \w+ \(|node_modules|Error:/);
    });

    it('answers 400 to a body that is not sent as JSON', async () => {
      const reply = await dashboardRequest(api(), 'POST', '/api/keys', {
        token: person.idToken,
        body: 'name=a',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      });
      expect(reply.status).toBe(400);
      expect(errorOf(reply)).toMatchObject({ code: 'invalid-parameter', param: 'body' });
    });

    it('refuses a body larger than the gateway reads without passing it on', async () => {
      const reply = await call('POST', '/api/keys', person, JSON.stringify({ name: 'x'.repeat(100_000) }));
      expect(reply.status).toBe(400);
      expect(errorOf(reply)?.code).toBe('invalid-parameter');
    });

    it(`limits key creation to ${KEY_CREATION_LIMIT.max} in any 60 minutes, and says when the next can be made`, async () => {
      const heavy = await signUpAndSignIn(cognito());
      await call('GET', '/api/account', heavy);
      await api().service.accounts.setPlan(accountIdForOwner(heavy.sub), 'business');
      const firstAt = api().clock.now().getTime();
      for (let i = 0; i < KEY_CREATION_LIMIT.max; i++) {
        expect((await call('POST', '/api/keys', heavy, { name: `k${i}` })).status).toBe(201);
        api().clock.advance(1000);
      }
      const refused = await call('POST', '/api/keys', heavy, { name: 'one too many' });
      expect(refused.status).toBe(429);
      expect(errorOf(refused)?.code).toBe('rate-limit-exceeded');
      const retryAfter = Number(refused.headers.get('retry-after'));
      const nextAt = new Date(firstAt + KEY_CREATION_LIMIT.windowMs).toISOString().replace('.000Z', 'Z');
      expect(retryAfter).toBe((firstAt + KEY_CREATION_LIMIT.windowMs - api().clock.now().getTime()) / 1000);

      const listed = (await call('GET', '/api/keys', heavy)).json().data;
      expect(listed).toMatchObject({
        can_create: false,
        cannot_create_reason: expect.stringContaining('any 60 minutes'),
        next_key_at: nextAt,
      });
      expect((await call('GET', '/api/account', heavy)).json().data?.keys).toMatchObject({ next_key_at: nextAt });

      // The person's ID token lasts an hour, as the wait does: a token the emulator would issue then stands in.
      const later = () => mintToken(idClaims(cognito(), nowSeconds(), { sub: heavy.sub, email: heavy.email }));
      api().clock.advance(retryAfter * 1000 - 1000);
      expect((await call('POST', '/api/keys', later(), { name: 'a second early' })).status).toBe(429);
      api().clock.advance(1000);
      expect((await call('POST', '/api/keys', later(), { name: 'when the window allows' })).status).toBe(201);
      expect((await call('GET', '/api/keys', later())).json().data).toMatchObject({
        can_create: false,
        next_key_at: new Date(firstAt + 1000 + KEY_CREATION_LIMIT.windowMs).toISOString().replace('.000Z', 'Z'),
      });
    });
  });
});
