import { type Clock, systemClock } from '../domain/dates';
import { requireEnv } from '../env';
import { RateReader } from '../service/rate-reader';
import { documentClient } from '../store/clients';
import { RatesReadStore } from '../store/rates-read-store';
import { RATES_TABLE } from '../store/tables';

export interface EndpointDeps {
  reader: RateReader;
  clock: Clock;
}

let shared: EndpointDeps | undefined;

/** The module-scope dependencies of an endpoint function: one store client and one warm cache per process. */
export function lambdaEndpointDeps(): EndpointDeps {
  shared ??= {
    reader: new RateReader(new RatesReadStore(documentClient(), requireEnv(RATES_TABLE.envVar)), systemClock),
    clock: systemClock,
  };
  return shared;
}
