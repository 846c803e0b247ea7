/** The few Cognito user-pool actions the page calls, over Cognito's JSON protocol, to AWS or the emulator alike. */

export type CognitoAction =
  | 'SignUp'
  | 'ConfirmSignUp'
  | 'ResendConfirmationCode'
  | 'InitiateAuth'
  | 'ForgotPassword'
  | 'ConfirmForgotPassword'
  | 'GlobalSignOut';

export interface Tokens {
  idToken: string;
  accessToken: string;
  /** Epoch milliseconds after which the ID token is refused. */
  expiresAt: number;
  /** Given on sign-in only: a refresh answers new ID and access tokens, not a new refresh token. */
  refreshToken?: string;
}

/** A refusal from Cognito, or `NetworkError` when no answer came back. */
export class CognitoError extends Error {
  override name = 'CognitoError';
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

export function cognitoRequest(
  action: CognitoAction,
  body: object,
): { method: 'POST'; headers: Record<string, string>; body: string } {
  return {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-amz-json-1.1',
      'X-Amz-Target': `AWSCognitoIdentityProviderService.${action}`,
    },
    body: JSON.stringify(body),
  };
}

/** Cognito may qualify it (`com.amazonaws…#X`) in the body, or append `:http://…` in the x-amzn-ErrorType header. */
export function errorTypeName(raw: string): string {
  const afterHash = raw.slice(raw.lastIndexOf('#') + 1);
  const colon = afterHash.indexOf(':');
  return (colon === -1 ? afterHash : afterHash.slice(0, colon)).trim();
}

/** Reads an error answer: its type from the body's `__type`, else the header, else `UnknownError`. */
export function parseCognitoError(status: number, bodyText: string, typeHeader: string | null): CognitoError {
  let type = typeHeader ? errorTypeName(typeHeader) : '';
  let message = '';
  try {
    const body = JSON.parse(bodyText) as { __type?: unknown; message?: unknown; Message?: unknown };
    if (typeof body.__type === 'string' && body.__type !== '') type = errorTypeName(body.__type);
    const text = body.message ?? body.Message;
    if (typeof text === 'string') message = text;
  } catch {
    // A proxy's HTML error page, say: the status alone tells what happened.
  }
  return new CognitoError(
    type || (status >= 500 ? 'InternalErrorException' : 'UnknownError'),
    message || `HTTP ${status}`,
  );
}

/** Reads a successful InitiateAuth answer; `now` is epoch milliseconds at the time of the call. */
export function tokensFromAuthResult(body: unknown, now: number): Tokens {
  const result = (body as { AuthenticationResult?: Record<string, unknown> } | null)?.AuthenticationResult;
  const idToken = result?.IdToken;
  const accessToken = result?.AccessToken;
  const refreshToken = result?.RefreshToken;
  const expiresIn = result?.ExpiresIn;
  if (typeof idToken !== 'string' || typeof accessToken !== 'string') {
    // A challenge (new password required, MFA) instead of tokens: this pool is not set up for what the page does.
    throw new CognitoError('UnsupportedChallenge', 'sign-in asked for a step this page does not support');
  }
  return {
    idToken,
    accessToken,
    expiresAt: now + (typeof expiresIn === 'number' ? expiresIn : 3600) * 1000,
    ...(typeof refreshToken === 'string' && refreshToken !== '' ? { refreshToken } : {}),
  };
}

export interface CognitoClient {
  signUp(email: string, password: string): Promise<void>;
  confirmSignUp(email: string, code: string): Promise<void>;
  resendCode(email: string): Promise<void>;
  signIn(email: string, password: string): Promise<Tokens>;
  /** New ID and access tokens for a refresh token; NotAuthorizedException once it is revoked or expired. */
  refresh(refreshToken: string): Promise<Tokens>;
  forgotPassword(email: string): Promise<void>;
  confirmForgotPassword(email: string, code: string, password: string): Promise<void>;
  /** Ends every session of the user; a failure is ignored, since the page forgets its tokens anyway. */
  signOut(accessToken: string): Promise<void>;
}

export function createCognitoClient(options: {
  endpoint: string;
  clientId: string;
  fetch: typeof fetch;
  now?: () => number;
}): CognitoClient {
  const { endpoint, clientId } = options;
  const now = options.now ?? Date.now;

  async function call(action: CognitoAction, body: object): Promise<unknown> {
    let response: Response;
    try {
      response = await options.fetch(endpoint, cognitoRequest(action, body));
    } catch (error) {
      throw new CognitoError('NetworkError', error instanceof Error ? error.message : String(error));
    }
    const text = await response.text().catch(() => '');
    if (!response.ok) throw parseCognitoError(response.status, text, response.headers.get('x-amzn-errortype'));
    try {
      return text === '' ? {} : (JSON.parse(text) as unknown);
    } catch {
      throw new CognitoError('UnknownError', 'the answer is not JSON');
    }
  }

  async function initiateAuth(AuthFlow: string, AuthParameters: Record<string, string>): Promise<Tokens> {
    const started = now();
    return tokensFromAuthResult(await call('InitiateAuth', { AuthFlow, ClientId: clientId, AuthParameters }), started);
  }

  return {
    async signUp(email, password) {
      await call('SignUp', {
        ClientId: clientId,
        Username: email,
        Password: password,
        UserAttributes: [{ Name: 'email', Value: email }],
      });
    },
    async confirmSignUp(email, code) {
      await call('ConfirmSignUp', { ClientId: clientId, Username: email, ConfirmationCode: code });
    },
    async resendCode(email) {
      await call('ResendConfirmationCode', { ClientId: clientId, Username: email });
    },
    signIn: (email, password) => initiateAuth('USER_PASSWORD_AUTH', { USERNAME: email, PASSWORD: password }),
    refresh: (refreshToken) => initiateAuth('REFRESH_TOKEN_AUTH', { REFRESH_TOKEN: refreshToken }),
    async forgotPassword(email) {
      await call('ForgotPassword', { ClientId: clientId, Username: email });
    },
    async confirmForgotPassword(email, code, password) {
      await call('ConfirmForgotPassword', {
        ClientId: clientId,
        Username: email,
        ConfirmationCode: code,
        Password: password,
      });
    },
    async signOut(accessToken) {
      await call('GlobalSignOut', { AccessToken: accessToken }).catch(() => undefined);
    },
  };
}
