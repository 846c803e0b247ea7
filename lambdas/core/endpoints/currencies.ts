import { currencyInfo } from '../domain/currencies';
import { singleQuery } from '../http/api-handler';
import { stringifyJson } from '../http/json';
import { readLocaleQuery } from '../http/parameters';
import { successResponse } from '../http/responses';
import { current } from './current-rates';
import { lambdaEndpointDeps } from './deps';
import { defineEndpoint } from './endpoint';

/** GET /v1/currencies */
export const endpoint = defineEndpoint({
  route: 'currencies',
  lambdaDeps: lambdaEndpointDeps,
  create: (deps) => async (event) => {
    const { locale } = readLocaleQuery(singleQuery(event, ['locale']));
    const { snapshot, rates } = await current(deps);
    const body = deps.reader.memo(snapshot, `currencies:${locale}`, () => {
      const currencies: Record<string, string> = {};
      for (const code of Object.keys(rates).sort()) {
        const info = currencyInfo(code);
        if (info) currencies[code] = info.name[locale];
      }
      return stringifyJson({ success: true, data: { currencies } });
    });
    return successResponse(undefined, { body });
  },
});
