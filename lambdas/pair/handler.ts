import { defaultEndpointDeps } from '../core/endpoints/deps';
import { pairEndpoint } from '../core/endpoints/rates';
import { apiHandler } from '../core/http/api-handler';

export const handler = apiHandler('pair', pairEndpoint(defaultEndpointDeps()));
