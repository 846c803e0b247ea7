/**
 * The account dashboard's half of the OpenAPI document: its operations, built from the dashboard's route registry
 * and the refusals its functions word, with their samples, security scheme and tag.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { KEY_CREATION_LIMIT } from '../lambdas/core/dashboard/deps';
import { cannotCreateReason, dashboardError, nextKeyAt } from '../lambdas/core/dashboard/errors';
import { keyNameOf } from '../lambdas/core/dashboard/keys-create';
import { planCatalog } from '../lambdas/core/dashboard/plans';
import { accountView, keyView } from '../lambdas/core/dashboard/views';
import { accountIdForOwner, displayPrefix, generateApiKey } from '../lambdas/core/domain/api-key';
import { formatTimestamp } from '../lambdas/core/domain/dates';
import { ApiError, type ErrorCode } from '../lambdas/core/domain/errors';
import { PLAN_IDS, PLANS } from '../lambdas/core/domain/plans';
import { dailyUsage, monthKey, quotaReport } from '../lambdas/core/domain/quota';
import {
  DASHBOARD_BASE_PATH,
  DASHBOARD_CACHE_CONTROL,
  DASHBOARD_MAX_BODY_BYTES,
  DASHBOARD_TOKEN_HEADER,
  DASHBOARD_TOKEN_VALIDITY,
  type DashboardRouteDefinition,
  type DashboardRouteId,
} from '../lambdas/core/http/dashboard-routes';
import {
  type Account,
  AccountSuspendedError,
  type ApiKeyRecord,
  KeyCreationLimitedError,
  KeyLimitReachedError,
  UnknownKeyError,
} from '../lambdas/core/store/accounts-store';
import {
  cacheControl,
  catalogError,
  type ErrorExample,
  errorResponse,
  type HeaderObject,
  headerRef,
  type OperationObject,
  type ParameterObject,
  type RequestBodyObject,
  type ResponseObject,
  type ServerObject,
} from './openapi-objects';
import {
  dashboardEndpointErrors,
  dashboardErrorWhen,
  dashboardGatewayError,
  dashboardRouteErrors,
  dashboardRouteName,
  KEY_CREATION_LIMIT_TEXT,
  type RouteError,
} from './route-errors';
import { dashboardSuccessSchemaName, type JsonSchema, KEY_ID_PATTERN, NEW_KEY_REQUEST_SCHEMA, ref } from './schemas';

export const DASHBOARD_SECURITY_SCHEME = 'CognitoIdToken';
export const DASHBOARD_TAG = 'Account dashboard';

const DASHBOARD_SAMPLE_AT = Date.parse('2026-09-04T09:30:12Z');
/** Seconds to the end of the key-creation window in the 429 example. */
const DASHBOARD_RETRY_AFTER_SAMPLE = 1740;
const SAMPLE_OWNER = '3f6b2c1e-8d4a-4f7e-9b0c-5a1d2e3f4a5b';
/** A well-formed key for the examples, drawn from fixed bytes: no account has it. */
const SAMPLE_API_KEY = generateApiKey((size) => Uint8Array.from({ length: size }, (_, i) => (i * 97 + 13) % 248));

const SAMPLE_ACCOUNT: Account = {
  accountId: accountIdForOwner(SAMPLE_OWNER),
  plan: 'free',
  status: 'active',
  verified: true,
  email: 'ada@example.com',
  owner: SAMPLE_OWNER,
  overrides: {},
  activeKeys: 1,
  createdAt: '2026-08-17T19:02:44Z',
};
const SAMPLE_REVOKED_KEY: ApiKeyRecord = {
  keyId: 'key_8sWd1Kp0Zr5Tq2Hm',
  accountId: SAMPLE_ACCOUNT.accountId,
  name: 'first try',
  createdAt: '2026-08-17T19:03:10Z',
  revokedAt: '2026-09-02T08:13:51Z',
  prefix: 'fxr_Q7mZ',
};
const SAMPLE_KEY: ApiKeyRecord = {
  keyId: 'key_4Xq9Lm2Rt7Vb1Nc8',
  accountId: SAMPLE_ACCOUNT.accountId,
  name: 'my laptop',
  createdAt: '2026-09-02T08:15:03Z',
  prefix: displayPrefix(SAMPLE_API_KEY),
};

/** Each plan's limit on active keys, in words: `Free: 1, Pro: unlimited, …`. */
const KEY_LIMITS_TEXT = PLAN_IDS.map((id) => `${PLANS[id].name}: ${PLANS[id].maxActiveKeys ?? 'unlimited'}`).join(', ');

