import { CODE_PATTERN, LOCALE_DOC, object, type RouteDocs } from '../../../api-docs/route-docs';
import { currencyInfo, type Locale } from '../domain/currencies';
import { singleQuery } from '../http/api-handler';
import { documented, LOCALE, readAll } from '../http/parameters';
import { successBody, successResponse } from '../http/responses';
import { current } from './current-rates';
import { lambdaEndpointDeps } from './deps';
import { defineEndpoint } from './endpoint';

const PARAMETERS = { locale: LOCALE };

/** `locale` of GET /currencies, en when not given. */
export function readLocaleQuery(query: unknown): { locale: Locale } {
  return readAll(PARAMETERS, { query });
}

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
      return successBody({ currencies });
    });
    return successResponse(undefined, { body });
  },
});

/** The route's part of the API reference (api-docs/); never called in a function, so never bundled. */
export function docs(): RouteDocs {
  return {
    tag: 'Currencies',
    notes: 'Names come from CLDR, e.g. `USD` is `US Dollar` in `en` and `US-Dollar` in `de`.',
    parameters: documented(PARAMETERS, { locale: LOCALE_DOC }),
    errors: ['service-unavailable'],
    data: {
      name: 'CurrencyList',
      schema: object(
        {
          currencies: {
            type: 'object',
            description: 'Every supported currency code to its name in the requested locale, sorted by code.',
            propertyNames: { pattern: CODE_PATTERN },
            additionalProperties: { type: 'string' },
            minProperties: 1,
            examples: [{ CHF: 'Swiss Franc', EUR: 'Euro', USD: 'US Dollar' }],
          },
        },
        ['currencies'],
      ),
    },
    example: { currencies: { CHF: 'Swiss Franc', EUR: 'Euro', GBP: 'British Pound', JPY: 'Japanese Yen' } },
  };
}
