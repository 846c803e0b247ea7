import { object, type RouteDocs, ref, SAMPLE_AT, SAMPLE_MONTH_USED } from '../../../api-docs/route-docs';
import { type Clock, formatTimestamp, systemClock } from '../domain/dates';
import { PLANS } from '../domain/plans';
import { type QuotaReport, quotaReport } from '../domain/quota';
import { accessOf } from '../http/middleware';
import { successResponse } from '../http/responses';
import { defineEndpoint } from './endpoint';

/**
 * GET /v1/quota: rendered from the authorizer's context alone. The authorizer has just written this request's
 * admission and read the month's count back from that write, so the figures are current without a database read.
 */
export const endpoint = defineEndpoint<{ clock: Clock }>({
  route: 'quota',
  lambdaDeps: () => ({ clock: systemClock }),
  create: (deps) => async (event) => {
    const access = accessOf(event);
    if (!access.plan || !access.limits || !access.meter) {
      throw new Error('quota request reached the function without metering figures');
    }
    const now = deps.clock();
    const limits = { ...PLANS[access.plan], ...access.limits };
    return successResponse(quotaReport(limits, access.meter.monthUsed, now), {
      meta: { timestamp: formatTimestamp(now) },
    });
  },
});

/** The route's part of the API reference (api-docs/); never called in a function, so never bundled. */
export function docs(): RouteDocs {
  return {
    tag: 'Account',
    notes:
      'The key identifies the account. The figures include this request. `meta.timestamp` is when the response ' +
      'was made.',
    parameters: {},
    // Rendered from the authorizer's figures alone: no store read that could fail.
    errors: [],
    data: {
      name: 'QuotaReport',
      schema: object<QuotaReport>(
        {
          plan: {
            type: 'string',
            enum: Object.values(PLANS).map((plan) => plan.name),
            description: "The account's plan.",
          },
          quota: object<QuotaReport['quota']>(
            {
              base_limit: { type: 'integer', minimum: 0, description: 'Monthly request limit of the plan.' },
              effective_limit: {
                type: 'integer',
                minimum: 0,
                description: '`base_limit + floor(base_limit × overflow_percent / 100)`: the limit in force.',
              },
              used: { type: 'integer', minimum: 0, description: 'Requests counted this month (UTC).' },
              remaining: { type: 'integer', minimum: 0, description: '`max(0, effective_limit − used)`.' },
              overflow_allowed: { type: 'boolean', description: 'Whether use above `base_limit` is permitted.' },
              overflow_percent: {
                type: 'integer',
                minimum: 0,
                maximum: 100,
                description: 'Allowed overflow above `base_limit`, in percent; 0 when overflow is not allowed.',
              },
            },
            ['base_limit', 'effective_limit', 'used', 'remaining', 'overflow_allowed', 'overflow_percent'],
          ),
          resets_at: {
            ...ref('Timestamp'),
            description: 'When the month resets: the first day of the next month, 00:00:00Z.',
          },
        },
        ['plan', 'quota', 'resets_at'],
      ),
    },
    example: quotaReport(PLANS.pro, SAMPLE_MONTH_USED, SAMPLE_AT),
    meta: {
      schema: object({ timestamp: { ...ref('Timestamp'), description: 'When the response was made.' } }, ['timestamp']),
      example: { timestamp: formatTimestamp(SAMPLE_AT) },
    },
  };
}
