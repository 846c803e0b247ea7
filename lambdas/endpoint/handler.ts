/**
 * The Lambda entry of every endpoint function. Each route's bundle resolves `fxrates-route-endpoint` to that
 * route's own module, `lambdas/core/endpoints/<route id>.ts` (the alias is set per function in lib/bundling.ts),
 * so one entry serves every route and a bundle holds only its own endpoint.
 */
import { endpoint } from 'fxrates-route-endpoint';
import { apiHandler } from '../core/http/api-handler';

export const handler = apiHandler(endpoint.route, endpoint.create(endpoint.lambdaDeps()));
