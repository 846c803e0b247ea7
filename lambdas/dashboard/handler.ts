/**
 * The Lambda entry of every dashboard function. Each dashboard route's bundle resolves `fxrates-dashboard-endpoint`
 * to that route's own module, `lambdas/core/dashboard/<route id>.ts` (the alias is set per function in
 * lib/bundling.ts), so one entry serves every route and a bundle holds only its own endpoint.
 */
import { endpoint } from 'fxrates-dashboard-endpoint';
import { dashboardHandler } from '../core/http/dashboard-handler';

export const handler = dashboardHandler(endpoint.route, endpoint.create(endpoint.lambdaDeps()));