/** What the reference adds to a dashboard route's registry entry. */
const DASHBOARD_OPERATIONS: Readonly<Record<DashboardRouteId, { notes: string; example: unknown }>> = {
  account: {
    notes:
      "The overview: the account, this month's quota exactly as `GET /v1/quota` reports it to the account's keys, " +
      'the requests per day of this month (UTC, from the 1st to today) for the chart, and the active keys against ' +
      "the plan's limit.\n\n" +
      "The days count every request the public API admitted, quota checks (`GET /v1/quota`) included; the quota's " +
      '`used` counts all but those, which count toward the per-minute limit only. `usage.quota_checks` is the ' +
      'difference, so the days add up to `quota.used + usage.quota_checks`.',
    example: {
      account: accountView(SAMPLE_ACCOUNT),
      quota: quotaReport(PLANS.free, 54, DASHBOARD_SAMPLE_AT),
      usage: {
        month: monthKey(DASHBOARD_SAMPLE_AT),
        days: dailyUsage(
          DASHBOARD_SAMPLE_AT,
          new Map([
            [2, 12],
            [3, 40],
            [4, 5],
          ]),
          new Map([[3, 2]]),
        ),
        quota_checks: 3,
      },
      keys: {
        active: SAMPLE_ACCOUNT.activeKeys,
        max_active: PLANS[SAMPLE_ACCOUNT.plan].maxActiveKeys,
        next_key_at: nextKeyAt(SAMPLE_ACCOUNT, KEY_CREATION_LIMIT, new Date(DASHBOARD_SAMPLE_AT)),
      },
    },
  },
  'keys-list': {
    notes:
      'Every key of the account, oldest first, revoked ones included, each with its non-secret `prefix`: never ' +
      'the key itself. `can_create` says whether the plan, the account and the creation limit allow another key ' +
      'now; when they do not, `cannot_create_reason` says why, in words the page shows beside its disabled ' +
      'button. `next_key_at` says when the creation limit admits the next key, null when it admits one now.',
    example: {
      keys: [keyView(SAMPLE_REVOKED_KEY), keyView(SAMPLE_KEY)],
      active: SAMPLE_ACCOUNT.activeKeys,
      max_active: PLANS[SAMPLE_ACCOUNT.plan].maxActiveKeys,
      can_create: false,
      cannot_create_reason: cannotCreateReason(SAMPLE_ACCOUNT, KEY_CREATION_LIMIT, new Date(DASHBOARD_SAMPLE_AT)),
      next_key_at: nextKeyAt(SAMPLE_ACCOUNT, KEY_CREATION_LIMIT, new Date(DASHBOARD_SAMPLE_AT)),
    },
  },
  'keys-create': {
    notes:
      'Creates an active key with the given name. **The full key is shown once**: it is in `data.key` of this ' +
      '`201` and nowhere else, ever (the service keeps only its hash; later lists show its `prefix`), so the page ' +
      'shows it with a copy button and a warning.\n\n' +
      `- Active keys are limited per plan (${KEY_LIMITS_TEXT}): one more is ` +
      '`409 key-limit-reached`.\n' +
      '- A suspended account can create none: `403 account-inactive`.\n' +
      `- Creation is limited to ${KEY_CREATION_LIMIT_TEXT}: one more is \`429 rate-limit-exceeded\` with ` +
      '`Retry-After`.',
    example: { key: SAMPLE_API_KEY, ...keyView(SAMPLE_KEY) },
  },
  'keys-revoke': {
    notes:
      "Revokes one of the account's keys: **the public API refuses it within 60 seconds**. " +
      'Revoking a revoked key succeeds again, changes nothing and says so (`already_revoked`). A ' +
      "key id that is not one of the account's, another account's included, is `404 not-found`.",
    example: {
      ...keyView({ ...SAMPLE_KEY, revokedAt: formatTimestamp(DASHBOARD_SAMPLE_AT) }),
      already_revoked: false,
    },
  },
  plans: {
    notes:
      "The plans on offer, the account's current plan, and whom to ask for a change (`contact`). Changing plans " +
      "is not self-service: the operator changes an account's plan with the admin CLI, and this route then shows it.",
    example: { current: SAMPLE_ACCOUNT.plan, contact: 'mailto:sales@example.com', plans: planCatalog() },
  },
};

/** Path parameters of the dashboard routes, by name. */
const DASHBOARD_PATH_PARAMETERS: Readonly<
  Record<string, { description: string; schema: JsonSchema; example: string }>
