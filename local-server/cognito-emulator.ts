/**
 * Amazon Cognito for `npm start`: the npm package cognito-local, assembled here from its parts instead of started
 * with its own defaults, so that it runs in this process on a loopback port of its own, keeps its state in the
 * data directory, hands verification codes to the local server (which prints them and writes them to a file)
 * instead of drawing boxes on the console, and loads no AWS SDK (its Lambda triggers are not used).
 *
 * Three gaps between cognito-local 5.3.0 and Cognito are closed where the page would notice them:
 * - it enforces no password policy: SignUp, ConfirmForgotPassword and ChangePassword are checked against the
 *   policy the CDK user pool sets (domain/password-policy.ts), with Cognito's InvalidPasswordException;
 * - confirming a sign-up (or a password reset) by the e-mailed code does not mark the address verified, so the ID
 *   token would say `email_verified: false`: it does so after a confirmation succeeds, as Cognito does;
 * - it has no GlobalSignOut (the page's sign-out): here it checks the access token and forgets the person's refresh
 *   tokens, as Cognito does. ID tokens already issued stay valid until they expire, on AWS as here.
 *
 * Tokens are signed with the key pair that ships inside cognito-local, so anyone can forge them: fine for a laptop,
 * and the reason this emulator listens on loopback only.
 */

import { createPublicKey, verify } from 'node:crypto';
import { appendFileSync, chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CognitoError, NotAuthorizedError } from 'cognito-local/lib/errors.js';
import { Router } from 'cognito-local/lib/server/Router.js';
import { createServer } from 'cognito-local/lib/server/server.js';
import { DateClock } from 'cognito-local/lib/services/clock.js';
import { CognitoServiceFactoryImpl } from 'cognito-local/lib/services/cognitoService.js';
import { StormDBDataStoreFactory } from 'cognito-local/lib/services/dataStore/stormDb.js';
import type { Services } from 'cognito-local/lib/services/index.js';
import { MessageDeliveryService } from 'cognito-local/lib/services/messageDelivery/messageDelivery.js';
import type { MessageSender } from 'cognito-local/lib/services/messageDelivery/messageSender.js';
import { MessagesService } from 'cognito-local/lib/services/messages.js';
import { otp } from 'cognito-local/lib/services/otp.js';
import { JwtTokenGenerator } from 'cognito-local/lib/services/tokenGenerator.js';
import type { Triggers } from 'cognito-local/lib/services/triggers/index.js';
import { attributesAppend, UserPoolServiceFactoryImpl } from 'cognito-local/lib/services/userPoolService.js';
import pino from 'pino';
import { PASSWORD_POLICY, PASSWORD_POLICY_TEXT, passwordProblems } from '../lambdas/core/domain/password-policy';
import { DASHBOARD_TOKEN_VALIDITY } from '../lambdas/core/http/dashboard-routes';

/** The folder of the data directory that holds the emulator's state, and the files in it that are ours. */
export const COGNITO_DIR = 'cognito';
export const VERIFICATION_CODES_FILE = 'verification-codes.log';
const POOL_FILE = 'fxrates-pool.json';

/** A code the emulator would have e-mailed. */
export interface VerificationCode {
  at: string;
  email: string;
  code: string;
}

export interface CognitoEmulatorOptions {
  /** The data directory; without one, state lives in a temporary folder removed on close. */
  dataDir?: string;
  host?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  onCode?: (code: VerificationCode) => void;
  /** The emulator's clock (token times, code and user dates); the local server passes its own. */
  clock?: () => Date;
}

export interface CognitoEmulator {
  /** Where the page sends Cognito's JSON API calls, as it sends them to `https://cognito-idp.<region>.amazonaws.com/`. */
  endpoint: string;
  region: string;
  userPoolId: string;
  clientId: string;
  /** The `iss` of its tokens. */
  issuer: string;
  jwksUrl: string;
  /** The file codes are appended to, one JSON object per line; undefined without a data directory. */
  codesFile: string | undefined;
  /** Codes delivered since start, oldest first. */
  codes(): readonly VerificationCode[];
  close(): Promise<void>;
}

interface PoolIds {
  userPoolId: string;
  clientId: string;
}

type Route = (ctx: { logger: unknown }, request: Record<string, unknown>) => Promise<unknown>;

/** Targets that set a password, and the request field that carries it. */
const PASSWORD_FIELDS: Readonly<Record<string, string>> = {
  SignUp: 'Password',
  ConfirmForgotPassword: 'Password',
  ChangePassword: 'ProposedPassword',
};

/** Targets after whose success the e-mail address is verified: the code proved the person reads that mailbox. */
const VERIFYING_TARGETS = new Set(['ConfirmSignUp', 'ConfirmForgotPassword']);

