import {
  CognitoError,
  cognitoRequest,
  createCognitoClient,
  errorTypeName,
  parseCognitoError,
  tokensFromAuthResult,
} from '../../../web/src/cognito';

const ENDPOINT = 'http://127.0.0.1:9229/';

/** A fetch that records calls and answers from a queue. */
function fakeFetch(...answers: (Response | Error)[]) {
  const calls: { url: string; init: RequestInit }[] = [];
  const fetch = jest.fn(async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {} });
    const answer = answers.shift();
    if (!answer) throw new Error('no answer queued');
    if (answer instanceof Error) throw answer;
    return answer;
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, calls };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/x-amz-json-1.1', ...headers } });

const bodyOf = (init: RequestInit) => JSON.parse(String(init.body)) as Record<string, unknown>;
const headersOf = (init: RequestInit) => init.headers as Record<string, string>;

describe('requests to the Cognito API', () => {
  it("names the action in X-Amz-Target and sends Cognito's JSON content type", () => {
    const request = cognitoRequest('InitiateAuth', { a: 1 });
    expect(request).toEqual({
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-amz-json-1.1',
        'X-Amz-Target': 'AWSCognitoIdentityProviderService.InitiateAuth',
      },
      body: '{"a":1}',
    });
  });

  it('signs up with the address as user name and as the email attribute', async () => {
    const { fetch, calls } = fakeFetch(json(200, { UserConfirmed: false }));
    await createCognitoClient({ endpoint: ENDPOINT, clientId: 'client-1', fetch }).signUp(
      'ann@example.com',
      'Secret123456',
    );
    expect(calls[0]?.url).toBe(ENDPOINT);
    expect(headersOf(calls[0]?.init ?? {})['X-Amz-Target']).toBe('AWSCognitoIdentityProviderService.SignUp');
    expect(bodyOf(calls[0]?.init ?? {})).toEqual({
      ClientId: 'client-1',
      Username: 'ann@example.com',
      Password: 'Secret123456',
      UserAttributes: [{ Name: 'email', Value: 'ann@example.com' }],
    });
  });

  it('signs in with USER_PASSWORD_AUTH and keeps the tokens, the refresh token included, with their expiry', async () => {
    const { fetch, calls } = fakeFetch(
      json(200, {
        AuthenticationResult: { IdToken: 'id.t.k', AccessToken: 'ac.c.s', RefreshToken: 'r', ExpiresIn: 3600 },
      }),
    );
    const client = createCognitoClient({ endpoint: ENDPOINT, clientId: 'client-1', fetch, now: () => 1_000 });
    const tokens = await client.signIn('ann@example.com', 'pw');
    expect(bodyOf(calls[0]?.init ?? {})).toEqual({
      AuthFlow: 'USER_PASSWORD_AUTH',
      ClientId: 'client-1',
      AuthParameters: { USERNAME: 'ann@example.com', PASSWORD: 'pw' },
    });
    expect(tokens).toEqual({
      idToken: 'id.t.k',
      accessToken: 'ac.c.s',
      refreshToken: 'r',
      expiresAt: 1_000 + 3_600_000,
    });
  });

  it('renews the session with REFRESH_TOKEN_AUTH, which gives no new refresh token', async () => {
    const { fetch, calls } = fakeFetch(
      json(200, { AuthenticationResult: { IdToken: 'id.t.2', AccessToken: 'ac.c.2' } }),
    );
    const client = createCognitoClient({ endpoint: ENDPOINT, clientId: 'client-1', fetch, now: () => 5_000 });
    const tokens = await client.refresh('r');
    expect(bodyOf(calls[0]?.init ?? {})).toEqual({
      AuthFlow: 'REFRESH_TOKEN_AUTH',
      ClientId: 'client-1',
      AuthParameters: { REFRESH_TOKEN: 'r' },
    });
    expect(tokens).toEqual({ idToken: 'id.t.2', accessToken: 'ac.c.2', expiresAt: 5_000 + 3_600_000 });
  });

  it('sends the code and the new password to ConfirmForgotPassword', async () => {
    const { fetch, calls } = fakeFetch(json(200, {}));
    await createCognitoClient({ endpoint: ENDPOINT, clientId: 'c', fetch }).confirmForgotPassword(
      'a@b.co',
      '123456',
      'NewSecret1234',
    );
    expect(headersOf(calls[0]?.init ?? {})['X-Amz-Target']).toBe(
      'AWSCognitoIdentityProviderService.ConfirmForgotPassword',
    );
    expect(bodyOf(calls[0]?.init ?? {})).toEqual({
      ClientId: 'c',
      Username: 'a@b.co',
      ConfirmationCode: '123456',
      Password: 'NewSecret1234',
    });
  });

  it("turns Cognito's error answer into a CognitoError of the bare exception type", async () => {
    const { fetch } = fakeFetch(
      json(400, {
        __type: 'com.amazonaws.cognito.identity.idp.model#UsernameExistsException',
        message: 'User already exists',
      }),
    );
    const refusal = createCognitoClient({ endpoint: ENDPOINT, clientId: 'c', fetch }).signUp('a@b.co', 'x');
    await expect(refusal).rejects.toBeInstanceOf(CognitoError);
    await expect(refusal).rejects.toMatchObject({ type: 'UsernameExistsException', message: 'User already exists' });
  });

  it('reports a failed connection as NetworkError', async () => {
    const { fetch } = fakeFetch(new TypeError('Failed to fetch'));
    await expect(
      createCognitoClient({ endpoint: ENDPOINT, clientId: 'c', fetch }).resendCode('a@b.co'),
    ).rejects.toMatchObject({
      type: 'NetworkError',
    });
  });

  it('ends the session with GlobalSignOut and ignores its failure', async () => {
    const { fetch, calls } = fakeFetch(
      json(400, { __type: 'NotAuthorizedException', message: 'Access Token has expired' }),
    );
    await expect(
      createCognitoClient({ endpoint: ENDPOINT, clientId: 'c', fetch }).signOut('ac.c.s'),
    ).resolves.toBeUndefined();
    expect(bodyOf(calls[0]?.init ?? {})).toEqual({ AccessToken: 'ac.c.s' });
  });
});

