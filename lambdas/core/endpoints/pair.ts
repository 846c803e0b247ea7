import type { RouteDocs } from '../../../api-docs/route-docs';
import {
  amountDoc,
  CONVERTED_AMOUNT,
  code,
  currencyDoc,
  EXPAND_DOC,
  LATEST_PUBLISHED_AT,
  object,
  REQUESTED_AMOUNT,
  ref,
} from '../../../api-docs/route-docs';
import { convert } from '../domain/rates';
import { pathAndQuery } from '../http/api-handler';
import type { Expand, RawParameters } from '../http/parameters';
import { AMOUNT, currency, documented, EXPAND, readWithAmount } from '../http/parameters';
import { RawNumber, successResponse } from '../http/responses';
import { currentPair, sourcesOf } from './current-rates';
import { lambdaEndpointDeps } from './deps';
import { defineEndpoint } from './endpoint';

const PARAMETERS = { from: currency('from', 'path'), to: currency('to', 'path'), amount: AMOUNT, expand: EXPAND };

/** `from`/`to`, the optional `amount` and `expand` of GET /rates/pair, checked together. */
export function readPairInput(request: RawParameters): {
  from: string;
  to: string;
  amount?: string;
  expand: Expand | undefined;
} {
  return readWithAmount(PARAMETERS, request);
}

/** GET /v1/rates/pair/{from}/{to} */
export const endpoint = defineEndpoint({
  route: 'pair',
  lambdaDeps: lambdaEndpointDeps,
  create: (deps) => async (event) => {
    // Path and query are read together, so a malformed value (400) outranks an unsupported one (422) wherever it is.
    const { from, to, amount, expand } = readPairInput(pathAndQuery(event, ['amount', 'expand']));
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

/** The route's part of the API reference (api-docs/); never called in a function, so never bundled. */
export function docs(): RouteDocs {
  return {
    tag: 'Rates',
    notes:
      '`amount` and `converted` appear only when `amount` is given. `converted` is `amount × rate` with the ' +
      'rate as shown, computed in decimal arithmetic and rounded half-even to 6 decimal places.',
    parameters: documented(PARAMETERS, {
      from: currencyDoc('The currency converted from.', 'USD'),
      to: currencyDoc('The currency converted to.', 'JPY'),
      amount: amountDoc(
        'An amount of `from` to convert: a plain decimal (digits, optionally `.` and fraction digits; no sign, ' +
          'exponent, separators or spaces), greater than 0 and less than 1000000000000.',
      ),
      expand: EXPAND_DOC,
    }),
    errors: ['service-unavailable'],
    data: {
      name: 'PairRate',
      schema: object(
        {
          base: code('The `from` currency.', 'USD'),
          target: code('The `to` currency.', 'JPY'),
          rate: ref('Rate'),
          amount: REQUESTED_AMOUNT,
          converted: CONVERTED_AMOUNT,
          published_at: LATEST_PUBLISHED_AT,
          sources: ref('QuoteSources'),
        },
        ['base', 'target', 'rate', 'published_at'],
        { dependentRequired: { amount: ['converted'], converted: ['amount'] } },
      ),
    },
    example: {
      base: 'USD',
      target: 'JPY',
      rate: 147.61,
      amount: 250,
      converted: 36902.5,
      published_at: '2026-09-29T14:00:00Z',
    },
  };
}
