/**
 * Every public route's module, by route id: its endpoint and its part of the API reference. For the tools that
 * need all routes at once (api-docs/ builds the OpenAPI document from it); a function's bundle never imports it,
 * but resolves only its own module (lib/bundling.ts). The type makes a route without a complete module fail to
 * compile.
 */
import type { RouteDocs } from '../../../api-docs/route-docs';
import type { RouteId } from '../http/routes';
import * as convert from './convert';
import * as currencies from './currencies';
import type { EndpointModule } from './endpoint';
import * as enriched from './enriched';
import * as history from './history';
import * as latest from './latest';
import * as pair from './pair';
import * as quota from './quota';
import * as sources from './sources';
import * as timeseries from './timeseries';

/** What api-docs/ reads of a route's module; the local server and the bundles load its endpoint by path. */
export interface RouteModule {
  endpoint: Pick<EndpointModule<unknown>, 'route'>;
  docs(): RouteDocs;
}

export const ROUTE_MODULES: Readonly<Record<RouteId, RouteModule>> = {
  latest,
  pair,
  history,
  currencies,
  enriched,
  quota,
  convert,
  sources,
  timeseries,
};
