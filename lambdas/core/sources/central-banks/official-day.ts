/**
 * What every central-bank adapter's parser returns: one publisher's quotes for one of its own calendar days, as
 * exact decimal text, before any conversion to the euro pivot. Keeping the quote as "amount units of the currency
 * cost price units of the publisher's currency" leaves units, multipliers and inverse quotations exact: nothing is
 * divided until the merge rule (domain/official-rates.ts) does it once, in decimal.
 */
import { SourceFormatError } from '../errors';

export const CENTRAL_BANK_IDS = [
  'nbp',
  'cbr',
  'nbu',
  'bnr',
  'cnb',
  'boc',
  'tcmb',
  'rba',
  'imf',
  'boe',
  'bcb',
  'boi',
] as const;
export type CentralBankId = (typeof CENTRAL_BANK_IDS)[number];

/** `amount` units of the quoted currency cost `price` units of the publisher's currency; both plain decimal text. */
export interface OfficialQuote {
  amount: string;
  price: string;
}

/** Which published rate a quote is: a mid (average, reference, fixing) rate, or the buying or selling rate. */
export type QuoteKind = 'mid' | 'buying' | 'selling';

export interface OfficialDay {
  publisher: CentralBankId;
  /** `YYYY-MM-DD`: the publisher's own day for these rates (its effective date, not a UTC instant). */
  date: string;
  /** The currency every quote is priced in: PLN for NBP, USD for the IMF. */
  quoteCurrency: string;
  /** `weekly` for tables published once a week (NBP table B); the merge rule ranks them after daily ones. */
  cadence: 'daily' | 'weekly';
  /** ISO code → quote. Codes are three upper-case letters; the publisher's own currency is never listed. */
  quotes: Record<string, OfficialQuote>;
}

/** A body that is not what the publisher serves; the message names the publisher and what was wrong. */
export class PublisherFormatError extends SourceFormatError {
  constructor(publisherName: string, what: string) {
    super(`${publisherName}: ${what}`);
    this.name = 'PublisherFormatError';
  }
}
