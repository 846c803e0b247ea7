import { defaultEndpointDeps } from '../core/endpoints/deps';
import { historyEndpoint } from '../core/endpoints/rates';
import { apiHandler } from '../core/http/api-handler';

export const handler = apiHandler('history', historyEndpoint(defaultEndpointDeps()));