describe('reading Cognito errors', () => {
  it('strips a namespace before # and a URL after a colon', () => {
    expect(errorTypeName('CodeMismatchException')).toBe('CodeMismatchException');
    expect(errorTypeName('com.amazonaws.cognito#CodeMismatchException')).toBe('CodeMismatchException');
    expect(errorTypeName('CodeMismatchException:http://internal.amazon.com/coral/')).toBe('CodeMismatchException');
  });

  it("prefers the body's __type, falls back to the x-amzn-ErrorType header, then to the status", () => {
    expect(parseCognitoError(400, '{"__type":"ExpiredCodeException","message":"m"}', 'Other:x').type).toBe(
      'ExpiredCodeException',
    );
    expect(parseCognitoError(400, '{"message":"m"}', 'LimitExceededException:http://x').type).toBe(
      'LimitExceededException',
    );
    expect(parseCognitoError(502, '<html>bad gateway</html>', null).type).toBe('InternalErrorException');
    expect(parseCognitoError(400, '', null).type).toBe('UnknownError');
  });

  it('reads the message whether Cognito spells it message or Message', () => {
    expect(parseCognitoError(400, '{"__type":"X","Message":"upper"}', null).message).toBe('upper');
    expect(parseCognitoError(400, '{"__type":"X","message":"lower"}', null).message).toBe('lower');
  });

  it('refuses an InitiateAuth answer that asks for a challenge instead of giving tokens', () => {
    expect(() => tokensFromAuthResult({ ChallengeName: 'NEW_PASSWORD_REQUIRED', Session: 's' }, 0)).toThrow(
      expect.objectContaining({ type: 'UnsupportedChallenge' }),
    );
  });
});
