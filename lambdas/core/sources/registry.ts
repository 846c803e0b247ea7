/**
 * Every source adapter, by id. A new source is its id in SOURCE_IDS (domain/rates.ts, which orders precedence),
 * its facts in SOURCE_SCHEDULES (domain/source-facts.ts) and its module here; the types refuse a source missing
 * from either record.
 */
import { CENTRAL_BANK_IDS, type CentralBankId } from '../domain/publishers';
import type { SourceId } from '../domain/rates';
import { centralBankModule } from './central-bank-source';
import { CENTRAL_BANK_ADAPTERS } from './central-banks/adapters';
import { CURRENCY_API_MODULE } from './currency-api-source';
import { ECB_MODULE } from './ecb-source';
import type { SourceModule } from './source-module';

const CENTRAL_BANK_MODULES = Object.fromEntries(
  CENTRAL_BANK_IDS.map((id) => [id, centralBankModule(CENTRAL_BANK_ADAPTERS[id])]),
) as Record<CentralBankId, SourceModule>;

export const SOURCE_MODULES: Readonly<Record<SourceId, SourceModule>> = {
  ecb: ECB_MODULE,
  ...CENTRAL_BANK_MODULES,
  'currency-api': CURRENCY_API_MODULE,
};
