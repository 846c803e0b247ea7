import { formatTimestamp } from '../domain/dates';
import { rateTable } from '../domain/rates';
import { nextUpdateAt } from '../domain/source-schedule';
import { singleQuery } from '../http/api-handler';
import { stringifyJson } from '../http/json';
import { readLatestQuery } from '../http/parameters';
import { successResponse } from '../http/responses';
import { current, feedingSources, requireServed, sourcesOf } from './current-rates';
import { lambdaEndpointDeps } from './deps';
import { defineEndpoint } from './endpoint';

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
      return stringifyJson({
        success: true,
        data: {
          base,
          updated_at: snapshot.publishedAt,
          published_at: snapshot.publishedAt,
          next_update_at: nextUpdate,
          rates: table,
          ...(expand === 'sources' ? { sources: sourcesOf(snapshot, Object.keys(table)) } : {}),
        },
      });
    });
    return successResponse(undefined, { body });
  },
});
