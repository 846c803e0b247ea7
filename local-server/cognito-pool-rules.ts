/**
 * Closes the gaps between cognito-local 5.3.0 and the AWS pool (lib/dashboard-users.ts) that the page or an attacker
 * would notice: the password policy; passwords and refresh tokens stored only hashed (cognito-secrets.ts); the
 * answers of a pool that prevents user existence errors; ResendConfirmationCode; token checks (cognito-local only
 * decodes them); keepOriginal on a new e-mail address; GlobalSignOut forgetting refresh tokens.
 */
import { createPublicKey, verify } from 'node:crypto';
import { createRequire } from 'node:module';
import {
  CodeMismatchError,
  CognitoError,
  InvalidParameterError,
  NotAuthorizedError,
} from 'cognito-local/lib/errors.js';
import { Router } from 'cognito-local/lib/server/Router.js';
import type { Services } from 'cognito-local/lib/services/index.js';
import {
  attributesAppend,
  attributeValue,
  type User,
  type UserPoolService,
} from 'cognito-local/lib/services/userPoolService.js';
import { PASSWORD_POLICY_TEXT, passwordProblems } from '../web/src/password-policy';
import { hashPassword, hashRefreshToken, passwordMatches } from './cognito-secrets';

type Request = Record<string, unknown>;
export type RouteCtx = Parameters<Services['cognito']['getUserPool']>[0];
type Route = (ctx: RouteCtx, request: Request) => Promise<unknown>;
/** The pool and user of the request's access token, checked once per request (userOfAccessToken). */
type TokenUser = () => Promise<{ pool: UserPoolService; user: User }>;
type OwnRoute = (ctx: RouteCtx, request: Request, tokenUser: TokenUser) => Promise<unknown>;

/** Targets that set a password, and the request field that carries it. */
const PASSWORD_FIELDS: Readonly<Record<string, string>> = {
  SignUp: 'Password',
  ConfirmForgotPassword: 'Password',
  ChangePassword: 'ProposedPassword',
  AdminSetUserPassword: 'Password',
};

/** Targets after whose success the e-mail address is verified: the code proved the person reads that mailbox. */
const VERIFYING_TARGETS = new Set(['ConfirmSignUp', 'ConfirmForgotPassword']);

/** Cognito's one answer to a wrong password and to an unknown user, when user existence errors are prevented. */
const WRONG_CREDENTIALS = 'Incorrect username or password.';

/** The only attribute the page's app client may write (writeAttributes in lib/dashboard-users.ts). */
const WRITABLE_ATTRIBUTES = new Set(['email']);

/** How Cognito names the address a code went to, without giving it away: `j***@e***`. */
function maskedAddress(address: string): string {
  const at = address.lastIndexOf('@');
  if (at <= 0) return `${address.slice(0, 1)}***`;
  return `${address.slice(0, 1)}***@${address.slice(at + 1, at + 2)}***`;
}

function emailDelivery(address: string) {
  return { AttributeName: 'email', DeliveryMedium: 'EMAIL', Destination: address } as const;
}

function stringField(request: Request, field: string): string {
  const value = request[field];
  if (typeof value !== 'string' || value === '') throw new InvalidParameterError(`${field} is required`);
  return value;
}

/** What a request whose body is not a JSON object sent as `application/x-amz-json-1.1` is told. */
export const UNREADABLE_BODY =
  'The request body is not a JSON object sent as application/x-amz-json-1.1, the only form this service reads.';

export function createRouter(services: Services): (target: string) => Route {
  const base = Router(services) as unknown as (target: string) => Route;
  const own: Readonly<Record<string, OwnRoute>> = {
    GlobalSignOut: (ctx, _request, tokenUser) => signOutEverywhere(ctx, tokenUser),
    ResendConfirmationCode: (ctx, request) => resendConfirmationCode(services, ctx, request),
    UpdateUserAttributes: (ctx, request, tokenUser) => updateEmail(services, ctx, request, tokenUser),
  };
  return (target) => {
    const route: OwnRoute = own[target] ?? base(target);
    return async (ctx, given) => {
      // A body of another content type reaches here unparsed, as undefined.
      if (typeof given !== 'object' || given === null || Array.isArray(given)) {
        throw new CognitoError('SerializationException', UNREADABLE_BODY);
      }
      let checked: ReturnType<TokenUser> | undefined;
      const tokenUser: TokenUser = () => (checked ??= userOfAccessToken(services, ctx, given.AccessToken));
      if ('AccessToken' in given) await tokenUser();
      const field = PASSWORD_FIELDS[target];
      const password = field === undefined ? undefined : given[field];
      if (typeof password === 'string' && passwordProblems(password).length > 0) {
        throw new CognitoError(
          'InvalidPasswordException',
          `Password does not conform to policy: ${PASSWORD_POLICY_TEXT}`,
        );
      }
      const prepared = await prepare(services, ctx, target, given, tokenUser);
      if ('answer' in prepared) return prepared.answer;
      let result: unknown;
      try {
        result = await route(ctx, prepared.request, tokenUser);
      } catch (error) {
        throw translate(target, given, error);
      }
      if (VERIFYING_TARGETS.has(target)) await markEmailVerified(services, ctx, given);
      return masked(result);
    };
  };
}

