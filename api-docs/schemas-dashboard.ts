/** The dashboard API's schemas: its building blocks, each route's `data` with its envelope, and its request body. */
import type { planCatalog } from '../lambdas/core/dashboard/plans';
import type { accountView, keyView } from '../lambdas/core/dashboard/views';
import {
  ACCOUNT_ID_RANDOM_LENGTH,
  KEY_CHECKSUM_LENGTH,
  KEY_DISPLAY_PREFIX_LENGTH,
  KEY_PREFIX,
  KEY_RANDOM_LENGTH,
} from '../lambdas/core/domain/api-key';
import { PLAN_IDS, PLANS } from '../lambdas/core/domain/plans';
import type { DayUsage } from '../lambdas/core/domain/quota';
import type { DashboardRouteId } from '../lambdas/core/http/dashboard-routes';
import { type JsonSchema, object, ref } from './json-schema';

/**
 * Every field of every member of a union: the type argument of `object` for a view whose optional fields come from
 * a conditional spread, so that each of them must be described too.
 */
type AllFields<U> = { [K in U extends unknown ? keyof U : never]: unknown };

type KeyView = AllFields<ReturnType<typeof keyView>>;

/** As the accounts store checks names; a unit test holds this schema's verdicts against the store's. */
export const KEY_NAME_MAX_LENGTH = 64;

/** A key name: printable ASCII, not only spaces. */
const KEY_NAME_PATTERN = '^[\\x20-\\x7E]*[\\x21-\\x7E][\\x20-\\x7E]*$';

export const KEY_ID_PATTERN = '^key_[0-9A-Za-z]+$';
const BASE62 = '[0-9A-Za-z]';

const maxActiveKeys = (description: string): JsonSchema => ({
  type: ['integer', 'null'],
  minimum: 1,
  description,
  examples: [PLANS.free.maxActiveKeys],
});

/** An object's `field` is there when its `flag` is `value`, and only then. */
function presentExactlyWhen(field: string, flag: string, value: unknown): JsonSchema {
  return {
    anyOf: [
      { properties: { [flag]: { const: value } }, required: [field] },
      { properties: { [flag]: { not: { const: value } } }, not: { required: [field] } },
    ],
  };
}

/** A key's fields as every answer about a key shows them; never its secret part. */
const KEY_FIELDS: { [K in keyof KeyView]: JsonSchema } = {
  id: {
    type: 'string',
    pattern: KEY_ID_PATTERN,
    description: "The key's id: not secret; it names the key in `DELETE /api/keys/{keyId}`.",
    examples: ['key_4Xq9Lm2Rt7Vb1Nc8'],
  },
  name: {
    type: 'string',
    minLength: 1,
    maxLength: KEY_NAME_MAX_LENGTH,
    description: 'The name given when the key was created.',
    examples: ['my laptop'],
  },
  prefix: {
    type: ['string', 'null'],
    pattern: `^${KEY_PREFIX}${BASE62}{${KEY_DISPLAY_PREFIX_LENGTH - KEY_PREFIX.length}}$`,
    description:
      'The first characters of the key, which are not secret, to tell keys apart; null for a key made before ' +
      'prefixes were kept.',
    examples: [`${KEY_PREFIX}Ab3x`],
  },
  created_at: { ...ref('Timestamp'), description: 'When the key was created.' },
  status: {
    type: 'string',
    enum: ['active', 'revoked'],
    description: 'A revoked key is refused by the public API within 60 seconds of its revocation.',
  },
  revoked_at: { ...ref('Timestamp'), description: 'When the key was revoked; only on a revoked key.' },
};

const KEY_REQUIRED = ['id', 'name', 'prefix', 'created_at', 'status'] as const;

