import {
  code,
  currencyDoc,
  EXPAND_DOC,
  LATEST_PUBLISHED_AT,
  LOCALE_DOC,
  object,
  type RouteDocs,
  ref,
} from '../../../api-docs/route-docs';
import { currencyInfo, type Locale } from '../domain/currencies';
import { pathAndQuery } from '../http/api-handler';
import { currency, documented, EXPAND, type Expand, LOCALE, type RawParameters, readAll } from '../http/parameters';
import { successResponse } from '../http/responses';
import { currentPair, sourcesOf } from './current-rates';
import { lambdaEndpointDeps } from './deps';
import { defineEndpoint } from './endpoint';

const PARAMETERS = { from: currency('from', 'path'), to: currency('to', 'path'), locale: LOCALE, expand: EXPAND };

/** `from`/`to`, `locale` and the optional `expand` of GET /rates/enriched, checked together. */
export function readEnrichedInput(request: RawParameters): {
  from: string;
  to: string;
  locale: Locale;
  expand: Expand | undefined;
} {
  return readAll(PARAMETERS, request);
}

function detail(code: string, locale: Locale): { name: string; symbol: string } {
  const info = currencyInfo(code);
  return { name: info?.name[locale] ?? code, symbol: info?.symbol ?? code };
}

/** GET /v1/rates/enriched/{from}/{to} */
export const endpoint = defineEndpoint({
  route: 'enriched',
  lambdaDeps: lambdaEndpointDeps,
  create: (deps) => async (event) => {
    const { from, to, locale, expand } = readEnrichedInput(pathAndQuery(event, ['locale', 'expand']));
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

/** The route's part of the API reference (api-docs/); never called in a function, so never bundled. */
export function docs(): RouteDocs {
  return {
    tag: 'Rates',
    notes: 'Names follow `locale`; symbols are the CLDR narrow symbols of the `en` locale in every locale.',
    parameters: documented(PARAMETERS, {
      from: currencyDoc("The currency of the pair's base.", 'EUR'),
      to: currencyDoc("The currency of the pair's target.", 'GBP'),
      locale: LOCALE_DOC,
      expand: EXPAND_DOC,
    }),
    errors: ['service-unavailable'],
    data: {
      name: 'EnrichedPair',
      schema: object(
        {
          base: code('The `from` currency.', 'EUR'),
          target: code('The `to` currency.', 'GBP'),
          rate: ref('Rate'),
          base_detail: ref('CurrencyDetail'),
          target_detail: ref('CurrencyDetail'),
          published_at: LATEST_PUBLISHED_AT,
          sources: ref('QuoteSources'),
        },
        ['base', 'target', 'rate', 'base_detail', 'target_detail', 'published_at'],
      ),
    },
    example: {
      base: 'EUR',
      target: 'GBP',
      rate: 0.86955,
      base_detail: { name: 'Euro', symbol: '€' },
      target_detail: { name: 'British Pound', symbol: '£' },
      published_at: '2026-09-29T14:00:00Z',
    },
  };
}
