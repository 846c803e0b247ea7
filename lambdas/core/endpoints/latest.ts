import { rateTable } from '../domain/rates';
import { singleQuery } from '../http/api-handler';
import { stringifyJson } from '../http/json';
import { readLatestQuery } from '../http/parameters';
import { successResponse } from '../http/responses';
import { current, requireServed } from './current-rates';
import { lambdaEndpointDeps } from './deps';
import { defineEndpoint } from './endpoint';

/** GET /v1/rates/latest */
export const endpoint = defineEndpoint({
  route: 'latest',
  lambdaDeps: lambdaEndpointDeps,
  create: (deps) => async (event) => {
    const { base } = readLatestQuery(singleQuery(event, ['base']));
    const { snapshot, rates } = await current(deps);
    requireServed(rates, base, 'base');
    // The whole body is rendered once per base and snapshot; a warm function then only copies a string.
    const body = deps.reader.memo(snapshot, `latest:${base}`, () =>
      stringifyJson({ success: true, data: { base, updated_at: snapshot.publishedAt, rates: rateTable(rates, base) } }),
    );
    return successResponse(undefined, { body });
  },
});
