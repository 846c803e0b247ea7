/**
 * What every central-bank adapter's parser returns: one publisher's quotes for one of its own calendar days, as
 * exact decimal text, before any conversion to the euro pivot. Keeping the quote as "amount units of the currency
 * cost price units of the publisher's currency" leaves units, multipliers and inverse quotations exact: nothing is
 * divided until the merge rule (domain/official-rates.ts) does it once, in decimal.
 */
import { type CentralBankId, PUBLISHERS, publisherCron } from '../../domain/publishers';
import { SourceFormatError } from '../errors';

export { CENTRAL_BANK_IDS, type CentralBankId } from '../../domain/publishers';

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

/** What a parser needs of its publisher, derived from the one list of facts (domain/publishers.ts). */
export interface AdapterFacts {
  id: CentralBankId;
  name: string;
  /** ISO 3166 alpha-2; null for an international body (the IMF). */
  country: string | null;
  rateKind: string;
  quoteKind: QuoteKind;
  quoteCurrency: string;
  dataUrl: string;
  termsUrl: string | null;
  /** When it publishes, as a UTC cron line (minute hour day month weekday). */
  scheduleCronUtc: string;
  cadence: 'daily' | 'weekly';
  coverageStart: string;
}

export function adapterFacts(id: CentralBankId): AdapterFacts {
  const facts = PUBLISHERS[id];
  return {
    id,
    name: facts.name,
    country: facts.country,
    rateKind: facts.rateKind,
    quoteKind: facts.quoteKind,
    quoteCurrency: facts.currency,
    dataUrl: facts.dataUrl,
    termsUrl: facts.termsUrl,
    scheduleCronUtc: publisherCron(id),
    cadence: facts.cadence,
    coverageStart: facts.coverageStart,
  };
}

/** One upstream answer: the URL asked and the body it returned. */
export interface UpstreamResponse {
  url: string;
  body: Uint8Array;
}

/**
 * Every central-bank adapter, one shape: the requests that cover a span of days, and the parse of their answers
 * (all at once, since some publishers split a day across requests: BCB one per currency, CBR series per currency).
 */
export interface CentralBankAdapter {
  id: CentralBankId;
  /** The requests covering `from..to` (inclusive), against `origin` (the publisher's own by default). */
  requests(from: string, to: string, origin?: string): string[];
  /** HTTP statuses that mean "no table in this span" rather than a failure (NBP answers 404). */
  emptyStatuses?: readonly number[];
  /** Whether a recorded answer is one `parse` reads (a bundled folder also keeps gold and metal prices); all if absent. */
  reads?(url: string): boolean;
  parse(responses: readonly UpstreamResponse[]): OfficialDay[];
}

/** Several bodies each parsed alone; a day a later body repeats (an overlapping request) keeps its first reading. */
export function parseEach(parse: (body: Uint8Array) => OfficialDay[]) {
  return (responses: readonly UpstreamResponse[]): OfficialDay[] => {
    const seen = new Set<string>();
    const days: OfficialDay[] = [];
    for (const { body } of responses) {
      for (const day of parse(body)) {
        const key = `${day.date}|${day.quoteCurrency}|${day.cadence}`;
        if (seen.has(key)) continue;
        seen.add(key);
        days.push(day);
      }
    }
    return days.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  };
}