/** No Lambda triggers: every trigger reports disabled, so none of their methods is ever called. */
const NO_TRIGGERS = { enabled: () => false } as unknown as Triggers;

function readPoolIds(file: string): PoolIds | undefined {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<PoolIds>;
    return typeof parsed.userPoolId === 'string' && typeof parsed.clientId === 'string'
      ? { userPoolId: parsed.userPoolId, clientId: parsed.clientId }
      : undefined;
  } catch {
    return undefined;
  }
}

/** Cognito's JSON protocol, as the page and any SDK speak it. */
async function call<T>(endpoint: string, target: string, body: unknown): Promise<T> {
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-amz-json-1.1',
      'X-Amz-Target': `AWSCognitoIdentityProviderService.${target}`,
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`Cognito emulator ${target} failed (${response.status}): ${text.slice(0, 200)}`);
  return JSON.parse(text) as T;
}

/** The pool and app client the page uses: found again from the ids kept in the data directory, else created. */
async function ensurePool(endpoint: string, file: string): Promise<PoolIds> {
  const known = readPoolIds(file);
  if (known) {
    const exists = await call(endpoint, 'DescribeUserPoolClient', {
      UserPoolId: known.userPoolId,
      ClientId: known.clientId,
    }).then(
      () => true,
      () => false,
    );
    if (exists) return known;
  }
  const { UserPool } = await call<{ UserPool: { Id: string } }>(endpoint, 'CreateUserPool', {
    PoolName: 'fxrates-dashboard',
    UsernameAttributes: ['email'],
    AutoVerifiedAttributes: ['email'],
    Policies: {
      PasswordPolicy: {
        MinimumLength: PASSWORD_POLICY.minLength,
        RequireLowercase: PASSWORD_POLICY.requireLowercase,
        RequireUppercase: PASSWORD_POLICY.requireUppercase,
        RequireNumbers: PASSWORD_POLICY.requireDigits,
        RequireSymbols: PASSWORD_POLICY.requireSymbols,
      },
    },
  });
  const { UserPoolClient } = await call<{ UserPoolClient: { ClientId: string } }>(endpoint, 'CreateUserPoolClient', {
    UserPoolId: UserPool.Id,
    ClientName: 'dashboard',
    ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
    IdTokenValidity: DASHBOARD_TOKEN_VALIDITY.idTokenHours,
    AccessTokenValidity: DASHBOARD_TOKEN_VALIDITY.accessTokenHours,
    RefreshTokenValidity: DASHBOARD_TOKEN_VALIDITY.refreshTokenDays,
    TokenValidityUnits: { IdToken: 'hours', AccessToken: 'hours', RefreshToken: 'days' },
  });
  const ids = { userPoolId: UserPool.Id, clientId: UserPoolClient.ClientId };
  writeFileSync(file, `${JSON.stringify(ids)}\n`, { mode: 0o600 });
  return ids;
}

