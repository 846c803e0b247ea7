import { convert } from '../domain/rates';
import { pathParams, singleQuery } from '../http/api-handler';
import { RawNumber } from '../http/json';
import { readPairInput } from '../http/parameters';
import { successResponse } from '../http/responses';
import { currentPair, sourcesOf } from './current-rates';
import { lambdaEndpointDeps } from './deps';
import { defineEndpoint } from './endpoint';

/** GET /v1/rates/pair/{from}/{to} */
export const endpoint = defineEndpoint({
  route: 'pair',
  lambdaDeps: lambdaEndpointDeps,
  create: (deps) => async (event) => {
    // Path and query are read together, so a malformed value (400) outranks an unsupported one (422) wherever it is.
    const { from, to, amount, expand } = readPairInput({
      path: pathParams(event),
      query: singleQuery(event, ['amount', 'expand']),
    });
    const { rate, snapshot } = await currentPair(deps, from, to);
    const data =
      amount === undefined
        ? { base: from, target: to, rate }
        : {
            base: from,
            target: to,
            rate,
            amount: new RawNumber(amount),
            converted: new RawNumber(convert(amount, rate)),
          };
    return successResponse({
      ...data,
      published_at: snapshot.publishedAt,
      ...(expand === 'sources' ? { sources: sourcesOf(snapshot, [from, to]) } : {}),
    });
  },
});
