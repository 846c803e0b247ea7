import type { Endpoint } from '../http/api-handler';
import type { RouteId } from '../http/routes';

/**
 * What an endpoint module (`lambdas/core/endpoints/<route id>.ts`) exports as `endpoint`. The Lambda entry
 * (lambdas/endpoint/handler.ts) builds it with `lambdaDeps()`; the local server builds it with its own store
 * and clock, which provide every dependency any endpoint declares.
 */
export interface EndpointModule<Deps> {
  route: RouteId;
  create(deps: Deps): Endpoint;
  /** The dependencies of the deployed function, built once per process. */
  lambdaDeps(): Deps;
}

export function defineEndpoint<Deps>(module: EndpointModule<Deps>): EndpointModule<Deps> {
  return module;
}
