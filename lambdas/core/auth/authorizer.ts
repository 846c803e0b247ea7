import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { hashApiKey, isWellFormedApiKey } from '../domain/api-key';
import type { Clock } from '../domain/dates';
import { ERROR_CATALOG } from '../domain/errors';
import { type LimitOverrides, type PlanId, type PlanLimits, resolveLimits } from '../domain/plans';
import type { MeterState } from '../domain/quota';
import { type Access, encodeAccess } from '../http/authorizer-context';
import { DENY_CONTEXT_CODE, DENY_CONTEXT_MESSAGE } from '../http/gateway-responses';
import { API_KEY_HEADER, headerValue } from '../http/headers';
import { matchRoute } from '../http/routes';
import { RecordCache } from './record-cache';

/** Query parameter names that carry a key in the URL (refused with 400 even beside a valid header; openapi.json: api-key-in-url). */
export const KEY_QUERY_PARAMETERS = ['api_key', 'apikey', 'key', 'access_key', 'x-api-key'] as const;

export interface KeyLookup {
  findKeyByHash(sha256: string): Promise<{ accountId: string; revokedAt?: string } | undefined>;
}

export interface AccountLookup {
  findAccount(
    accountId: string,
  ): Promise<
    { accountId: string; plan: PlanId; status: 'active' | 'suspended'; overrides: LimitOverrides } | undefined
  >;
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

export interface AuthorizerDeps {
  keys: KeyLookup;
  accounts: AccountLookup;
  usage: Admission;
  clock: Clock;
  /** Called once per decision. */
  observe?: (outcome: AuthorizerOutcome) => void;
  cacheTtlMs?: number;
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

/**
 * The REQUEST authorizer's decision, in the documented order of checks: missing header, key in URL, key validity, account
 * status, limits. Unknown and malformed keys are a Deny (rendered 401 by the gateway); every other verdict is an
 * Allow whose context the endpoint's first middleware renders, since a Deny cannot carry a status or headers.
 */
export function createAuthorizer(deps: AuthorizerDeps) {
  const ttl = deps.cacheTtlMs ?? 60_000;
  const now = () => deps.clock().getTime();
  const keyCache = new RecordCache<{ accountId: string; revokedAt?: string }>(ttl, 10_000, now);
  const accountCache = new RecordCache<Awaited<ReturnType<AccountLookup['findAccount']>>>(ttl, 10_000, now);
  const observe = deps.observe ?? (() => undefined);

  async function authorize(event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> {
    const methodArn = event.methodArn;
    const key = headerValue(event.headers, API_KEY_HEADER);
    if (key === undefined || key === '') {
      observe({ kind: 'missing-api-key' });
      return deny(methodArn, 'missing-api-key');
    }
    const query = event.multiValueQueryStringParameters ?? event.queryStringParameters ?? {};
    if (Object.keys(query).some((name) => (KEY_QUERY_PARAMETERS as readonly string[]).includes(name.toLowerCase()))) {
      observe({ kind: 'api-key-in-url' });
      return allow(methodArn, { verdict: 'api-key-in-url' });
    }
    if (!isWellFormedApiKey(key)) {
      observe({ kind: 'invalid-api-key' });
      return deny(methodArn, 'invalid-api-key');
    }
    const hash = hashApiKey(key);
    const record = await keyCache.get(hash, () => deps.keys.findKeyByHash(hash));
    const account =
      record && !record.revokedAt
        ? await accountCache.get(record.accountId, () => deps.accounts.findAccount(record.accountId))
        : undefined;
    if (!account) {
      observe({ kind: 'invalid-api-key' });
      return deny(methodArn, 'invalid-api-key');
    }
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
      observe({ kind: 'account-inactive', accountId: account.accountId, plan: account.plan });
      // The key is valid, so the refusal carries the rate-limit headers too; it counts nothing, hence a read.
      const meter = await deps.usage.peek(account.accountId, limits);
      return allow(methodArn, { verdict: 'account-inactive', ...base, meter });
    }
    const route = matchRoute(event.resource ?? event.requestContext?.resourcePath ?? '');
    const meter = await deps.usage.admit({
      accountId: account.accountId,
      limits,
      countsTowardMonth: route?.route.countsTowardMonth ?? true,
      requestId: event.requestContext?.requestId,
    });
    observe({ kind: 'metered', accountId: account.accountId, plan: account.plan, meter });
    return allow(methodArn, { verdict: meter.verdict, ...base, meter });
  }

  const clearCaches = () => {
    keyCache.clear();
    accountCache.clear();
  };
  return { authorize, clearCaches };
}
