import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { DashboardRouteId } from '../http/dashboard-routes';
import type { HttpResponse } from '../http/responses';
import type { AccountOwner } from '../store/accounts-store';

/** What a dashboard route's function receives: the request, and the person its verified token names. */
export interface DashboardRequest {
  event: APIGatewayProxyEvent;
  owner: AccountOwner;
}

export type DashboardEndpoint = (request: DashboardRequest) => Promise<HttpResponse>;

/** Built with `lambdaDeps()` in its function, with the local server's stores in `npm start`. */
export interface DashboardEndpointModule<Deps> {
  route: DashboardRouteId;
  create(deps: Deps): DashboardEndpoint;
  lambdaDeps(): Deps;
}

export function defineDashboardEndpoint<Deps>(module: DashboardEndpointModule<Deps>): DashboardEndpointModule<Deps> {
  return module;
}
