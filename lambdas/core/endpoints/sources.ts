import { object, type RouteDocs, ref } from '../../../api-docs/route-docs';
import { parseSourceList, SOURCE_IDS, SOURCES_ENV } from '../domain/rates';
import { SOURCE_SCHEDULES } from '../domain/source-schedule';
import { optionalEnv } from '../env';
import { successResponse } from '../http/responses';
import { current, storeRead } from './current-rates';
import { lambdaEndpointDeps } from './deps';
import { defineEndpoint } from './endpoint';

/**
 * GET /v1/sources: each configured source with its schedule, its last delivery as ingestion recorded it, and
 * whether it feeds the latest rates now. Two reads at most, both served from memory for 60 s (the status item
 * and LATEST). Before any rates are ingested it is 503, like every route that reads rates.
 */
export const endpoint = defineEndpoint({
  route: 'sources',
  lambdaDeps: lambdaEndpointDeps,
  create: (deps) => {
    // The ingest function's configuration, given to this function too (lib/api.ts); every source where unset
    // (the local server, which ingests from both). In precedence order, whatever the order configured.
    const configured = new Set(parseSourceList(optionalEnv(SOURCES_ENV, SOURCE_IDS.join(','))));
    const listed = SOURCE_IDS.filter((id) => configured.has(id));
    return async () => {
      const [statuses, { snapshot }] = await Promise.all([
        storeRead(() => deps.reader.getSourceStatuses()),
        current(deps),
      ]);
      const feeding = new Set(Object.values(snapshot.sources));
      const sources = listed.map((id) => {
        const status = statuses[id];
        return {
          id,
          name: SOURCE_SCHEDULES[id].name,
          schedule: SOURCE_SCHEDULES[id].schedule,
          origin: status?.origin ?? null,
          last_fetch_at: status?.fetchedAt ?? null,
          last_published_date: status?.publishedDate ?? null,
          last_published_at: status?.publishedAt ?? null,
          currencies: status?.currencies ?? [],
          feeds_latest: feeding.has(id),
        };
      });
      return successResponse({ sources });
    };
  },
});

/** The route's part of the API reference (api-docs/); never called in a function, so never bundled. */
export function docs(): RouteDocs {
  return {
    tag: 'Rates',
    notes:
      'Each upstream source the deployment ingests from (its `sources` setting), in order of precedence: its schedule, its last successful fetch, the ' +
      'newest day it published with when, the currencies it provides that day, and whether the latest rates ' +
      'currently hold a quote from it. Ingestion records a source after every run it delivered in; a source that ' +
      'fails keeps the facts of its last success. The facts are read at most once a minute, so they can trail a ' +
      'run by up to 60 s. Any plan.',
    parameters: {},
    // The status item and LATEST, read from the store (cached for 60 s).
    errors: ['service-unavailable'],
    data: {
      name: 'SourceList',
      schema: object(
        {
          sources: {
            type: 'array',
            description: 'Every configured upstream source, in order of precedence (the ECB first).',
            items: object(
              {
                id: ref('SourceId'),
                name: { type: 'string', description: 'What the source is.', examples: ['European Central Bank'] },
                schedule: {
                  type: 'string',
                  description: 'When the source publishes, in words.',
                  examples: ['daily, at 00:00 UTC'],
                },
                origin: {
                  enum: ['upstream', 'bundled', null],
                  description:
                    'Where the last delivery came from: `upstream`, a fetch from the source; `bundled`, the data ' +
                    'files shipped with the service (the local server, offline); null before any delivery.',
                },
                last_fetch_at: {
                  oneOf: [ref('Timestamp'), { type: 'null' }],
                  description:
                    'When the service last fetched the source successfully; null before any fetch, and when the ' +
                    'data came from the bundled files. A failed fetch leaves every field of the last success as it was.',
                },
                last_published_date: {
                  oneOf: [{ type: 'string', format: 'date' }, { type: 'null' }],
                  description: 'The newest day the source delivered, `YYYY-MM-DD`; null before any delivery.',
                },
                last_published_at: {
                  oneOf: [ref('Timestamp'), { type: 'null' }],
                  description: 'When the source published that day; null before any delivery.',
                },
                currencies: {
                  type: 'array',
                  items: ref('CurrencyCode'),
                  description:
                    'The codes the source delivered for that day, sorted; EUR, the pivot, is left out. Empty before ' +
                    'any delivery.',
                },
                feeds_latest: {
                  type: 'boolean',
                  description: 'Whether the latest rates (`/rates/latest`) currently hold a quote from this source.',
                },
              },
              [
                'id',
                'name',
                'schedule',
                'origin',
                'last_fetch_at',
                'last_published_date',
                'last_published_at',
                'currencies',
                'feeds_latest',
              ],
            ),
          },
        },
        ['sources'],
      ),
    },
    example: {
      sources: SOURCE_IDS.map((id) => ({
        id,
        name: SOURCE_SCHEDULES[id].name,
        schedule: SOURCE_SCHEDULES[id].schedule,
        origin: 'upstream',
        last_fetch_at: '2026-09-30T06:00:04Z',
        last_published_date: id === 'ecb' ? '2026-09-29' : '2026-09-30',
        last_published_at: id === 'ecb' ? '2026-09-29T14:00:00Z' : '2026-09-30T00:00:00Z',
        currencies: id === 'ecb' ? ['AUD', 'CHF', 'GBP', 'JPY', 'USD'] : ['AED', 'AUD', 'CHF', 'GBP', 'USD'],
        feeds_latest: true,
      })),
    },
  };
}
