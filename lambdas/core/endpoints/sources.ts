import { SOURCE_IDS } from '../domain/rates';
import { SOURCE_SCHEDULES } from '../domain/source-schedule';
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
  create: (deps) => async () => {
    const [statuses, { snapshot }] = await Promise.all([
      storeRead(() => deps.reader.getSourceStatuses()),
      current(deps),
    ]);
    const feeding = new Set(Object.values(snapshot.sources));
    const sources = SOURCE_IDS.map((id) => {
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
  },
});
