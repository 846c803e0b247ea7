/**
 * The route table: the one list of endpoints. The CDK API construct and the local gateway both read it,
 * so a route, its function and its cache policy cannot differ between AWS and a laptop.
 */
export type RouteId = 'latest' | 'pair' | 'history' | 'currencies' | 'enriched' | 'quota';

export interface RouteDefinition {
  id: RouteId;
  method: 'GET';
  /** Resource path below the stage (`/v1`), in API Gateway syntax. */
  path: string;
  /** Folder under lambdas/ holding `handler.ts`. */
  handlerDir: string;
  /** Cache-Control of a successful response; undefined sends none. */
  cacheControl?: string;
  /** Whether an admitted request counts toward the monthly quota (all count toward the minute). */
  countsTowardMonth: boolean;
  /** Whether successful responses carry an ETag and honour If-None-Match. */
  etag: boolean;
}

export const API_BASE_PATH = '/v1';

export const ROUTES: readonly RouteDefinition[] = [
  {
    id: 'latest',
    method: 'GET',
    path: '/rates/latest',
    handlerDir: 'latest',
    cacheControl: 'private, max-age=86400',
    countsTowardMonth: true,
    etag: true,
  },
  {
    id: 'pair',
    method: 'GET',
    path: '/rates/pair/{from}/{to}',
    handlerDir: 'pair',
    countsTowardMonth: true,
    etag: true,
  },
  {
    id: 'history',
    method: 'GET',
    path: '/rates/history/{from}/{to}/{date}',
    handlerDir: 'history',
    cacheControl: 'private, max-age=604800, immutable',
    countsTowardMonth: true,
    etag: true,
  },
  {
    id: 'currencies',
    method: 'GET',
    path: '/currencies',
    handlerDir: 'currencies',
    cacheControl: 'private, max-age=2592000',
    countsTowardMonth: true,
    etag: false,
  },
  {
    id: 'enriched',
    method: 'GET',
    path: '/rates/enriched/{from}/{to}',
    handlerDir: 'enriched',
    countsTowardMonth: true,
    etag: true,
  },
  {
    id: 'quota',
    method: 'GET',
    path: '/quota',
    handlerDir: 'quota',
    cacheControl: 'no-store',
    countsTowardMonth: false,
    etag: false,
  },
];

/** Error responses, from the gateway or a function, are never cached. */
export const ERROR_CACHE_CONTROL = 'no-store';

export interface RouteMatch {
  route: RouteDefinition;
  pathParameters: Record<string, string>;
}

// Pure-annotated: only the authorizer and the local gateway match paths; the endpoints leave this out.
const compiled = /* @__PURE__ */ ROUTES.map((route) => {
  const names: string[] = [];
  const pattern = route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  return { route, names, regex: new RegExp(`^${pattern}$`) };
});

/** Matches a resource path (below `/v1`) as API Gateway does: one segment per `{param}`, URL-decoded. */
export function matchRoute(resourcePath: string): RouteMatch | undefined {
  for (const { route, names, regex } of compiled) {
    const m = regex.exec(resourcePath);
    if (!m) continue;
    const pathParameters: Record<string, string> = {};
    let ok = true;
    names.forEach((name, i) => {
      const raw = m[i + 1] ?? '';
      try {
        pathParameters[name] = decodeURIComponent(raw);
      } catch {
        ok = false;
      }
    });
    if (ok) return { route, pathParameters };
  }
  return undefined;
}

export function routeById(id: RouteId): RouteDefinition {
  const route = ROUTES.find((r) => r.id === id);
  if (!route) throw new Error(`unknown route ${id}`);
  return route;
}
