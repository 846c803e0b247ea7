import {
  CODE_PATTERN,
  code,
  currencyDoc,
  EXPAND_DOC,
  object,
  publishedAt,
  type RouteDocs,
  ref,
} from '../../../api-docs/route-docs';
import { formatTimestamp } from '../domain/dates';
import { rateTable } from '../domain/rates';
import { nextUpdateAt } from '../domain/source-schedule';
import { singleQuery } from '../http/api-handler';
import { currency, documented, EXPAND, type Expand, readAll } from '../http/parameters';
import { successBody, successResponse } from '../http/responses';
import { current, feedingSources, requireServed, sourcesOf } from './current-rates';
import { lambdaEndpointDeps } from './deps';
import { defineEndpoint } from './endpoint';

const DEFAULT_BASE = 'EUR';
const PARAMETERS = { base: { ...currency('base', 'query'), absent: () => DEFAULT_BASE }, expand: EXPAND };

/** `base` of GET /rates/latest, EUR when not given, and the optional `expand`. */
export function readLatestQuery(query: unknown): { base: string; expand: Expand | undefined } {
  return readAll(PARAMETERS, { query });
}

/** GET /v1/rates/latest */
export const endpoint = defineEndpoint({
  route: 'latest',
  lambdaDeps: lambdaEndpointDeps,
  create: (deps) => async (event) => {
    const { base, expand } = readLatestQuery(singleQuery(event, ['base', 'expand']));
    const { snapshot, rates } = await current(deps);
    requireServed(rates, base, 'base');
    const feeding = deps.reader.memo(snapshot, 'feeding', () => feedingSources(snapshot));
    // Computed per request: it moves on when a scheduled publication passes, while the snapshot stays the same.
    const nextUpdate = formatTimestamp(nextUpdateAt(feeding, deps.clock().getTime()) as number);
    // The whole body is rendered once per base, expansion, next update and snapshot; a warm function then only
    // copies a string. Keyed by the next update, a memoized body never carries one that has passed.
    const body = deps.reader.memo(snapshot, `latest:${base}:${expand ?? ''}:${nextUpdate}`, () => {
      const table = rateTable(rates, base);
      return successBody({
        base,
        updated_at: snapshot.publishedAt,
        published_at: snapshot.publishedAt,
        next_update_at: nextUpdate,
        rates: table,
        ...(expand === 'sources' ? { sources: sourcesOf(snapshot, Object.keys(table)) } : {}),
      });
    });
    return successResponse(undefined, { body });
  },
});

/** The route's part of the API reference (api-docs/); never called in a function, so never bundled. */
export function docs(): RouteDocs {
  return {
    tag: 'Rates',
    notes:
      '`rates` holds every supported currency, the base included (at 1). Each rate is `eur[target] / eur[base]` ' +
      'of the latest snapshot, rounded to 8 significant digits.',
    parameters: documented(PARAMETERS, {
      base: currencyDoc('The currency every rate is quoted against.', 'USD', DEFAULT_BASE),
      expand: EXPAND_DOC,
    }),
    errors: ['service-unavailable'],
    data: {
      name: 'RateTable',
      schema: object(
        {
          base: code('The base currency.', 'USD'),
          updated_at: {
            ...ref('Timestamp'),
            description:
              'When the newest contributing source published the data: an ECB day at 16:00 Europe/Berlin, a ' +
              'currency-api day at 00:00 UTC.',
          },
          rates: {
            type: 'object',
            description: 'Every supported currency (the base included, at 1) to its rate against the base.',
            propertyNames: { pattern: CODE_PATTERN },
            additionalProperties: ref('Rate'),
            minProperties: 1,
            examples: [{ EUR: 0.86187291, GBP: 0.74561, JPY: 147.52, USD: 1 }],
          },
          published_at: publishedAt('the latest snapshot; always equal to `updated_at`'),
          next_update_at: {
            ...ref('Timestamp'),
            description:
              'When the service expects the next update: the earliest next scheduled publication, after now, of ' +
              'the sources feeding these rates (ECB: the next TARGET business day at 16:00 Europe/Berlin; ' +
              'currency-api: the next 00:00 UTC). Ingestion runs on a schedule after it, so the new rates can ' +
              'appear somewhat later.',
          },
          sources: {
            ...ref('QuoteSources'),
            description:
              'Only with `expand=sources`: every code of `rates` except EUR to the source of its quote against the euro. EUR has no entry: it is the pivot both sources quote against.',
          },
        },
        ['base', 'updated_at', 'published_at', 'next_update_at', 'rates'],
      ),
    },
    example: {
      base: 'USD',
      updated_at: '2026-09-29T14:00:00Z',
      published_at: '2026-09-29T14:00:00Z',
      next_update_at: '2026-09-30T14:00:00Z',
      rates: { CHF: 0.79861, EUR: 0.85411, GBP: 0.74268, JPY: 147.61, USD: 1 },
    },
  };
}