> = {
  keyId: {
    description: `The key's \`id\`, as ${dashboardRouteName('keys-list')} lists it.`,
    schema: { type: 'string', pattern: KEY_ID_PATTERN },
    example: SAMPLE_KEY.keyId,
  },
};

/** The dashboard routes' request bodies: one for each route whose registry entry reads a body. */
const DASHBOARD_REQUEST_BODIES: Readonly<Partial<Record<DashboardRouteId, { schema: string; example: unknown }>>> = {
  'keys-create': { schema: NEW_KEY_REQUEST_SCHEMA, example: { name: SAMPLE_KEY.name } },
};

const DASHBOARD_SERVER: ServerObject = {
  url: DASHBOARD_BASE_PATH,
  description:
    "Relative to the dashboard page's origin, which it shares: http://127.0.0.1:3000 under `npm start`; on AWS, " +
    "the dashboard's distribution (stack output `DashboardUrl`), which forwards `/api/*` to the dashboard API.",
};

export const DASHBOARD_SECURITY_DESCRIPTION = [
  "The dashboard API's one credential: the Cognito ID token of the signed-in person, in the " +
    `\`${DASHBOARD_TOKEN_HEADER}\` header (the \`Bearer \` before it is optional). The page gets it from Cognito ` +
    '(`InitiateAuth`, ' +
    "`AuthenticationResult.IdToken`; the user pool and app client are in the page's `/config.json`) and keeps it " +
    "in memory only. On AWS, API Gateway's Cognito authorizer checks it; under `npm start`, the local server " +
    'checks it the same way against its Cognito emulator: signature, issuer (the user pool), audience (the app ' +
    'client), `token_use` `id`, expiry. An ID token is valid for ' +
    `${DASHBOARD_TOKEN_VALIDITY.idTokenHours === 1 ? 'one hour' : `${DASHBOARD_TOKEN_VALIDITY.idTokenHours} hours`} ` +
    'after it is issued.',
  '',
  '- No token, or one that fails a check: `401 unauthenticated`, before any function runs; the page asks the person ' +
    'to sign in again.',
  '- A valid token whose `email_verified` is not true: `403 email-not-verified`.',
  '- An API key is not accepted here, and an ID token is not accepted by the public API.',
].join('\n');

export const DASHBOARD_TAG_DESCRIPTION = [
  'The JSON API of the account dashboard, the page where a person signs up, creates and revokes API keys and ' +
    `watches their quota. Only that page calls it, from its own origin, below \`${DASHBOARD_BASE_PATH}\`, with the ` +
    `person's Cognito ID token (security scheme \`${DASHBOARD_SECURITY_SCHEME}\`). It is not for API-key clients, ` +
    'which use the API above.',
  '',
  "- Responses use the public API's envelope, with `meta.timestamp`, and carry " +
    `\`Cache-Control: ${DASHBOARD_CACHE_CONTROL}\` and \`X-Request-Id\`.` +
    ' Requests are not metered: they count toward no quota and carry no rate-limit headers.',
  '- The first request of a person with a verified e-mail address, to any route, creates their account, on the ' +
    'Free plan.',
  `- A key is shown once, in the \`201\` of ${dashboardRouteName('keys-create')}, and never again.`,
  '- A revoked key is refused by the public API within 60 seconds.',
  `- Key creation is limited to ${KEY_CREATION_LIMIT_TEXT}.`,
  `- An unknown path or method below \`${DASHBOARD_BASE_PATH}\` is \`404 not-found\`, as everywhere.`,
].join('\n');

/** The dashboard's own refusals as its functions word them, for the examples. */
const DASHBOARD_REFUSALS: ReadonlyMap<ErrorCode, ErrorExample> = new Map(
  [
    refusalOf(() =>
      keyNameOf({ headers: { 'Content-Type': 'application/json' }, body: '{}' } as unknown as APIGatewayProxyEvent),
    ),
    dashboardError(new AccountSuspendedError(SAMPLE_ACCOUNT.accountId)),
    dashboardError(
      new KeyLimitReachedError(SAMPLE_ACCOUNT.accountId, SAMPLE_ACCOUNT.plan, SAMPLE_ACCOUNT.activeKeys),
      SAMPLE_ACCOUNT,
    ),
    dashboardError(new KeyCreationLimitedError(KEY_CREATION_LIMIT, DASHBOARD_RETRY_AFTER_SAMPLE)),
    dashboardError(new UnknownKeyError('key_0000000000000000')),
  ].map((error): [ErrorCode, ErrorExample] => {
    if (!error) throw new Error('a sample refusal has no API error');
    return [error.code, { code: error.code, message: error.message, ...(error.param ? { param: error.param } : {}) }];
  }),
);

