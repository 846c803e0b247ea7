/** The endpoint module a route's bundle is built around (see lambdas/endpoint/handler.ts). */
declare module 'fxrates-route-endpoint' {
  export const endpoint: import('../lambdas/core/endpoints/endpoint').EndpointModule<unknown>;
}
