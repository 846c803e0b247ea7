import { convert, crossRate } from '../domain/rates';
import { pathParams, singleQuery } from '../http/api-handler';
import { RawNumber } from '../http/json';
import { readConvertInput } from '../http/parameters';
import { successResponse } from '../http/responses';
import { current, requireServed } from './current-rates';
import { lambdaEndpointDeps } from './deps';
import { defineEndpoint } from './endpoint';

/** GET /v1/rates/convert/{from}: several targets from one snapshot, so every result is of the same moment. */
export const endpoint = defineEndpoint({
  route: 'convert',
  lambdaDeps: lambdaEndpointDeps,
  create: (deps) => async (event) => {
    const { from, to, amount } = readConvertInput({
      path: pathParams(event),
      query: singleQuery(event, ['to', 'amount']),
    });
    const { snapshot, rates } = await current(deps);
    requireServed(rates, from, 'from');
    // Every target is checked before any is converted: one unsupported code refuses the whole call, named.
    for (const code of to) requireServed(rates, code, 'to');
    const conversions = to.map((target) => {
      const rate = crossRate(rates, from, target) as number;
      return amount === undefined
        ? { target, rate }
        : { target, rate, converted: new RawNumber(convert(amount, rate)) };
    });
    return successResponse({
      base: from,
      ...(amount === undefined ? {} : { amount: new RawNumber(amount) }),
      published_at: snapshot.publishedAt,
      conversions,
    });
  },
});
