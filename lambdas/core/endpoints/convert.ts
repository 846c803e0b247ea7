import type { RouteDocs } from '../../../api-docs/route-docs';
import {
  amountDoc,
  CONVERTED_AMOUNT,
  code,
  currencyDoc,
  LATEST_PUBLISHED_AT,
  object,
  REQUESTED_AMOUNT,
  ref,
} from '../../../api-docs/route-docs';
import { convert, crossRate } from '../domain/rates';
import { pathAndQuery } from '../http/api-handler';
import {
  AMOUNT,
  currency,
  documented,
  MAX_CONVERT_TARGETS,
  MAX_TARGET_LIST_LENGTH,
  type Parameter,
  type RawParameters,
  readTargetList,
  readWithAmount,
} from '../http/parameters';
import { RawNumber, successResponse } from '../http/responses';
import { current, requireServed } from './current-rates';
import { lambdaEndpointDeps } from './deps';
import { defineEndpoint } from './endpoint';

const TARGETS: Parameter<string[]> = { in: 'query', read: readTargetList, maxLength: MAX_TARGET_LIST_LENGTH };
const PARAMETERS = { from: currency('from', 'path'), to: TARGETS, amount: AMOUNT };

/** `from`, the `to` list and the optional `amount` of GET /rates/convert, checked together. */
export function readConvertInput(request: RawParameters): { from: string; to: string[]; amount?: string } {
  return readWithAmount(PARAMETERS, request);
}

/** GET /v1/rates/convert/{from}: several targets from one snapshot, so every result is of the same moment. */
export const endpoint = defineEndpoint({
  route: 'convert',
  lambdaDeps: lambdaEndpointDeps,
  create: (deps) => async (event) => {
    const { from, to, amount } = readConvertInput(pathAndQuery(event, ['to', 'amount']));
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

/** The route's part of the API reference (api-docs/); never called in a function, so never bundled. */
export function docs(): RouteDocs {
  return {
    tag: 'Rates',
    notes:
      'One call, one counted request, for up to 50 targets, all from the same latest snapshot. Each `rate` is ' +
      "what the pair endpoint answers for `from`/target, and each `converted` is the pair endpoint's " +
      '`converted`: `amount × rate` with the rate as shown, in decimal arithmetic, rounded half-even to 6 decimal ' +
      'places. `amount` and `converted` appear only when `amount` is given. A target equal to `from` has rate 1. ' +
      'With several faults, a malformed item (400) comes before an unsupported one (422), and within each kind ' +
      'the first item in `to` is named.',
    parameters: documented(PARAMETERS, {
      from: currencyDoc('The currency converted from.', 'USD'),
      to: {
        description:
          `The currencies converted to: 1 to ${MAX_CONVERT_TARGETS} distinct ISO 4217 codes, case-insensitive, ` +
          'separated by commas without spaces; the results come in this order. An empty item, a code listed twice ' +
          `or more than ${MAX_CONVERT_TARGETS} items is \`invalid-parameter\`, an unsupported code ` +
          '`unsupported-currency`; the message names the item.',
        schema: {
          type: 'string',
          pattern: `^[A-Za-z]{3}(,[A-Za-z]{3}){0,${MAX_CONVERT_TARGETS - 1}}$`,
          maxLength: MAX_TARGET_LIST_LENGTH,
        },
        example: 'EUR,JPY,GBP',
        errors: ['unsupported-currency'],
      },
      amount: amountDoc(
        'An amount of `from` to convert into each target, with the same rules as the pair endpoint: a plain ' +
          'decimal greater than 0 and less than 1000000000000. Without it, only the rates are returned.',
      ),
    }),
    errors: ['service-unavailable'],
    data: {
      name: 'Conversions',
      schema: object(
        {
          base: code('The `from` currency.', 'USD'),
          amount: REQUESTED_AMOUNT,
          published_at: LATEST_PUBLISHED_AT,
          conversions: {
            type: 'array',
            minItems: 1,
            maxItems: MAX_CONVERT_TARGETS,
            description: 'One entry per `to` currency, in the order of `to`.',
            items: object(
              {
                target: code('A currency of `to`.', 'JPY'),
                rate: ref('Rate'),
                converted: CONVERTED_AMOUNT,
              },
              ['target', 'rate'],
            ),
          },
        },
        ['base', 'published_at', 'conversions'],
      ),
    },
    example: {
      base: 'USD',
      amount: 250,
      published_at: '2026-09-29T14:00:00Z',
      conversions: [
        { target: 'EUR', rate: 0.85411, converted: 213.5275 },
        { target: 'JPY', rate: 147.61, converted: 36902.5 },
        { target: 'GBP', rate: 0.74268, converted: 185.67 },
      ],
    },
  };
}
