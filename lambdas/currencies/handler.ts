import { defaultEndpointDeps } from '../core/endpoints/deps';
import { currenciesEndpoint } from '../core/endpoints/rates';
import { apiHandler } from '../core/http/api-handler';

export const handler = apiHandler('currencies', currenciesEndpoint(defaultEndpointDeps()));
