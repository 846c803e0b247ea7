import { defaultEndpointDeps } from '../core/endpoints/deps';
import { latestEndpoint } from '../core/endpoints/rates';
import { apiHandler } from '../core/http/api-handler';

export const handler = apiHandler('latest', latestEndpoint(defaultEndpointDeps()));
