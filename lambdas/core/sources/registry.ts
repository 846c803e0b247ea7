/**
 * Every source adapter, by id. A new source is its id in SOURCE_IDS (domain/rates.ts, which orders precedence),
 * its facts in SOURCE_SCHEDULES (domain/source-schedule.ts) and its module here; the types refuse a source missing
 * from either record.
 */
import type { SourceId } from '../domain/rates';
import { CURRENCY_API_MODULE } from './currency-api-source';
import { ECB_MODULE } from './ecb-source';
import type { SourceModule } from './source-module';

export const SOURCE_MODULES: Readonly<Record<SourceId, SourceModule>> = {
  ecb: ECB_MODULE,
  'currency-api': CURRENCY_API_MODULE,
};
