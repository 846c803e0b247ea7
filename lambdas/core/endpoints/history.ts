import { isActiveCode } from '../domain/currencies';
import { formatDay, oneYearBefore } from '../domain/dates';
import { NoDataAvailableError, PlanUpgradeRequiredError } from '../domain/errors';
import { PLANS } from '../domain/plans';
import { crossRate } from '../domain/rates';
import { pathParams } from '../http/api-handler';
import { accessOf } from '../http/middleware';
import { readHistoryPath } from '../http/parameters';
import { successResponse } from '../http/responses';
import { current, requireServed, storeRead } from './current-rates';
import { lambdaEndpointDeps } from './deps';
import { defineEndpoint } from './endpoint';

/** GET /v1/rates/history/{from}/{to}/{date} */
export const endpoint = defineEndpoint({
  route: 'history',
  lambdaDeps: lambdaEndpointDeps,
  create: (deps) => async (event) => {
    const today = formatDay(deps.clock());
    const { from, to, date } = readHistoryPath(pathParams(event), today);
    // Active codes are supported where the sources deliver them today; withdrawn ones on their historical days.
    const { rates } = await current(deps);
    if (isActiveCode(from)) requireServed(rates, from, 'from');
    if (isActiveCode(to)) requireServed(rates, to, 'to');
    const plan = accessOf(event).plan;
    const months = plan ? PLANS[plan].historyMonths : 0;
    if (months === 0) {
      throw new PlanUpgradeRequiredError('Historical rates are not included in your plan; upgrade to Pro or Business.');
    }
    if (months !== null) {
      const earliest = oneYearBefore(today);
      if (date < earliest) {
        throw new PlanUpgradeRequiredError(
          `Your plan includes history back to ${earliest}; upgrade to Business for the full history since 1999.`,
          'date',
        );
      }
    }
    const day = await storeRead(() => deps.reader.getDay(date));
    const rate = day ? crossRate(day.rates, from, to) : undefined;
    if (rate === undefined) throw new NoDataAvailableError(from, to, date);
    return successResponse({ base: from, target: to, date, rate });
  },
});
