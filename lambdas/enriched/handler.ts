import { defaultEndpointDeps } from '../core/endpoints/deps';
import { enrichedEndpoint } from '../core/endpoints/rates';
import { apiHandler } from '../core/http/api-handler';

export const handler = apiHandler('enriched', enrichedEndpoint(defaultEndpointDeps()));
