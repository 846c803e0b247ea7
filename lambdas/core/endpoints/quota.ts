import { type Clock, formatTimestamp, systemClock } from '../domain/dates';
import { PLANS } from '../domain/plans';
import { quotaReport } from '../domain/quota';
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
