import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { hashApiKey, isWellFormedApiKey } from '../domain/api-key';
import type { Clock } from '../domain/dates';
import { ERROR_CATALOG } from '../domain/errors';
import { type LimitOverrides, type PlanId, type PlanLimits, resolveLimits } from '../domain/plans';
import type { MeterState } from '../domain/quota';
import { type Access, DENY_CONTEXT_CODE, DENY_CONTEXT_MESSAGE, encodeAccess } from '../http/authorizer-context';
import { API_KEY_HEADER, headerValue } from '../http/headers';
import { matchRoute } from '../http/routes';
import { LruCache } from '../service/lru-cache';
import { isStoreUnavailable } from '../store/store-errors';

/** Refused with 400 even beside a valid header (openapi.json: api-key-in-url). */
export const KEY_QUERY_PARAMETERS = ['api_key', 'apikey', 'key', 'access_key', 'x-api-key'] as const;

export interface KeyLookup {
  findKeyByHash(sha256: string): Promise<KeyRecord | undefined>;
}

type KeyRecord = { accountId: string; revokedAt?: string };
type AccountRecord = { accountId: string; plan: PlanId; status: 'active' | 'suspended'; overrides: LimitOverrides };

export interface AccountLookup {
  findAccount(accountId: string): Promise<AccountRecord | undefined>;
}

export interface Admission {
  admit(input: {
    accountId: string;
    limits: PlanLimits;
    countsTowardMonth: boolean;
    requestId?: string;
  }): Promise<MeterState>;
  peek(accountId: string, limits: PlanLimits): Promise<MeterState>;
}

/** What happened, for metrics and logs; never carries the key. */
export type AuthorizerOutcome =
  | { kind: 'missing-api-key' | 'invalid-api-key' }
  | { kind: 'api-key-in-url' }
  | { kind: 'account-inactive'; accountId: string; plan: PlanId }
  | { kind: 'metered'; accountId: string; plan: PlanId; meter: MeterState };

/** Which store call failed, or the deadline; never the key. */
export interface StoreFailure {
  stage: 'key' | 'account' | 'usage' | 'deadline';
  accountId?: string;
  error?: unknown;
}

export interface AuthorizerDeps {
  keys: KeyLookup;
  accounts: AccountLookup;
  usage: Admission;
  clock: Clock;
  /** Called once per decision that reached a verdict from the store or before it. */
  observe?: (outcome: AuthorizerOutcome) => void;
  /** Called when the store could not answer and the request was answered `unavailable` instead. */
  onUnavailable?: (failure: StoreFailure) => void;
  cacheTtlMs?: number;
}

export interface AuthorizeOptions {
  /** Past it the answer is `unavailable` (503) rather than a function timeout (500). */
  deadlineMs?: number;
}

function policy(effect: 'Allow' | 'Deny', methodArn: string, principalId: string, context: Record<string, string>) {
  return {
    principalId,
    policyDocument: {
      Version: '2012-10-17',
      Statement: [{ Action: 'execute-api:Invoke', Effect: effect, Resource: methodArn }],
    },
    context,
  } satisfies APIGatewayAuthorizerResult;
}

function deny(methodArn: string, code: 'missing-api-key' | 'invalid-api-key'): APIGatewayAuthorizerResult {
  return policy('Deny', methodArn, 'anonymous', {
    [DENY_CONTEXT_CODE]: code,
    [DENY_CONTEXT_MESSAGE]: ERROR_CATALOG[code].message,
  });
}

function allow(methodArn: string, access: Access): APIGatewayAuthorizerResult {
  return policy('Allow', methodArn, access.accountId ?? 'anonymous', encodeAccess(access));
}

/** An Allow rendered 503 by the endpoint (`admission` in http/middleware.ts says why an Allow is safe). */
function unavailable(methodArn: string, known: { accountId?: string; plan?: PlanId }): APIGatewayAuthorizerResult {
  const access: Access = { verdict: 'unavailable' };
  if (known.accountId) access.accountId = known.accountId;
  if (known.plan) access.plan = known.plan;
  return allow(methodArn, access);
}

/** Entries of each record cache: a revoked key or suspended account is seen within the TTL (the API allows 60 s). */
const CACHE_ENTRIES = 10_000;

type Observe = (outcome: AuthorizerOutcome) => void;

/** Whether a query parameter's name is one a key is commonly sent under, in any case. */
function hasKeyInQuery(query: Readonly<Record<string, unknown>> | null | undefined): boolean {
  if (!query) return false;
  for (const name in query) {
    if (Object.hasOwn(query, name) && (KEY_QUERY_PARAMETERS as readonly string[]).includes(name.toLowerCase())) {
      return true;
    }
  }
  return false;
}

