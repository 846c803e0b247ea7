import { systemClock } from '../core/domain/dates';
import { quotaEndpoint } from '../core/endpoints/quota';
import { apiHandler } from '../core/http/api-handler';

export const handler = apiHandler('quota', quotaEndpoint({ clock: systemClock }));
