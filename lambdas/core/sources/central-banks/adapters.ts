/** Every central-bank adapter, by id: the one shape ingestion, backfills and the bundled data use. */
import type { CentralBankId } from '../../domain/publishers';
import { BCB } from './bcb';
import { BNR } from './bnr';
import { BOC } from './boc';
import { BOE } from './boe';
import { BOI } from './boi';
import { CBR } from './cbr';
import { CNB } from './cnb';
import { IMF } from './imf';
import { NBP } from './nbp';
import { NBU } from './nbu';
import type { CentralBankAdapter } from './official-day';
import { RBA } from './rba';
import { TCMB } from './tcmb';

export const CENTRAL_BANK_ADAPTERS: Readonly<Record<CentralBankId, CentralBankAdapter>> = {
  nbp: NBP,
  cnb: CNB,
  bnr: BNR,
  boc: BOC,
  boe: BOE,
  rba: RBA,
  boi: BOI,
  nbu: NBU,
  cbr: CBR,
  tcmb: TCMB,
  bcb: BCB,
  imf: IMF,
};
