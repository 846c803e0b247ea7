import { pathMatcher } from '../../../lambdas/core/http/path-matcher';
import {
  API_BASE_PATH,
  ERROR_CACHE_CONTROL,
  matchRoute,
  ROUTES,
  routeById,
  TIMESERIES_CACHE_CONTROL,
} from '../../../lambdas/core/http/routes';

describe('matchRoute', () => {
  it.each([
    ['/rates/latest', 'latest', {}],
    ['/rates/pair/USD/EUR', 'pair', { from: 'USD', to: 'EUR' }],
    ['/rates/history/USD/EUR/2026-01-05', 'history', { from: 'USD', to: 'EUR', date: '2026-01-05' }],
    ['/currencies', 'currencies', {}],
    ['/rates/enriched/gbp/jpy', 'enriched', { from: 'gbp', to: 'jpy' }],
    ['/quota', 'quota', {}],
    ['/sources', 'sources', {}],
    ['/rates/timeseries/usd/JPY', 'timeseries', { from: 'usd', to: 'JPY' }],
  ])('matches %s to the %s route with its path parameters', (path, id, parameters) => {
    const match = matchRoute(path);
    expect(match?.route.id).toBe(id);
    expect(match?.pathParameters).toEqual(parameters);
  });

  it('URL-decodes path parameters', () => {
    expect(matchRoute('/rates/pair/U%53D/%45UR')?.pathParameters).toEqual({ from: 'USD', to: 'EUR' });
    expect(matchRoute('/rates/history/USD/EUR/2026%2D01%2D05')?.pathParameters.date).toBe('2026-01-05');
    expect(matchRoute('/rates/pair/%20usd/EUR')?.pathParameters.from).toBe(' usd');
    expect(matchRoute('/rates/pair/A%2FB/EUR')?.pathParameters).toEqual({ from: 'A/B', to: 'EUR' });
    expect(matchRoute('/rates/pair/%E2%82%AC/EUR')?.pathParameters.from).toBe('€');
  });

  it('does not match a parameter that is not valid percent-encoding', () => {
    expect(matchRoute('/rates/pair/%E0%A4%A/EUR')).toBeUndefined();
    expect(matchRoute('/rates/pair/%/EUR')).toBeUndefined();
  });

  it('does not match unknown paths', () => {
    for (const path of [
      '',
      '/',
      '/rates',
      '/rates/',
      '/rates/latest/',
      '/RATES/LATEST',
      '/v1/rates/latest',
      '/quota/x',
      '/currency',
      '/rates/pairs/USD/EUR',
    ]) {
      expect([path, matchRoute(path)]).toEqual([path, undefined]);
    }
  });

  it('does not match missing, empty or extra segments', () => {
    for (const path of [
      '/rates/pair/USD',
      '/rates/pair/USD/',
      '/rates/pair//EUR',
      '/rates/pair/USD/EUR/extra',
      '/rates/pair/USD/EUR/',
      '/rates/history/USD/EUR',
      '/rates/history/USD/EUR/2026-01-05/x',
      '/rates/enriched/USD/EUR/x',
      '/rates/latest/USD',
    ]) {
      expect([path, matchRoute(path)]).toEqual([path, undefined]);
    }
  });

  it('does not let a query string take part in the match', () => {
    expect(matchRoute('/rates/latest?base=USD')).toBeUndefined();
  });

  it('matches the resource path API Gateway hands the authorizer, its parameters as written', () => {
    const match = matchRoute('/rates/history/{from}/{to}/{date}');
    expect(match?.route.id).toBe('history');
    expect(match?.pathParameters).toEqual({ from: '{from}', to: '{to}', date: '{date}' });
  });
});

describe('pathMatcher', () => {
  const routes = [
    { id: 'spec', path: '/openapi.json' },
    { id: 'new', path: '/keys/new' },
    { id: 'key', path: '/keys/{keyId}' },
    { id: 'inner', path: '/files/v{version}' },
  ];
  const match = pathMatcher(routes);

  it('takes literal text literally: a dot matches a dot only', () => {
    expect(match('/openapi.json')?.route.id).toBe('spec');
    expect(match('/openapiXjson')).toBeUndefined();
  });

  it('lets the first route in order win where two match', () => {
    expect(match('/keys/new')).toEqual({ route: routes[1], pathParameters: {} });
    expect(match('/keys/k1')).toEqual({ route: routes[2], pathParameters: { keyId: 'k1' } });
  });

  it('reads a parameter only as a whole segment, as API Gateway does', () => {
    expect(match('/files/v{version}')?.route.id).toBe('inner');
    expect(match('/files/v2')).toBeUndefined();
  });

  it('tries the next route when a parameter is not valid percent-encoding for this one', () => {
    const decoding = pathMatcher([
      { id: 'param', path: '/a/{x}' },
      { id: 'literal', path: '/a/%' },
    ]);
    expect(decoding('/a/%')?.route.id).toBe('literal');
    expect(decoding('/a/%41')).toEqual({ route: { id: 'param', path: '/a/{x}' }, pathParameters: { x: 'A' } });
  });
});

describe('ROUTES', () => {
  it("has the spec's six endpoints and the three extensions under /v1, all GET", () => {
    expect(API_BASE_PATH).toBe('/v1');
    expect(ROUTES.map((r) => r.id)).toEqual([
      'latest',
      'pair',
      'history',
      'currencies',
      'enriched',
      'quota',
      'convert',
      'sources',
      'timeseries',
    ]);
    for (const route of ROUTES) expect(route.method).toBe('GET');
    expect(new Set(ROUTES.map((r) => r.path)).size).toBe(ROUTES.length);
  });

  it('sets the Cache-Control of the contract on each route', () => {
    const cacheControl = Object.fromEntries(ROUTES.map((r) => [r.id, r.cacheControl]));
    expect(cacheControl).toEqual({
      latest: 'private, max-age=86400',
      history: 'private, max-age=604800, immutable',
      currencies: 'private, max-age=2592000',
      pair: undefined,
      enriched: undefined,
      quota: 'no-store',
      sources: 'private, max-age=60',
      convert: undefined,
      // A range whose end is within the last week gets TIMESERIES_CACHE_CONTROL.recent from the endpoint.
      timeseries: 'private, max-age=604800, immutable',
    });
    expect(TIMESERIES_CACHE_CONTROL).toEqual({
      final: 'private, max-age=604800, immutable',
      recent: 'private, max-age=3600',
    });
    expect(TIMESERIES_CACHE_CONTROL.final).toBe(routeById('history').cacheControl);
    expect(ERROR_CACHE_CONTROL).toBe('no-store');
  });

  it('counts every route toward the month except the quota report', () => {
    const counting = ROUTES.filter((r) => r.countsTowardMonth).map((r) => r.id);
    expect(counting.sort()).toEqual([
      'convert',
      'currencies',
      'enriched',
      'history',
      'latest',
      'pair',
      'sources',
      'timeseries',
    ]);
    expect(ROUTES.filter((r) => !r.countsTowardMonth).map((r) => r.id)).toEqual(['quota']);
  });

  it('sends ETags on the rate routes', () => {
    for (const id of ['latest', 'pair', 'history', 'enriched', 'sources'] as const)
      expect(routeById(id).etag).toBe(true);
    expect(routeById('quota').etag).toBe(false);
  });

  it('finds each route by its id, and refuses an unknown id', () => {
    for (const route of ROUTES) expect(routeById(route.id)).toBe(route);
    expect(() => routeById('nope' as 'latest')).toThrow();
  });
});