/** The pool a request names, by its app client or by its pool id. */
async function poolOf(services: Services, ctx: RouteCtx, request: Request): Promise<UserPoolService> {
  if (typeof request.ClientId === 'string') return services.cognito.getUserPoolForClientId(ctx, request.ClientId);
  return services.cognito.getUserPool(ctx, stringField(request, 'UserPoolId'));
}

async function userNamed(services: Services, ctx: RouteCtx, request: Request, username: unknown) {
  const pool = await poolOf(services, ctx, request);
  const user = typeof username === 'string' && username !== '' ? await pool.getUserByUsername(ctx, username) : null;
  return { pool, user };
}

/** Secrets are replaced by what is stored when they match (by something matching nothing when not). */
async function prepare(
  services: Services,
  ctx: RouteCtx,
  target: string,
  request: Request,
  tokenUser: TokenUser,
): Promise<{ request: Request } | { answer: unknown }> {
  switch (target) {
    case 'SignUp':
    case 'AdminSetUserPassword':
      return { request: await withHashed(request, 'Password') };
    case 'RespondToAuthChallenge':
    case 'AdminRespondToAuthChallenge': {
      const responses = request.ChallengeResponses;
      if (typeof responses !== 'object' || responses === null) return { request };
      return { request: { ...request, ChallengeResponses: await withHashed(responses as Request, 'NEW_PASSWORD') } };
    }
    case 'ConfirmForgotPassword': {
      const { user } = await userNamed(services, ctx, request, request.Username);
      if (!user) throw new CodeMismatchError();
      return { request: await withHashed(request, 'Password') };
    }
    case 'ConfirmSignUp': {
      const { user } = await userNamed(services, ctx, request, request.Username);
      if (!user) throw new CodeMismatchError();
      if (user.UserStatus === 'CONFIRMED') {
        throw new NotAuthorizedError('User cannot be confirmed. Current status is CONFIRMED');
      }
      return { request };
    }
    case 'ForgotPassword': {
      const username = stringField(request, 'Username');
      const { user } = await userNamed(services, ctx, request, username);
      if (!user) return { answer: { CodeDeliveryDetails: emailDelivery(maskedAddress(username)) } };
      return { request };
    }
    case 'ChangePassword': {
      const { user } = await tokenUser();
      const previous = typeof request.PreviousPassword === 'string' ? request.PreviousPassword : '';
      const checked = (await passwordMatches(previous, user.Password)) ? user.Password : '';
      return { request: await withHashed({ ...request, PreviousPassword: checked }, 'ProposedPassword') };
    }
    case 'VerifyUserAttribute': {
      // cognito-local compares the code with the one stored: with neither, it would verify an address unchecked.
      const { pool, user } = await tokenUser();
      if (typeof request.Code !== 'string' || !user.AttributeVerificationCode) throw new CodeMismatchError();
      const pending = attributeValue('email', user.UnverifiedAttributeChanges);
      const holder = pending === undefined ? null : await pool.getUserByUsername(ctx, pending);
      if (holder && holder.Username !== user.Username) {
        throw new CognitoError('AliasExistsException', 'An account with the given email already exists.');
      }
      return { request };
    }
    case 'InitiateAuth':
    case 'AdminInitiateAuth':
      return { request: await withCheckedCredentials(services, ctx, request) };
    default:
      return { request };
  }
}

async function withHashed(request: Request, field: string): Promise<Request> {
  const value = request[field];
  return typeof value === 'string' ? { ...request, [field]: await hashPassword(value) } : request;
}