/** The dashboard's building blocks, by component name. */
export const DASHBOARD_BASICS: Record<string, JsonSchema> = {
  ApiKey: object<KeyView>(KEY_FIELDS, KEY_REQUIRED, {
    description: 'An API key of the account, without its secret part.',
    ...presentExactlyWhen('revoked_at', 'status', 'revoked'),
  }),
  AccountDetails: object<ReturnType<typeof accountView>>(
    {
      id: {
        type: 'string',
        pattern: `^acc_${BASE62}{${ACCOUNT_ID_RANDOM_LENGTH}}$`,
        description: "The account's id, derived from the person's Cognito `sub`: the operator's admin CLI shows it.",
        examples: ['acc_Vq3NcX8LmT2rB7ka'],
      },
      email: {
        type: ['string', 'null'],
        description: "The e-mail address the person signed up with, from their token's verified `email`.",
        examples: ['ada@example.com'],
      },
      plan: { type: 'string', enum: [...PLAN_IDS], description: "The account's plan." },
      plan_name: {
        type: 'string',
        enum: Object.values(PLANS).map((plan) => plan.name),
        description: 'The plan as the quota report names it.',
      },
      status: {
        type: 'string',
        enum: ['active', 'suspended'],
        description: 'A suspended account cannot create keys, and the public API refuses its keys.',
      },
      created_at: { ...ref('Timestamp'), description: "When the account was created: the person's first request." },
    },
    ['id', 'email', 'plan', 'plan_name', 'status', 'created_at'],
  ),
  DayUsage: object<DayUsage>(
    {
      date: { type: 'string', format: 'date', description: 'The day (UTC).', examples: ['2026-09-01'] },
      requests: {
        type: 'integer',
        minimum: 0,
        description:
          "Requests the public API admitted that day, all the account's keys together, `GET /v1/quota` included.",
      },
      refused: {
        type: 'integer',
        minimum: 0,
        description: 'Requests refused that day by the per-minute limit or the monthly quota.',
      },
    },
    ['date', 'requests', 'refused'],
  ),
  PlanOffer: object<ReturnType<typeof planCatalog>[number]>(
    {
      id: { type: 'string', enum: [...PLAN_IDS], description: 'The plan, as `current` and `account.plan` name it.' },
      name: { type: 'string', enum: Object.values(PLANS).map((plan) => plan.name), description: 'Its name.' },
      price_eur_per_month: { type: 'number', minimum: 0, description: 'Price in euros per month.' },
      monthly_limit: { type: 'integer', minimum: 1, description: 'Requests per UTC calendar month.' },
      per_minute: { type: 'integer', minimum: 1, description: 'Requests per UTC calendar minute.' },
      history: {
        type: 'string',
        description: 'How far back historical rates reach, in words.',
        examples: ['1 year back'],
      },
      max_active_keys: maxActiveKeys('Active keys an account on this plan may hold; null is unlimited.'),
      overflow_percent: {
        type: 'integer',
        minimum: 0,
        maximum: 100,
        description: 'Use allowed above the monthly limit, in percent; 0 when none is.',
      },
      extras: {
        type: ['string', 'null'],
        description: 'What else the plan includes, in words; null when nothing.',
        examples: ['priority support'],
      },
    },
    [
      'id',
      'name',
      'price_eur_per_month',
      'monthly_limit',
      'per_minute',
      'history',
      'max_active_keys',
      'overflow_percent',
      'extras',
    ],
  ),
};

/** When the creation limit admits the next key; the overview and the key list both carry it. */
const NEXT_KEY_AT: JsonSchema = {
  oneOf: [ref('Timestamp'), { type: 'null' }],
  description:
    'When the key-creation limit admits the next key: the moment the oldest creation of its rolling window ' +
    'leaves it. Null when it admits one now (the plan and the account may still refuse one).',
};

