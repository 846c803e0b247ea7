import { createPrivateKey, createSign, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { CognitoEmulator } from '../../local-server/cognito-emulator';
import type { ApiReply, TestApi } from './api-service';

/** One call of Cognito's JSON API, as the page makes it. */
export async function cognitoCall(
  cognito: CognitoEmulator,
  target: string,
  body: Record<string, unknown>,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(cognito.endpoint, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-amz-json-1.1',
      'X-Amz-Target': `AWSCognitoIdentityProviderService.${target}`,
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

export interface SignedIn {
  email: string;
  idToken: string;
  accessToken: string;
  refreshToken: string;
  sub: string;
}

let people = 0;

/**
 * Signs a new person up and in. Verified by the code the emulator delivered, as the page does; or, with
 * `verify: false`, confirmed by the pool's administrator instead, which leaves the address unverified.
 */
export async function signUpAndSignIn(
  cognito: CognitoEmulator,
  options: { email?: string; password?: string; verify?: boolean } = {},
): Promise<SignedIn> {
  const email = options.email ?? `person-${++people}-${Date.now()}@example.com`;
  const password = options.password ?? 'Correct-Horse-42';
  const clientId = cognito.clientId;
  const signUp = await cognitoCall(cognito, 'SignUp', {
    ClientId: clientId,
    Username: email,
    Password: password,
    UserAttributes: [{ Name: 'email', Value: email }],
  });
  if (signUp.status !== 200) throw new Error(`SignUp failed: ${JSON.stringify(signUp.body)}`);
  if (options.verify === false) {
    await cognitoCall(cognito, 'AdminConfirmSignUp', { UserPoolId: cognito.userPoolId, Username: email });
  } else {
    const code = cognito.codes().findLast((c) => c.email === email)?.code;
    if (!code) throw new Error(`no code was delivered to ${email}`);
    await cognitoCall(cognito, 'ConfirmSignUp', { ClientId: clientId, Username: email, ConfirmationCode: code });
  }
  const auth = await cognitoCall(cognito, 'InitiateAuth', {
    ClientId: clientId,
    AuthFlow: 'USER_PASSWORD_AUTH',
    AuthParameters: { USERNAME: email, PASSWORD: password },
  });
  const result = auth.body.AuthenticationResult as
    | { IdToken?: string; AccessToken?: string; RefreshToken?: string }
    | undefined;
  if (!result?.IdToken || !result.AccessToken || !result.RefreshToken) {
    throw new Error(`InitiateAuth failed: ${JSON.stringify(auth.body)}`);
  }
  const claims = JSON.parse(Buffer.from(result.IdToken.split('.')[1] ?? '', 'base64url').toString()) as {
    sub: string;
  };
  return {
    email,
    idToken: result.IdToken,
    accessToken: result.AccessToken,
    refreshToken: result.RefreshToken,
    sub: claims.sub,
  };
}

/**
 * cognito-local signs every token with a key pair that ships inside the package, so a test can mint tokens the
 * emulator would have issued, with any claims (an expired one, an unverified address), and tokens signed by a
 * stranger's key that must be refused.
 */
const emulatorKey = createPrivateKey(
  (
    JSON.parse(readFileSync(require.resolve('cognito-local/lib/keys/cognitoLocal.private.json'), 'utf8')) as {
      pem: string;
    }
  ).pem,
);
const strangerKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;

export function mintToken(claims: Record<string, unknown>, key: KeyObject | 'emulator' | 'stranger' = 'emulator') {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const signed = `${encode({ alg: 'RS256', typ: 'JWT', kid: 'CognitoLocal' })}.${encode(claims)}`;
  const signer = key === 'emulator' ? emulatorKey : key === 'stranger' ? strangerKey : key;
  return `${signed}.${createSign('RSA-SHA256').update(signed).sign(signer).toString('base64url')}`;
}

/** Claims of an ID token the emulator would issue now for `sub`. */
export function idClaims(cognito: CognitoEmulator, nowSeconds: number, overrides: Record<string, unknown> = {}) {
  return {
    sub: 'minted-sub',
    email: 'minted@example.com',
    email_verified: true,
    token_use: 'id',
    aud: cognito.clientId,
    iss: cognito.issuer,
    iat: nowSeconds,
    exp: nowSeconds + 3600,
    ...overrides,
  };
}

/** A request to the dashboard API on the test server's origin. */
export async function dashboardRequest(
  api: TestApi,
  method: string,
  path: string,
  options: { token?: string; body?: string; headers?: Record<string, string> } = {},
): Promise<ApiReply> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined) headers.Authorization = options.token;
  if (options.body !== undefined) headers['Content-Type'] ??= 'application/json';
  const res = await fetch(new URL(path, api.service.url), {
    method,
    headers,
    ...(options.body !== undefined ? { body: options.body } : {}),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: () => JSON.parse(text) };
}