/** The ApiError a call throws; a call that does not throw one is a fault of the examples. */
function refusalOf(call: () => unknown): ApiError {
  try {
    call();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('the sample request was not refused');
}

/** `nosniff` on what the dashboard's functions answer; API Gateway's own responses do not carry it. */
const NOSNIFF_HEADER: HeaderObject = {
  description:
    "On every response of the dashboard's functions; the ones API Gateway renders itself (a refused token, an " +
    'unknown path, the throttle) lack it.',
  schema: { type: 'string', const: 'nosniff' },
};

const DASHBOARD_RETRY_AFTER: HeaderObject = {
  description:
    'Seconds until a retry can succeed, at least 1: until the key-creation window ends, or 1 for the stage-wide ' +
    'throttle.',
  schema: { type: 'integer', minimum: 1 },
  required: true,
  example: DASHBOARD_RETRY_AFTER_SAMPLE,
};

function dashboardHeaders(status: number): NonNullable<ResponseObject['headers']> {
  const headers: NonNullable<ResponseObject['headers']> = {
    'Cache-Control': cacheControl(DASHBOARD_CACHE_CONTROL, 'Dashboard responses are never cached.'),
    'X-Request-Id': headerRef('X-Request-Id'),
    'X-Content-Type-Options': NOSNIFF_HEADER,
  };
  if (status === 429) headers['Retry-After'] = DASHBOARD_RETRY_AFTER;
  return headers;
}

function dashboardParameters(route: DashboardRouteDefinition): ParameterObject[] {
  return [...route.path.matchAll(/\{(\w+)\}/g)].map(([, name = '']) => {
    const parameter = DASHBOARD_PATH_PARAMETERS[name];
    if (!parameter) throw new Error(`the path parameter ${name} of ${route.id} has no description`);
    return { name, in: 'path', required: true, ...parameter };
  });
}

function dashboardRequestBody(route: DashboardRouteDefinition): RequestBodyObject | undefined {
  const body = DASHBOARD_REQUEST_BODIES[route.id];
  if (route.body !== (body !== undefined)) throw new Error(`the request body of ${route.id} is not documented`);
  if (!body) return undefined;
  return {
    description: `JSON, sent with \`Content-Type: application/json\`, at most ${DASHBOARD_MAX_BODY_BYTES} bytes.`,
    required: true,
    content: { 'application/json': { schema: ref(body.schema), example: body.example } },
  };
}

function dashboardResponses(route: DashboardRouteDefinition): Record<string, ResponseObject> {
  const example = {
    success: true,
    data: DASHBOARD_OPERATIONS[route.id].example,
    meta: { timestamp: formatTimestamp(DASHBOARD_SAMPLE_AT) },
  };
  const responses: Record<string, ResponseObject> = {
    [String(route.successStatus)]: {
      description: route.successStatus === 201 ? 'Created.' : 'OK.',
      headers: dashboardHeaders(route.successStatus),
      content: { 'application/json': { schema: ref(dashboardSuccessSchemaName(route.id)), example } },
    },
  };
  const byStatus = new Map<number, RouteError[]>();
  for (const error of dashboardRouteErrors(route)) {
    byStatus.set(error.status, [...(byStatus.get(error.status) ?? []), error]);
  }
  for (const [status, errors] of byStatus) {
    responses[String(status)] = errorResponse(status, errors, {
      headers: dashboardHeaders(status),
      when: dashboardErrorWhen,
      // The endpoint's wording where it refuses itself; else the gateway's, where it answers; else the catalog's.
      example: (code, status) =>
        (dashboardEndpointErrors(route).includes(code) ? DASHBOARD_REFUSALS.get(code) : undefined) ??
        dashboardGatewayError(status, code) ??
        catalogError(code),
    });
  }
  return responses;
}

/** A dashboard route's operation: it names its own server and security, as the dashboard API is another API. */
export function dashboardOperationOf(route: DashboardRouteDefinition): OperationObject {
  const requestBody = dashboardRequestBody(route);
  return {
    operationId: route.id,
    tags: [DASHBOARD_TAG],
    summary: route.summary,
    description: DASHBOARD_OPERATIONS[route.id].notes,
    servers: [DASHBOARD_SERVER],
    security: [{ [DASHBOARD_SECURITY_SCHEME]: [] }],
    parameters: dashboardParameters(route),
    ...(requestBody ? { requestBody } : {}),
    responses: dashboardResponses(route),
  };
}