/** In the documented order, before the store is asked, so an outage does not change those 401s. */
function checkRequest(
  event: APIGatewayRequestAuthorizerEvent,
  observe: Observe,
): { key: string } | { answer: APIGatewayAuthorizerResult } {
  const key = headerValue(event.headers, API_KEY_HEADER);
  if (key === undefined || key === '') {
    observe({ kind: 'missing-api-key' });
    return { answer: deny(event.methodArn, 'missing-api-key') };
  }
  if (hasKeyInQuery(event.multiValueQueryStringParameters ?? event.queryStringParameters)) {
    observe({ kind: 'api-key-in-url' });
    return { answer: allow(event.methodArn, { verdict: 'api-key-in-url' }) };
  }
  if (!isWellFormedApiKey(key)) {
    observe({ kind: 'invalid-api-key' });
    return { answer: deny(event.methodArn, 'invalid-api-key') };
  }
  return { key };
}

/** The verdict on a known account: its status, then its limits, which admission counts against (peek for a refusal). */
async function meter(
  event: APIGatewayRequestAuthorizerEvent,
  account: AccountRecord,
  usage: Admission,
  observe: Observe,
): Promise<APIGatewayAuthorizerResult> {
  const limits = resolveLimits(account.plan, account.overrides);
  const base = {
    accountId: account.accountId,
    plan: account.plan,
    limits: {
      monthlyLimit: limits.monthlyLimit,
      overflowAllowed: limits.overflowAllowed,
      overflowPercent: limits.overflowPercent,
      perMinute: limits.perMinute,
    },
  };
  if (account.status !== 'active') {
    // The key is valid, so the refusal carries the rate-limit headers too; it counts nothing, hence a read.
    const meter = await usage.peek(account.accountId, limits);
    observe({ kind: 'account-inactive', accountId: account.accountId, plan: account.plan });
    return allow(event.methodArn, { verdict: 'account-inactive', ...base, meter });
  }
  const route = matchRoute(event.resource ?? event.requestContext?.resourcePath ?? '');
  const meter = await usage.admit({
    accountId: account.accountId,
    limits,
    countsTowardMonth: route?.route.countsTowardMonth ?? true,
    requestId: event.requestContext?.requestId,
  });
  observe({ kind: 'metered', accountId: account.accountId, plan: account.plan, meter });
  return allow(event.methodArn, { verdict: meter.verdict, ...base, meter });
}

/** A late admission write still counts the 503 (a function timeout would have counted it and answered 500). */
async function withDeadline<T>(decision: Promise<T>, budgetMs: number | undefined, late: () => T): Promise<T> {
  if (budgetMs === undefined || !Number.isFinite(budgetMs)) return decision;
  // Nobody awaits a decision that lost the race; its failure must not become an unhandled rejection.
  decision.catch(() => undefined);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(late()), Math.max(0, budgetMs));
  });
  try {
    return await Promise.race([decision, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Only unknown and malformed keys are a Deny (401): a Deny cannot carry a status or headers, so every other verdict
 * is an Allow the endpoint renders. A store outage is `unavailable` (503); any other error is thrown (500).
 */
export function createAuthorizer(deps: AuthorizerDeps) {
  const ttl = deps.cacheTtlMs ?? 60_000;
  const keyCache = new LruCache<KeyRecord | undefined>(CACHE_ENTRIES);
  const accountCache = new LruCache<AccountRecord | undefined>(CACHE_ENTRIES);
  const observe = deps.observe ?? (() => undefined);
  const onUnavailable = deps.onUnavailable ?? (() => undefined);

  async function decide(event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> {
    const checked = checkRequest(event, observe);
    if ('answer' in checked) return checked.answer;
    const failure: StoreFailure = { stage: 'key' };
    let plan: PlanId | undefined;
    try {
      const hash = hashApiKey(checked.key);
      const record = await keyCache.load(hash, deps.clock().getTime(), ttl, () => deps.keys.findKeyByHash(hash));
      failure.stage = 'account';
      const account =
        record && !record.revokedAt
          ? await accountCache.load(record.accountId, deps.clock().getTime(), ttl, () =>
              deps.accounts.findAccount(record.accountId),
            )
          : undefined;
      if (!account) {
        observe({ kind: 'invalid-api-key' });
        return deny(event.methodArn, 'invalid-api-key');
      }
      failure.stage = 'usage';
      failure.accountId = account.accountId;
      plan = account.plan;
      return await meter(event, account, deps.usage, observe);
    } catch (error) {
      if (!isStoreUnavailable(error)) throw error;
      onUnavailable({ ...failure, error });
      return unavailable(event.methodArn, { accountId: failure.accountId, plan });
    }
  }

  const authorize = (event: APIGatewayRequestAuthorizerEvent, options: AuthorizeOptions = {}) =>
    withDeadline(decide(event), options.deadlineMs, () => {
      onUnavailable({ stage: 'deadline' });
      return unavailable(event.methodArn, {});
    });
  const clearCaches = () => {
    keyCache.clear();
    accountCache.clear();
  };
  return { authorize, clearCaches };
}
