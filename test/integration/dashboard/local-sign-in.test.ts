import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CognitoEmulator, VerificationCode } from '../../../local-server/cognito-emulator';
import { COGNITO_DIR } from '../../../local-server/local-store';
import { type LocalService, startLocalService } from '../../../local-server/service';
import { type TestApi, TestClock } from '../../support/api-service';
import { cognitoCall, dashboardRequest, idClaims, mintToken, signUpAndSignIn } from '../../support/dashboard';

/**
 * The local sign-in answering as the AWS pool does (lib/dashboard-users.ts), over real HTTP: the Cognito emulator
 * inside a local server on a temporary data directory, restarted on it where the point is what survives a restart.
 */

const PASSWORD = 'Correct-Horse-42';

/** Every file under `dir`, with its text. */
function filesUnder(dir: string): { path: string; text: string }[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isFile())
    .map((path) => ({ path, text: readFileSync(path).toString('latin1') }));
}

function claimsOf(token: string): Record<string, unknown> {
  return JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
}

describe('the local sign-in, as the AWS pool answers', () => {
  const clock = new TestClock('2026-11-23T12:00:00Z');
  const dataDir = mkdtempSync(join(tmpdir(), 'fxrates-sign-in-'));
  const printed: VerificationCode[] = [];
  let service: LocalService | undefined;
  let people = 0;

  const start = async () => {
    service = await startLocalService({
      dataDir,
      port: 0,
      clock: clock.now,
      dashboard: true,
      demoAccounts: false,
      onVerificationCode: (code) => printed.push(code),
    });
  };
  const cognito = (): CognitoEmulator => {
    const emulator = service?.cognito;
    if (!emulator) throw new Error('the dashboard was not started');
    return emulator;
  };
  const call = (target: string, body: Record<string, unknown>) => cognitoCall(cognito(), target, body);
  const clientId = () => cognito().clientId;
  const newAddress = () => `person-${++people}-${Date.now()}@example.com`;
  const codesLog = () => readFileSync(join(dataDir, COGNITO_DIR, 'verification-codes.log'), 'utf8');
  const signIn = (email: string, password: string) =>
    call('InitiateAuth', {
      ClientId: clientId(),
      AuthFlow: 'USER_PASSWORD_AUTH',
      AuthParameters: { USERNAME: email, PASSWORD: password },
    });
  const refresh = (token: string) =>
    call('InitiateAuth', {
      ClientId: clientId(),
      AuthFlow: 'REFRESH_TOKEN_AUTH',
      AuthParameters: { REFRESH_TOKEN: token },
    });
  const signUp = (email: string) =>
    call('SignUp', {
      ClientId: clientId(),
      Username: email,
      Password: PASSWORD,
      UserAttributes: [{ Name: 'email', Value: email }],
    });
  const lastCode = (email: string) =>
    cognito()
      .codes()
      .findLast((code) => code.email === email)?.code;
  const refusal = (reply: { status: number; body: Record<string, unknown> }) => [
    reply.status,
    reply.body.__type,
    reply.body.message,
  ];

  beforeAll(start);
  afterAll(async () => {
    await service?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers a wrong password and an unknown address alike, as NotAuthorizedException', async () => {
    const person = await signUpAndSignIn(cognito(), { email: newAddress(), password: PASSWORD });
    const wrong = await signIn(person.email, 'Wrong-Horse-42');
    const unknown = await signIn(newAddress(), PASSWORD);
    expect(refusal(wrong)).toEqual([400, 'NotAuthorizedException', 'Incorrect username or password.']);
    expect(refusal(unknown)).toEqual(refusal(wrong));
    expect((await signIn(person.email, PASSWORD)).status).toBe(200);
  });

  it('sends a new code on request, printed and logged as at sign-up, which replaces the last one', async () => {
    const email = newAddress();
    expect((await signUp(email)).status).toBe(200);
    const first = lastCode(email);
    const resent = await call('ResendConfirmationCode', { ClientId: clientId(), Username: email });
    expect(resent).toEqual({
      status: 200,
      body: { CodeDeliveryDetails: { AttributeName: 'email', DeliveryMedium: 'EMAIL', Destination: 'p***@e***' } },
    });
    const second = lastCode(email);
    expect(second).toMatch(/^\d{6}$/);
    expect(printed.findLast((code) => code.email === email)?.code).toBe(second);
    expect(codesLog()).toContain(`"email":"${email}","code":"${second}"`);
    expect(
      cognito()
        .codes()
        .filter((code) => code.email === email),
    ).toHaveLength(2);
    if (first !== second) {
      const stale = await call('ConfirmSignUp', { ClientId: clientId(), Username: email, ConfirmationCode: first });
      expect(stale.body.__type).toBe('CodeMismatchException');
    }
    const confirmed = await call('ConfirmSignUp', { ClientId: clientId(), Username: email, ConfirmationCode: second });
    expect(confirmed.status).toBe(200);
    const again = await call('ResendConfirmationCode', { ClientId: clientId(), Username: email });
    expect(refusal(again)).toEqual([400, 'InvalidParameterException', 'User is already confirmed.']);
  });

  it('answers "forgot password" and "send a new code" for an unknown address as for a known one, sending nothing', async () => {
    const known = (await signUpAndSignIn(cognito(), { email: newAddress() })).email;
    const unknown = newAddress();
    const before = cognito().codes().length;
    for (const target of ['ForgotPassword', 'ResendConfirmationCode']) {
      const reply = await call(target, { ClientId: clientId(), Username: unknown });
      expect([target, reply]).toEqual([
        target,
        {
          status: 200,
          body: { CodeDeliveryDetails: { AttributeName: 'email', DeliveryMedium: 'EMAIL', Destination: 'p***@e***' } },
        },
      ]);
    }
    expect(cognito().codes().length).toBe(before);
    const reset = await call('ConfirmForgotPassword', {
      ClientId: clientId(),
      Username: unknown,
      ConfirmationCode: '123456',
      Password: 'Another-Horse-43',
    });
    expect(reset.body.__type).toBe('CodeMismatchException');
    const forgot = await call('ForgotPassword', { ClientId: clientId(), Username: known });
    expect(forgot.body).toEqual({
      CodeDeliveryDetails: { AttributeName: 'email', DeliveryMedium: 'EMAIL', Destination: 'p***@e***' },
    });
    expect(cognito().codes().length).toBe(before + 1);
  });

  it('answers confirming an address already confirmed with NotAuthorizedException, naming its status', async () => {
    const person = await signUpAndSignIn(cognito(), { email: newAddress() });
    const code = lastCode(person.email);
    const reply = await call('ConfirmSignUp', { ClientId: clientId(), Username: person.email, ConfirmationCode: code });
    expect(refusal(reply)).toEqual([
      400,
      'NotAuthorizedException',
      'User cannot be confirmed. Current status is CONFIRMED',
    ]);
  });

  it('keeps no password and no refresh token readable in the data directory, even from before', async () => {
    const email = newAddress();
    const person = await signUpAndSignIn(cognito(), { email, password: PASSWORD });
    expect((await refresh(person.refreshToken)).status).toBe(200);
    const look = () => {
      const files = filesUnder(dataDir);
      expect(files.some((file) => file.path.endsWith('.json') && file.text.includes(email))).toBe(true);
      return files.filter((file) => file.text.includes(PASSWORD) || file.text.includes(person.refreshToken));
    };
    expect(look().map((file) => file.path)).toEqual([]);
    const poolFile = join(dataDir, COGNITO_DIR, 'db', `${cognito().userPoolId}.json`);
    const stored = JSON.parse(readFileSync(poolFile, 'utf8')) as {
      Users: Record<
        string,
        { Password: string; RefreshTokens: string[]; Attributes: { Name: string; Value: string }[] }
      >;
    };
    const user = Object.values(stored.Users).find((u) => u.Attributes.some((a) => a.Value === email));
    expect(user?.Password).toMatch(/^scrypt\$16384\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    expect(user?.RefreshTokens).toEqual([expect.stringMatching(/^sha256\$[0-9a-f]{64}$/)]);

    // A data directory written by an emulator that stored them in clear: hashed at the next start, and still good.
    await service?.close();
    if (!user) throw new Error('the user was not stored');
    user.Password = PASSWORD;
    user.RefreshTokens = [person.refreshToken];
    writeFileSync(poolFile, JSON.stringify(stored));
    await start();
    expect(look().map((file) => file.path)).toEqual([]);
    expect((await signIn(email, PASSWORD)).status).toBe(200);
    expect((await refresh(person.refreshToken)).status).toBe(200);
  });

  it('keeps a changed address unverified, and the verified one in use, until its code is confirmed', async () => {
    const person = await signUpAndSignIn(cognito(), { email: newAddress() });
    const next = newAddress();
    const update = await call('UpdateUserAttributes', {
      AccessToken: person.accessToken,
      UserAttributes: [{ Name: 'email', Value: next }],
    });
    expect(update).toEqual({
      status: 200,
      body: {
        CodeDeliveryDetailsList: [{ AttributeName: 'email', DeliveryMedium: 'EMAIL', Destination: 'p***@e***' }],
      },
    });
    const code = lastCode(next);
    expect(code).toMatch(/^\d{6}$/);
    const pending = await call('GetUser', { AccessToken: person.accessToken });
    expect(pending.body.UserAttributes).toEqual(
      expect.arrayContaining([
        { Name: 'email', Value: person.email },
        { Name: 'email_verified', Value: 'true' },
      ]),
    );
    const renewed = await refresh(person.refreshToken);
    const idToken = (renewed.body.AuthenticationResult as { IdToken: string }).IdToken;
    expect(claimsOf(idToken)).toMatchObject({ email: person.email, email_verified: true });
    expect((await signIn(next, PASSWORD)).status).toBe(400);

    const unchecked = await call('VerifyUserAttribute', { AccessToken: person.accessToken, AttributeName: 'email' });
    expect(unchecked.body.__type).toBe('CodeMismatchException');
    const verified = await call('VerifyUserAttribute', {
      AccessToken: person.accessToken,
      AttributeName: 'email',
      Code: code,
    });
    expect(verified.status).toBe(200);
    const after = await call('GetUser', { AccessToken: person.accessToken });
    expect(after.body.UserAttributes).toEqual(
      expect.arrayContaining([
        { Name: 'email', Value: next },
        { Name: 'email_verified', Value: 'true' },
      ]),
    );
    expect((await signIn(next, PASSWORD)).status).toBe(200);
  });

  it("refuses an attribute the page's client may not write, an address in use, and an expired access token", async () => {
    const person = await signUpAndSignIn(cognito(), { email: newAddress() });
    const other = await signUpAndSignIn(cognito(), { email: newAddress() });
    const update = (attributes: { Name: string; Value: string }[], token = person.accessToken) =>
      call('UpdateUserAttributes', { AccessToken: token, UserAttributes: attributes });
    const selfVerified = await update([
      { Name: 'email', Value: newAddress() },
      { Name: 'email_verified', Value: 'true' },
    ]);
    expect(refusal(selfVerified)).toEqual([
      400,
      'NotAuthorizedException',
      'A client attempted to write unauthorized attribute',
    ]);
    const taken = await update([{ Name: 'email', Value: other.email }]);
    expect(taken.body.__type).toBe('AliasExistsException');
    const forged = mintToken({ ...claimsOf(person.accessToken), exp: Math.floor(clock.now().getTime() / 1000) - 1 });
    const expired = await update([{ Name: 'email', Value: newAddress() }], forged);
    expect(refusal(expired)).toEqual([400, 'NotAuthorizedException', 'Access Token has expired']);
  });

  it('keeps its port and issuer across a restart: tokens issued before it still work', async () => {
    const person = await signUpAndSignIn(cognito(), { email: newAddress() });
    const before = { endpoint: cognito().endpoint, issuer: cognito().issuer };
    const account = () => dashboardRequest(apiOf(), 'GET', '/api/account', { token: person.idToken });
    expect((await account()).status).toBe(200);
    await service?.close();
    await start();
    expect({ endpoint: cognito().endpoint, issuer: cognito().issuer }).toEqual(before);
    expect((await account()).status).toBe(200);
    expect((await refresh(person.refreshToken)).status).toBe(200);
  });

  it('keeps its issuer when its port was taken meanwhile, so tokens issued before still work', async () => {
    const person = await signUpAndSignIn(cognito(), { email: newAddress() });
    const { endpoint, issuer } = cognito();
    await service?.close();
    const squatter: Server = createServer((_req, res) => res.end());
    await new Promise<void>((resolve) => squatter.listen(Number(new URL(endpoint).port), '127.0.0.1', resolve));
    try {
      await start();
      expect(cognito().endpoint).not.toBe(endpoint);
      expect(cognito().issuer).toBe(issuer);
      expect((await dashboardRequest(apiOf(), 'GET', '/api/account', { token: person.idToken })).status).toBe(200);
    } finally {
      await new Promise<void>((resolve) => squatter.close(() => resolve()));
    }
  });

  it('answers a body it cannot read with 400 SerializationException, never a page or a stack', async () => {
    const send = (body: string, type = 'application/x-amz-json-1.1') =>
      fetch(cognito().endpoint, {
        method: 'POST',
        headers: { 'Content-Type': type, 'X-Amz-Target': 'AWSCognitoIdentityProviderService.InitiateAuth' },
        body,
      });
    for (const [body, type] of [
      ['{"ClientId": ', undefined],
      ['null', undefined],
      ['"USER_PASSWORD_AUTH"', undefined],
      ['[]', undefined],
      [JSON.stringify({ ClientId: clientId() }), 'application/json'],
      ['ClientId=x', 'text/plain'],
    ] as const) {
      const res = await send(body, type);
      const text = await res.text();
      expect({ body, status: res.status, type: res.headers.get('content-type') }).toEqual({
        body,
        status: 400,
        type: expect.stringMatching(/^application\/(x-amz-)?json/),
      });
      expect(JSON.parse(text)).toEqual({ __type: 'SerializationException', message: expect.any(String) });
      expect(text).not.toMatch(/node_modules|SyntaxError|\bat /);
    }
    expect((await signIn(newAddress(), PASSWORD)).body.__type).toBe('NotAuthorizedException');
  });

  it('answers 401 to a token that names no user, as to any bad token', async () => {
    const nowSeconds = Math.floor(clock.now().getTime() / 1000);
    for (const sub of [undefined, '']) {
      const token = mintToken(idClaims(cognito(), nowSeconds, { sub }));
      const reply = await dashboardRequest(apiOf(), 'GET', '/api/account', { token });
      expect([sub, reply.status, reply.json().error?.code]).toEqual([sub, 401, 'unauthenticated']);
    }
  });

  /** What dashboardRequest reads of a test API: the running service's URL. */
  function apiOf(): TestApi {
    if (!service) throw new Error('the local service is not running');
    return { service } as TestApi;
  }
});
