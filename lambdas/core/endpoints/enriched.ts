import { currencyInfo, type Locale } from '../domain/currencies';
import { pathParams, singleQuery } from '../http/api-handler';
import { readEnrichedInput } from '../http/parameters';
import { successResponse } from '../http/responses';
import { currentPair, sourcesOf } from './current-rates';
import { lambdaEndpointDeps } from './deps';
import { defineEndpoint } from './endpoint';

function detail(code: string, locale: Locale): { name: string; symbol: string } {
  const info = currencyInfo(code);
  return { name: info?.name[locale] ?? code, symbol: info?.symbol ?? code };
}

/** GET /v1/rates/enriched/{from}/{to} */
export const endpoint = defineEndpoint({
  route: 'enriched',
  lambdaDeps: lambdaEndpointDeps,
  create: (deps) => async (event) => {
    const { from, to, locale, expand } = readEnrichedInput({
      path: pathParams(event),
      query: singleQuery(event, ['locale', 'expand']),
    });
    const { rate, snapshot } = await currentPair(deps, from, to);
    return successResponse({
      base: from,
      target: to,
      rate,
      base_detail: detail(from, locale),
      target_detail: detail(to, locale),
      published_at: snapshot.publishedAt,
      ...(expand === 'sources' ? { sources: sourcesOf(snapshot, [from, to]) } : {}),
    });
  },
});
