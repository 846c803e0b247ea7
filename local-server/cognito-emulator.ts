/**
 * Amazon Cognito for `npm start`: cognito-local assembled from its parts, in this process on a loopback port, with
 * its state (port and issuer too, so a restart signs nobody out) in the data directory, codes handed to the local
 * server, and no AWS SDK. Requests pass through cognito-pool-rules.ts. Tokens are signed with the key pair shipped
 * inside cognito-local, so anyone can forge them: the reason it listens on loopback only.
 */
import { appendFileSync, chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
import { UserPoolServiceFactoryImpl } from 'cognito-local/lib/services/userPoolService.js';
import pino from 'pino';
import { DASHBOARD_TOKEN_VALIDITY } from '../lambdas/core/http/dashboard-routes';
import { PASSWORD_POLICY } from '../web/src/password-policy';
import { createRouter, type RouteCtx, UNREADABLE_BODY } from './cognito-pool-rules';
import { secretFreeDataStores } from './cognito-secrets';
import { COGNITO_DIR } from './local-store';

/** The files of the emulator's folder in the data directory (COGNITO_DIR) that are ours. */
export const VERIFICATION_CODES_FILE = 'verification-codes.log';
const POOL_FILE = 'fxrates-pool.json';

export interface VerificationCode {
  at: string;
  email: string;
  code: string;
}

export interface CognitoEmulatorOptions {
  /** The data directory; without one, state lives in a temporary folder removed on close. */
  dataDir?: string;
  host?: string;
  /** 0 picks a free port; without it, the port of the last start with this data directory, else a free one. */
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
  /** The `iss` of its tokens: the same across restarts with one data directory. */
  issuer: string;
  jwksUrl: string;
  /** The file codes are appended to, one JSON object per line; undefined without a data directory. */
  codesFile: string | undefined;
  /** Codes delivered since start, oldest first. */
  codes(): readonly VerificationCode[];
  close(): Promise<void>;
}

/** What the data directory remembers: the pool and client the page uses, and where the emulator answered. */
interface PoolFile {
  userPoolId: string;
  clientId: string;
  /** The origin in every token's `iss`, fixed at the first start. */
  issuerDomain?: string;
  port?: number;
}

/** No Lambda triggers: every trigger reports disabled, so none of their methods is ever called. */
const NO_TRIGGERS = { enabled: () => false } as unknown as Triggers;

function readPoolFile(file: string): PoolFile | undefined {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<PoolFile>;
    if (typeof parsed.userPoolId !== 'string' || typeof parsed.clientId !== 'string') return undefined;
    return {
      userPoolId: parsed.userPoolId,
      clientId: parsed.clientId,
      ...(typeof parsed.issuerDomain === 'string' ? { issuerDomain: parsed.issuerDomain } : {}),
      ...(Number.isInteger(parsed.port) && (parsed.port as number) > 0 ? { port: parsed.port as number } : {}),
    };
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
async function ensurePool(
  endpoint: string,
  known: PoolFile | undefined,
): Promise<{ userPoolId: string; clientId: string }> {
  if (known) {
    const exists = await call(endpoint, 'DescribeUserPoolClient', {
      UserPoolId: known.userPoolId,
      ClientId: known.clientId,
    }).then(
      () => true,
      () => false,
    );
    if (exists) return { userPoolId: known.userPoolId, clientId: known.clientId };
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
  return { userPoolId: UserPool.Id, clientId: UserPoolClient.ClientId };
}

export async function startCognitoEmulator(options: CognitoEmulatorOptions = {}): Promise<CognitoEmulator> {
  const host = options.host ?? '127.0.0.1';
  const temporary = options.dataDir === undefined;
  const dir = options.dataDir ? join(options.dataDir, COGNITO_DIR) : mkdtempSync(join(tmpdir(), 'fxrates-cognito-'));
  mkdirSync(join(dir, 'db'), { recursive: true, mode: 0o700 });
  const codesFile = temporary ? undefined : join(dir, VERIFICATION_CODES_FILE);
  const poolFile = join(dir, POOL_FILE);
  const remembered = temporary ? undefined : readPoolFile(poolFile);
  const delivered: VerificationCode[] = [];
  const clock = options.clock ? { get: options.clock } : new DateClock();
  const deliver = (destination: string, code: string | undefined) => {
    if (code === undefined) return;
    const entry = { at: clock.get().toISOString(), email: destination, code };
    delivered.push(entry);
    if (codesFile) {
      appendFileSync(codesFile, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
      chmodSync(codesFile, 0o600);
    }
    options.onCode?.(entry);
  };
  // The issuer is the origin of the first start, known once the server listens; the generator reads this object
  // per token.
  const tokenConfig = { IssuerDomain: remembered?.issuerDomain ?? '' };
  const serverConfig = { host, port: options.port ?? 0 };
  const { services, logger, ctx } = await emulatorServices(dir, serverConfig, clock, tokenConfig, deliver);
  const router = createRouter(services) as unknown as Parameters<typeof createServer>[0];
  const listen = (port: number) => {
    const created = createServer(router, logger, { port, hostname: host, https: false });
    // Express's app, typed `any` by cognito-local; an error handler goes last, after its routes.
    created.application.use(unreadableRequest);
    return created.start() as Promise<Server>;
  };
  const wanted = options.port ?? remembered?.port ?? 0;
  const server = await listen(wanted).catch((error: unknown) => {
    // The remembered port taken by something else: a new one, and the page reloads its config to find it.
    const code = (error as NodeJS.ErrnoException | undefined)?.code;
    if (options.port === undefined && wanted !== 0 && (code === 'EADDRINUSE' || code === 'EACCES')) return listen(0);
    throw error;
  });
  const close = async () => {
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
    if (temporary) rmSync(dir, { recursive: true, force: true });
  };
  try {
    const port = (server.address() as AddressInfo).port;
    const origin = `http://${host}:${port}`;
    tokenConfig.IssuerDomain ||= origin;
    const endpoint = `${origin}/`;
    const ids = await ensurePool(endpoint, remembered);
    if (!temporary) {
      const record: PoolFile = { ...ids, issuerDomain: tokenConfig.IssuerDomain, port };
      writeFileSync(poolFile, `${JSON.stringify(record)}\n`, { mode: 0o600 });
      await forgetStoredSecrets(services, ctx, ids.userPoolId);
    }
    return {
      endpoint,
      region: 'local',
      ...ids,
      issuer: `${tokenConfig.IssuerDomain}/${ids.userPoolId}`,
      jwksUrl: `${origin}/${ids.userPoolId}/.well-known/jwks.json`,
      codesFile,
      codes: () => [...delivered],
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * A request body the emulator cannot read (not JSON, too large, cut off) as the JSON protocol answers one: 400 and
 * a SerializationException, where Express would answer a page with the parser's stack.
 */
function unreadableRequest(error: unknown, _req: IncomingMessage, res: ServerResponse, next: (e: unknown) => void) {
  if (res.headersSent) return next(error);
  const status = (error as { status?: unknown } | null)?.status;
  const refused = typeof status === 'number' && status >= 400 && status < 500;
  const body = JSON.stringify(
    refused
      ? { __type: 'SerializationException', message: UNREADABLE_BODY }
      : { __type: 'InternalErrorException', message: 'The emulator failed to handle the request.' },
  );
  res.writeHead(refused ? status : 500, {
    'Content-Type': 'application/x-amz-json-1.1',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}

/** cognito-local's services, assembled: its stores in `dir` (holding no secrets), no triggers, codes to `deliver`. */
async function emulatorServices(
  dir: string,
  server: { host: string; port: number },
  clock: Services['clock'],
  tokenConfig: { IssuerDomain: string },
  deliver: (destination: string, code: string | undefined) => void,
) {
  const sender: MessageSender = {
    sendEmail: async (_ctx, _user, destination, message) => deliver(destination, message.__code),
    sendSms: async (_ctx, _user, destination, message) => deliver(destination, message.__code),
  };
  const logger = pino({ level: 'error', base: undefined }, pino.destination(2));
  const ctx = { logger };
  const dataStores = secretFreeDataStores(new StormDBDataStoreFactory(join(dir, 'db')));
  const cognito = await new CognitoServiceFactoryImpl(
    join(dir, 'db'),
    dataStores,
    new UserPoolServiceFactoryImpl(clock, dataStores),
  ).create(ctx, { UsernameAttributes: ['email'] });
  const services: Services = {
    clock,
    cognito,
    config: {
      LambdaClient: {},
      TriggerFunctions: {},
      UserPoolDefaults: { UsernameAttributes: ['email'] },
      KMSConfig: {},
      ServerConfig: { port: server.port, hostname: server.host, development: false, https: false },
      TokenConfig: tokenConfig,
    } as unknown as Services['config'],
    messages: new MessagesService(NO_TRIGGERS, new MessageDeliveryService(sender)),
    otp,
    tokenGenerator: new JwtTokenGenerator(clock, NO_TRIGGERS, tokenConfig),
    triggers: NO_TRIGGERS,
  };
  return { services, logger, ctx: ctx as RouteCtx };
}

/** A data directory from before hashing holds passwords and refresh tokens in clear: each user is saved again. */
async function forgetStoredSecrets(services: Services, ctx: RouteCtx, userPoolId: string): Promise<void> {
  const pool = await services.cognito.getUserPool(ctx, userPoolId);
  for (const user of await pool.listUsers(ctx)) await pool.saveUser(ctx, user);
}
