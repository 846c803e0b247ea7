/** The endpoint module a route's bundle is built around (see lambdas/endpoint/handler.ts). */
declare module 'fxrates-route-endpoint' {
  export const endpoint: import('../lambdas/core/endpoints/endpoint').EndpointModule<unknown>;
}

/** The module a dashboard route's bundle is built around (see lambdas/dashboard/handler.ts). */
declare module 'fxrates-dashboard-endpoint' {
  export const endpoint: import('../lambdas/core/dashboard/endpoint').DashboardEndpointModule<unknown>;
}