/** The `data` of each dashboard route's successful response. */
export const DASHBOARD_DATA: Record<DashboardRouteId, { name: string; schema: JsonSchema }> = {
  account: {
    name: 'AccountOverview',
    schema: object(
      {
        account: ref('AccountDetails'),
        quota: {
          ...ref('QuotaReport'),
          description: "This month's quota, as `GET /v1/quota` reports it to the account's keys.",
        },
        usage: object(
          {
            month: {
              type: 'string',
              pattern: '^\\d{4}-\\d{2}$',
              description: 'The current UTC calendar month.',
              examples: ['2026-09'],
            },
            days: {
              type: 'array',
              items: ref('DayUsage'),
              minItems: 1,
              maxItems: 31,
              description: 'One entry per day of the month, from the 1st to today (UTC).',
            },
            quota_checks: {
              type: 'integer',
              minimum: 0,
              description:
                "This month's quota checks (`GET /v1/quota`): in the days' `requests`, but not in `quota.used`, " +
                'since they count toward the per-minute limit only. The days add up to `quota.used` plus this.',
            },
          },
          ['month', 'days', 'quota_checks'],
          { description: 'Requests per day this month, for the chart.' },
        ),
        keys: object(
          {
            active: { type: 'integer', minimum: 0, description: 'Active keys the account holds.' },
            max_active: maxActiveKeys("Active keys the account's plan allows; null is unlimited."),
            next_key_at: NEXT_KEY_AT,
          },
          ['active', 'max_active', 'next_key_at'],
        ),
      },
      ['account', 'quota', 'usage', 'keys'],
    ),
  },
  'keys-list': {
    name: 'KeyList',
    schema: object(
      {
        keys: {
          type: 'array',
          items: ref('ApiKey'),
          description: 'Every key of the account, revoked ones included, oldest first.',
        },
        active: { type: 'integer', minimum: 0, description: 'Active keys the account holds.' },
        max_active: maxActiveKeys("Active keys the account's plan allows; null is unlimited."),
        can_create: {
          type: 'boolean',
          description:
            "Whether the plan's key limit, the account's status and the key-creation limit allow another key now.",
        },
        cannot_create_reason: {
          type: 'string',
          description: 'Why no key can be created, in words for the person; only when `can_create` is false.',
        },
        next_key_at: NEXT_KEY_AT,
      },
      ['keys', 'active', 'max_active', 'can_create', 'next_key_at'],
      presentExactlyWhen('cannot_create_reason', 'can_create', false),
    ),
  },
  'keys-create': {
    name: 'CreatedKey',
    schema: object<Omit<KeyView, 'revoked_at'> & { key: unknown }>(
      {
        key: {
          type: 'string',
          pattern: `^${KEY_PREFIX}${BASE62}{${KEY_RANDOM_LENGTH + KEY_CHECKSUM_LENGTH}}$`,
          description:
            'The full key, for the `X-API-Key` header of the public API. Shown in this response only: it is ' +
            'stored as a hash, and no request can return it again.',
        },
        id: KEY_FIELDS.id,
        name: KEY_FIELDS.name,
        prefix: KEY_FIELDS.prefix,
        created_at: KEY_FIELDS.created_at,
        status: { const: 'active', description: 'A new key is active at once.' },
      },
      ['key', ...KEY_REQUIRED],
    ),
  },
  'keys-revoke': {
    name: 'RevokedKey',
    schema: object<KeyView & { already_revoked: unknown }>(
      {
        ...KEY_FIELDS,
        status: { const: 'revoked', description: 'The public API refuses the key within 60 seconds.' },
        revoked_at: {
          ...ref('Timestamp'),
          description: 'When the key was revoked: the first revocation, when it was revoked before.',
        },
        already_revoked: {
          type: 'boolean',
          description: 'True when the key had been revoked before this request, which then changed nothing.',
        },
      },
      [...KEY_REQUIRED, 'revoked_at', 'already_revoked'],
    ),
  },
  plans: {
    name: 'PlanCatalog',
    schema: object(
      {
        current: { type: 'string', enum: [...PLAN_IDS], description: "The account's plan." },
        contact: {
          type: ['string', 'null'],
          pattern: '^(mailto:|https://)',
          description:
            'Where to ask for a plan change, as the operator set it: a `mailto:` or `https:` link; null when none ' +
            'is set. Changing plans is not self-service.',
          examples: ['mailto:sales@example.com'],
        },
        plans: {
          type: 'array',
          items: ref('PlanOffer'),
          minItems: PLAN_IDS.length,
          maxItems: PLAN_IDS.length,
          description: 'Every plan on offer.',
        },
      },
      ['current', 'contact', 'plans'],
    ),
  },
};

/** The body of `POST /api/keys`. */
export const NEW_KEY_REQUEST_SCHEMA = 'NewKeyRequest';

export const DASHBOARD_REQUESTS: Record<string, JsonSchema> = {
  [NEW_KEY_REQUEST_SCHEMA]: object(
    {
      name: {
        type: 'string',
        minLength: 1,
        maxLength: KEY_NAME_MAX_LENGTH,
        pattern: KEY_NAME_PATTERN,
        description:
          `The new key's name: 1 to ${KEY_NAME_MAX_LENGTH} printable ASCII characters, not only spaces. Leading ` +
          'and trailing spaces are removed before it is checked and kept.',
        examples: ['my laptop'],
      },
    },
    ['name'],
  ),
};

/** Component name of the successful response body of a dashboard route. */
export const dashboardSuccessSchemaName = (route: DashboardRouteId): string => `${DASHBOARD_DATA[route].name}Response`;

/** Every dashboard response carries the time it was made. */
export function dashboardEnvelope(route: DashboardRouteId): JsonSchema {
  return object(
    {
      success: { const: true },
      data: ref(DASHBOARD_DATA[route].name),
      meta: object({ timestamp: { ...ref('Timestamp'), description: 'When the response was made.' } }, ['timestamp']),
    },
    ['success', 'data', 'meta'],
  );
}
