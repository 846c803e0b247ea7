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