async function withCheckedCredentials(services: Services, ctx: RouteCtx, request: Request): Promise<Request> {
  const parameters = (typeof request.AuthParameters === 'object' && request.AuthParameters) as Request | false;
  if (!parameters) return request;
  if (request.AuthFlow === 'USER_PASSWORD_AUTH' || request.AuthFlow === 'ADMIN_USER_PASSWORD_AUTH') {
    const { user } = await userNamed(services, ctx, request, parameters.USERNAME);
    const given = typeof parameters.PASSWORD === 'string' ? parameters.PASSWORD : '';
    // Checked even without a user, against a decoy, so an unknown address takes as long as a wrong password.
    const matches = await passwordMatches(given, user?.Password);
    return { ...request, AuthParameters: { ...parameters, PASSWORD: matches ? user?.Password : '' } };
  }
  if (request.AuthFlow === 'REFRESH_TOKEN_AUTH' || request.AuthFlow === 'REFRESH_TOKEN') {
    const token = parameters.REFRESH_TOKEN;
    if (typeof token !== 'string' || token === '') return request;
    const claims = signedClaims(token);
    if (!claims) throw new NotAuthorizedError('Invalid Refresh Token');
    if (typeof claims.exp !== 'number' || claims.exp * 1000 <= services.clock.get().getTime()) {
      throw new NotAuthorizedError('Refresh Token has expired');
    }
    return { ...request, AuthParameters: { ...parameters, REFRESH_TOKEN: hashRefreshToken(token) } };
  }
  return request;
}

/** Cognito's refusals where cognito-local words them otherwise. */
function translate(target: string, request: Request, error: unknown): unknown {
  if (!(error instanceof CognitoError)) return error;
  const passwordFlow = request.AuthFlow === 'USER_PASSWORD_AUTH' || request.AuthFlow === 'ADMIN_USER_PASSWORD_AUTH';
  const signingIn = (target === 'InitiateAuth' || target === 'AdminInitiateAuth') && passwordFlow;
  const wrongCredentials =
    error.code === 'InvalidPasswordException' || (error.code === 'NotAuthorizedException' && signingIn);
  if ((signingIn || target === 'ChangePassword') && wrongCredentials) return new NotAuthorizedError(WRONG_CREDENTIALS);
  if ((target === 'InitiateAuth' || target === 'AdminInitiateAuth') && error.code === 'NotAuthorizedException') {
    return new NotAuthorizedError('Invalid Refresh Token');
  }
  return error;
}

/** A code delivery in an answer names the address masked, as Cognito's does. */
function masked(result: unknown): unknown {
  if (typeof result !== 'object' || result === null) return result;
  const details = (result as { CodeDeliveryDetails?: { Destination?: unknown } }).CodeDeliveryDetails;
  if (typeof details?.Destination !== 'string' || details.Destination.includes('***')) return result;
  return { ...result, CodeDeliveryDetails: { ...details, Destination: maskedAddress(details.Destination) } };
}

async function markEmailVerified(services: Services, ctx: RouteCtx, request: Request): Promise<void> {
  const { ClientId: clientId, Username: username } = request;
  if (typeof clientId !== 'string' || typeof username !== 'string') return;
  const pool = await services.cognito.getUserPoolForClientId(ctx, clientId);
  const user = await pool.getUserByUsername(ctx, username);
  if (!user) return;
  const others = user.Attributes.filter((attribute) => attribute.Name !== 'email_verified');
  const verified = attributesAppend(others, { Name: 'email_verified', Value: 'true' });
  await pool.saveUser(ctx, { ...user, Attributes: verified });
}

/** ResendConfirmationCode, which cognito-local lacks. */
async function resendConfirmationCode(services: Services, ctx: RouteCtx, request: Request): Promise<unknown> {
  const clientId = stringField(request, 'ClientId');
  const username = stringField(request, 'Username');
  const { pool, user } = await userNamed(services, ctx, request, username);
  if (!user) return { CodeDeliveryDetails: emailDelivery(maskedAddress(username)) };
  if (user.UserStatus === 'CONFIRMED') throw new InvalidParameterError('User is already confirmed.');
  const email = attributeValue('email', user.Attributes);
  if (!email) throw new InvalidParameterError('User has no e-mail address to send a code to.');
  const code = services.otp();
  const to = emailDelivery(email);
  await services.messages.deliver(ctx, 'ResendCode', clientId, pool.options.Id, user, code, undefined, to);
  await pool.saveUser(ctx, { ...user, ConfirmationCode: code, UserLastModifiedDate: services.clock.get() });
  return { CodeDeliveryDetails: emailDelivery(maskedAddress(email)) };
}