export async function startCognitoEmulator(options: CognitoEmulatorOptions = {}): Promise<CognitoEmulator> {
  const host = options.host ?? '127.0.0.1';
  const temporary = options.dataDir === undefined;
  const dir = options.dataDir ? join(options.dataDir, COGNITO_DIR) : mkdtempSync(join(tmpdir(), 'fxrates-cognito-'));
  mkdirSync(join(dir, 'db'), { recursive: true, mode: 0o700 });
  const codesFile = temporary ? undefined : join(dir, VERIFICATION_CODES_FILE);
  const delivered: VerificationCode[] = [];

  const deliver = async (destination: string, code: string | undefined) => {
    if (code === undefined) return;
    const entry = { at: clock.get().toISOString(), email: destination, code };
    delivered.push(entry);
    if (codesFile) {
      appendFileSync(codesFile, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
      chmodSync(codesFile, 0o600);
    }
    options.onCode?.(entry);
  };
  const sender: MessageSender = {
    sendEmail: (_ctx, _user, destination, message) => deliver(destination, message.__code),
    sendSms: (_ctx, _user, destination, message) => deliver(destination, message.__code),
  };

  const logger = pino({ level: 'error', base: undefined }, pino.destination(2));
  const ctx = { logger };
  const clock = options.clock ? { get: options.clock } : new DateClock();
  const dataStores = new StormDBDataStoreFactory(join(dir, 'db'));
  const cognito = await new CognitoServiceFactoryImpl(
    join(dir, 'db'),
    dataStores,
    new UserPoolServiceFactoryImpl(clock, dataStores),
  ).create(ctx, { UsernameAttributes: ['email'] });
  // The issuer names the port, known only once the server listens; the generator reads this object per token.
  const tokenConfig = { IssuerDomain: '' };
  const services: Services = {
    clock,
    cognito,
    config: {
      LambdaClient: {},
      TriggerFunctions: {},
      UserPoolDefaults: { UsernameAttributes: ['email'] },
      KMSConfig: {},
      ServerConfig: { port: options.port ?? 0, hostname: host, development: false, https: false },
      TokenConfig: tokenConfig,
    } as unknown as Services['config'],
    messages: new MessagesService(NO_TRIGGERS, new MessageDeliveryService(sender)),
    otp,
    tokenGenerator: new JwtTokenGenerator(clock, NO_TRIGGERS, tokenConfig),
    triggers: NO_TRIGGERS,
  };

  const base = Router(services) as unknown as (target: string) => Route;
  const router = (target: string): Route => {
    if (target === 'GlobalSignOut') {
      return (routeCtx, request) => signOutEverywhere(services, routeCtx, request, tokenConfig.IssuerDomain);
    }
    const route = base(target);
    return async (routeCtx, request) => {
      const field = PASSWORD_FIELDS[target];
      const password = field === undefined ? undefined : request[field];
      if (typeof password === 'string' && passwordProblems(password).length > 0) {
        throw new CognitoError(
          'InvalidPasswordException',
          `Password does not conform to policy: ${PASSWORD_POLICY_TEXT}`,
        );
      }
      const result = await route(routeCtx, request);
      if (VERIFYING_TARGETS.has(target)) await markEmailVerified(services, routeCtx, request);
      return result;
    };
  };

  const server = (await createServer(router as unknown as Parameters<typeof createServer>[0], logger, {
    port: options.port ?? 0,
    hostname: host,
    https: false,
  }).start()) as Server;
  try {
    const port = (server.address() as AddressInfo).port;
    const origin = `http://${host}:${port}`;
    tokenConfig.IssuerDomain = origin;
    const endpoint = `${origin}/`;
    const ids = await ensurePool(endpoint, join(dir, POOL_FILE));
    return {
      endpoint,
      region: 'local',
      ...ids,
      issuer: `${origin}/${ids.userPoolId}`,
      jwksUrl: `${origin}/${ids.userPoolId}/.well-known/jwks.json`,
      codesFile,
      codes: () => [...delivered],
      close: async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        if (temporary) rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    server.close();
    server.closeAllConnections();
    if (temporary) rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

async function markEmailVerified(services: Services, ctx: unknown, request: Record<string, unknown>): Promise<void> {
  const { ClientId: clientId, Username: username } = request;
  if (typeof clientId !== 'string' || typeof username !== 'string') return;
  const routeCtx = ctx as Parameters<Services['cognito']['getUserPoolForClientId']>[0];
  const pool = await services.cognito.getUserPoolForClientId(routeCtx, clientId);
  const user = await pool.getUserByUsername(routeCtx, username);
  if (!user) return;
  const others = user.Attributes.filter((attribute) => attribute.Name !== 'email_verified');
  await pool.saveUser(routeCtx, {
    ...user,
    Attributes: attributesAppend(others, { Name: 'email_verified', Value: 'true' }),
  });
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

/** The claims of an access token this emulator issued and that is still valid; Cognito's refusal otherwise. */
function accessTokenClaims(token: unknown, issuerDomain: string, now: Date): Record<string, unknown> {
  const refuse = () => new NotAuthorizedError('Invalid Access Token');
  if (typeof token !== 'string') throw refuse();
  const [header = '', payload = '', signature = ''] = token.split('.');
  if (
    !verify('RSA-SHA256', Buffer.from(`${header}.${payload}`), emulatorPublicKey, Buffer.from(signature, 'base64url'))
  )
    throw refuse();
  let claims: Record<string, unknown>;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    throw refuse();
  }
  const issuer = typeof claims.iss === 'string' ? claims.iss : '';
  if (claims.token_use !== 'access' || !issuer.startsWith(`${issuerDomain}/`)) throw refuse();
  if (typeof claims.exp !== 'number' || claims.exp * 1000 <= now.getTime()) throw refuse();
  return claims;
}

/** GlobalSignOut: the person's refresh tokens are forgotten, so no new tokens can be had without a password. */
async function signOutEverywhere(
  services: Services,
  ctx: unknown,
  request: Record<string, unknown>,
  issuerDomain: string,
): Promise<Record<string, never>> {
  const claims = accessTokenClaims(request.AccessToken, issuerDomain, services.clock.get());
  const routeCtx = ctx as Parameters<Services['cognito']['getUserPool']>[0];
  const poolId = String(claims.iss).slice(issuerDomain.length + 1);
  const pool = await services.cognito.getUserPool(routeCtx, poolId);
  const user = await pool.getUserByUsername(routeCtx, String(claims.username));
  if (!user) throw new NotAuthorizedError('Invalid Access Token');
  await pool.saveUser(routeCtx, { ...user, RefreshTokens: [] });
  return {};
}
