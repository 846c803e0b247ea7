/**
 * The route registry: the one list of endpoints. Everything else about a route is derived from its entry: the
 * CDK API's resources and methods, the route's function, bundle and table grants (lib/bundling.ts, lib/api.ts),
 * the local gateway's wiring (local-server/service.ts) and the OpenAPI document. Plain data; its one import is the
 * import-free path matcher, so every bundle can read it without pulling in any endpoint.
 *
 * Adding an endpoint: one entry here, and its module `lambdas/core/endpoints/<id>.ts`, which exports `endpoint` and
 * `docs()` (its parameters with their docs, refusals, response schema and example) and is listed in
 * `lambdas/core/endpoints/route-modules.ts`; its tests.
 */
import { type PathMatch, pathMatcher } from './path-matcher';

export type RouteId =
  | 'latest'
  | 'pair'
  | 'history'
  | 'currencies'
  | 'enriched'
  | 'quota'
  | 'convert'
  | 'sources'
  | 'timeseries';

/** DynamoDB actions a route's function may use on the rates table. */
export type RatesTableAction = 'GetItem';

export interface RouteDefinition {
  id: RouteId;
  method: 'GET';
  /** Resource path below the stage (`/v1`), in API Gateway syntax. */
  path: string;
  /** One line for the API reference. */
  summary: string;
  /** Cache-Control of a successful response; undefined sends none. */
  cacheControl?: string;
  /** Whether an admitted request counts toward the monthly quota (all count toward the minute). */
  countsTowardMonth: boolean;
  /** Whether successful responses carry an ETag and honour If-None-Match. */
  etag: boolean;
  /** What the route's function is granted on the rates table; with none, it is not told the table's name. */
  ratesTable: readonly RatesTableAction[];
  /** Whether the route's function is told which upstream sources ingestion is configured with (SOURCES). */
  sourcesConfig?: true;
}

export const API_BASE_PATH = '/v1';

/** Cache-Control of an answer from days that are final (SETTLED_AFTER_DAYS in domain/rates.ts): history's. */
const FINAL_DAYS_CACHE_CONTROL = 'private, max-age=604800, immutable';
/**
 * Cache-Control of an answer from days that a late source can still change: a history fallback or a time series
 * that reaches into the last SETTLED_AFTER_DAYS days.
 */
export const UNSETTLED_CACHE_CONTROL = 'private, max-age=3600';

/** Cache-Control of a time series: final once its range ended more than SETTLED_AFTER_DAYS days ago. */
export const TIMESERIES_CACHE_CONTROL = { final: FINAL_DAYS_CACHE_CONTROL, recent: UNSETTLED_CACHE_CONTROL } as const;

export const ROUTES: readonly RouteDefinition[] = [
  {
    id: 'latest',
    method: 'GET',
    path: '/rates/latest',
    summary: 'Latest rates of every served currency against a base',
    cacheControl: 'private, max-age=86400',
    countsTowardMonth: true,
    etag: true,
    ratesTable: ['GetItem'],
  },
  {
    id: 'pair',
    method: 'GET',
    path: '/rates/pair/{from}/{to}',
    summary: "Today's rate of one currency pair, optionally converting an amount",
    countsTowardMonth: true,
    etag: true,
    ratesTable: ['GetItem'],
  },
  {
    id: 'history',
    method: 'GET',
    path: '/rates/history/{from}/{to}/{date}',
    summary: 'The rate of one currency pair on a past day',
    // A fallback for a day that is not final yet gets UNSETTLED_CACHE_CONTROL from the endpoint.
    cacheControl: FINAL_DAYS_CACHE_CONTROL,
    countsTowardMonth: true,
    etag: true,
    ratesTable: ['GetItem'],
  },
  {
    id: 'currencies',
    method: 'GET',
    path: '/currencies',
    summary: 'The served currencies, named in English or German',
    cacheControl: 'private, max-age=2592000',
    countsTowardMonth: true,
    etag: false,
    ratesTable: ['GetItem'],
  },
  {
    id: 'enriched',
    method: 'GET',
    path: '/rates/enriched/{from}/{to}',
    summary: "Today's rate of one currency pair with both currencies' names and symbols",
    countsTowardMonth: true,
    etag: true,
    ratesTable: ['GetItem'],
  },
  {
    id: 'quota',
    method: 'GET',
    path: '/quota',
    summary: "This month's quota of the key's account: limits, use and when it resets",
    cacheControl: 'no-store',
    countsTowardMonth: false,
    etag: false,
    // Rendered from the figures the authorizer put in the request context: no table read.
    ratesTable: [],
  },
  {
    id: 'convert',
    method: 'GET',
    path: '/rates/convert/{from}',
    summary: "Today's rates from one currency to up to 50 others, optionally converting an amount",
    countsTowardMonth: true,
    etag: true,
    ratesTable: ['GetItem'],
  },
  {
    id: 'sources',
    method: 'GET',
    path: '/sources',
    summary: 'The upstream sources: their schedules, last fetch and publication, currencies, and which feed latest',
    // Changes only when an ingestion run ends; the function re-reads the status at most once a minute.
    cacheControl: 'private, max-age=60',
    countsTowardMonth: true,
    etag: true,
    ratesTable: ['GetItem'],
    sourcesConfig: true,
  },
  {
    id: 'timeseries',
    method: 'GET',
    path: '/rates/timeseries/{from}/{to}',
    summary: 'The daily rates of one currency pair over up to 366 days, with the change over the period',
    // A range that ended within the last week gets TIMESERIES_CACHE_CONTROL.recent instead. The constant itself,
    // not `TIMESERIES_CACHE_CONTROL.final`: esbuild cannot drop an unused array that reads a property, so ROUTES
    // would be built at every cold start of the functions that never read it (the dashboard's).
    cacheControl: FINAL_DAYS_CACHE_CONTROL,
    countsTowardMonth: true,
    etag: true,
    // One GetItem per currency and calendar year (SERIES#<code>#<year>), plus LATEST.
    ratesTable: ['GetItem'],
  },
];

/** Error responses, from the gateway or a function, are never cached. */
export const ERROR_CACHE_CONTROL = 'no-store';

export type RouteMatch = PathMatch<RouteDefinition>;

/**
 * Matches a resource path (below `/v1`) as API Gateway does: one segment per `{param}`, URL-decoded. Pure-annotated:
 * only the authorizer and the local gateway match paths; the endpoints leave this out.
 */
export const matchRoute: (resourcePath: string) => RouteMatch | undefined = /* @__PURE__ */ pathMatcher(ROUTES);

export function routeById(id: RouteId): RouteDefinition {
  const route = ROUTES.find((r) => r.id === id);
  if (!route) throw new Error(`unknown route ${id}`);
  return route;
}