/** UpdateUserAttributes as the AWS pool runs it (keepOriginal on `email`). */
async function updateEmail(services: Services, ctx: RouteCtx, request: Request, tokenUser: TokenUser) {
  const { pool, user } = await tokenUser();
  const attributes = request.UserAttributes;
  if (!Array.isArray(attributes) || attributes.length === 0)
    throw new InvalidParameterError('UserAttributes is required');
  let email: string | undefined;
  for (const attribute of attributes as { Name?: unknown; Value?: unknown }[]) {
    if (typeof attribute?.Name !== 'string' || !WRITABLE_ATTRIBUTES.has(attribute.Name)) {
      throw new NotAuthorizedError('A client attempted to write unauthorized attribute');
    }
    if (typeof attribute.Value !== 'string' || !/^[^\s@]+@[^\s@]+$/.test(attribute.Value)) {
      throw new InvalidParameterError('Invalid email address format.');
    }
    email = attribute.Value;
  }
  if (email === undefined || email === attributeValue('email', user.Attributes)) {
    await pool.saveUser(ctx, { ...user, UnverifiedAttributeChanges: undefined, AttributeVerificationCode: undefined });
    return { CodeDeliveryDetailsList: [] };
  }
  const holder = await pool.getUserByUsername(ctx, email);
  if (holder && holder.Username !== user.Username) {
    throw new CognitoError('AliasExistsException', 'An account with the given email already exists.');
  }
  const code = services.otp();
  const pending: User = {
    ...user,
    UnverifiedAttributeChanges: [{ Name: 'email', Value: email }],
    AttributeVerificationCode: code,
    UserLastModifiedDate: services.clock.get(),
  };
  await pool.saveUser(ctx, pending);
  const to = emailDelivery(email);
  await services.messages.deliver(ctx, 'UpdateUserAttribute', null, pool.options.Id, pending, code, undefined, to);
  return { CodeDeliveryDetailsList: [emailDelivery(maskedAddress(email))] };
}

/** The public half of the key pair cognito-local signs every token with. */
const emulatorPublicKey = createPublicKey({
  key: (
    createRequire(import.meta.url)('cognito-local/lib/keys/cognitoLocal.public.json') as {
      jwk: import('node:crypto').JsonWebKey;
    }
  ).jwk,
  format: 'jwk',
});

/** The claims of a token signed with the emulator's key, or undefined. */
function signedClaims(token: string): Record<string, unknown> | undefined {
  const [header = '', payload = '', signature = ''] = token.split('.');
  if (
    !verify('RSA-SHA256', Buffer.from(`${header}.${payload}`), emulatorPublicKey, Buffer.from(signature, 'base64url'))
  )
    return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown;
    return typeof claims === 'object' && claims !== null ? (claims as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The claims of an access token this emulator issued and that is still valid; Cognito's refusal otherwise. */
function accessTokenClaims(token: unknown, issuerDomain: string, now: Date): Record<string, unknown> {
  const refuse = () => new NotAuthorizedError('Invalid Access Token');
  if (typeof token !== 'string') throw refuse();
  const claims = signedClaims(token);
  if (!claims) throw refuse();
  const issuer = typeof claims.iss === 'string' ? claims.iss : '';
  if (claims.token_use !== 'access' || !issuer.startsWith(`${issuerDomain}/`)) throw refuse();
  if (typeof claims.exp !== 'number' || claims.exp * 1000 <= now.getTime()) {
    throw new NotAuthorizedError('Access Token has expired');
  }
  return claims;
}

/** The pool and user of a valid access token; Cognito's refusal for any other token, or a user since deleted. */
async function userOfAccessToken(
  services: Services,
  ctx: RouteCtx,
  token: unknown,
): Promise<{ pool: UserPoolService; user: User }> {
  const domain = services.config.TokenConfig.IssuerDomain ?? '';
  const claims = accessTokenClaims(token, domain, services.clock.get());
  const pool = await services.cognito.getUserPool(ctx, String(claims.iss).slice(domain.length + 1));
  const user = await pool.getUserByUsername(ctx, String(claims.username));
  if (!user) throw new NotAuthorizedError('Invalid Access Token');
  return { pool, user };
}

/** GlobalSignOut: the person's refresh tokens are forgotten, so no new tokens can be had without a password. */
async function signOutEverywhere(ctx: RouteCtx, tokenUser: TokenUser): Promise<Record<string, never>> {
  const { pool, user } = await tokenUser();
  await pool.saveUser(ctx, { ...user, RefreshTokens: [] });
  return {};
}
