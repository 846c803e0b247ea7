/**
 * Banco Central do Brasil: PTAX rates from its OData service, one request per currency for a date range, filtered
 * to the closing bulletin (`tipoBoletim eq 'Fechamento'`, the day's official PTAX). Each entry has the buying and
 * selling rates in reais per unit (`cotacaoCompra`, `cotacaoVenda`), the parities against the dollar, and the
 * bulletin's Brasília time. The body does not name its currency; the request does (`@moeda`).
 */
import { printableUpstream } from '../source-day';
import { readJsonPlain } from './exact-json';
import { calendarDay, DayCollector, decimalText, decodeText } from './helpers';
import type { CentralBankAdapter, OfficialDay } from './official-day';
import { adapterFacts, PublisherFormatError } from './official-day';

export const BCB_PUBLISHER = adapterFacts('bcb');

export const BCB_BASE_URL = 'https://olinda.bcb.gov.br';
const NAME = BCB_PUBLISHER.name;

/** The currencies PTAX is published for. */
export const BCB_CURRENCIES = ['AUD', 'CAD', 'CHF', 'DKK', 'EUR', 'GBP', 'JPY', 'NOK', 'SEK', 'USD'] as const;

const odataDay = (day: string): string => `${day.slice(5, 7)}-${day.slice(8, 10)}-${day.slice(0, 4)}`;

/** One request per currency, in `BCB_CURRENCIES` order, days as `MM-DD-YYYY`. */
export function bcbRequests(from: string, to: string, origin = BCB_BASE_URL): string[] {
  return BCB_CURRENCIES.map(
    (code) =>
      `${origin}/olinda/servico/PTAX/versao/v1/odata/CotacaoMoedaPeriodo(moeda=@moeda,dataInicial=@dataInicial,` +
      `dataFinalCotacao=@dataFinalCotacao)?$filter=tipoBoletim%20eq%20%27Fechamento%27&$format=json` +
      `&@dataFinalCotacao=%27${odataDay(to)}%27&@dataInicial=%27${odataDay(from)}%27&@moeda=%27${code}%27`,
  );
}

/** The currency a request built by `requests` asks for. */
export function currencyOfRequest(uri: string): string {
  const code = /[?&]@moeda=%27([A-Z]{3})%27(?:&|$)/.exec(uri)?.[1];
  if (code === undefined)
    throw new PublisherFormatError(NAME, `no currency in the request '${printableUpstream(uri)}'`);
  return code;
}

const STAMP = /^(\d{4})-(\d{2})-(\d{2}) \d{2}:\d{2}:\d{2}(?:\.\d{1,3})?$/;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function rate(entry: Record<string, unknown>, field: string, what: string): string {
  const value = entry[field];
  if (typeof value !== 'string') throw new PublisherFormatError(NAME, `${what}: no number in ${field}`);
  return decimalText(NAME, value, `${what} ${field}`);
}

/**
 * Parses the responses of one run (one per currency) into one day per date. The rate taken is the closing PTAX
 * selling rate (`cotacaoVenda`), in reais per one unit; numbers are read as the text the body writes, so every
 * published digit is kept. An empty `value` list is a range without bulletins (holidays) and adds nothing; a
 * bulletin other than the closing one, a day twice, a missing or bad rate or time rejects the whole run.
 */
export function parseBcb(responses: ReadonlyArray<{ currency: string; body: Uint8Array }>): OfficialDay[] {
  const collector = new DayCollector(BCB_PUBLISHER);
  for (const { currency, body } of responses) {
    const json = readJsonPlain(decodeText(NAME, body), NAME);
    if (!isRecord(json) || !Array.isArray(json.value))
      throw new PublisherFormatError(NAME, `${currency}: no \`value\` list`);
    if (typeof json['@odata.context'] !== 'string' || !json['@odata.context'].endsWith('#_CotacaoMoedaPeriodo')) {
      throw new PublisherFormatError(NAME, `${currency}: not a CotacaoMoedaPeriodo response`);
    }
    for (const entry of json.value) {
      if (!isRecord(entry)) throw new PublisherFormatError(NAME, `${currency}: an entry is not an object`);
      if (entry.tipoBoletim !== 'Fechamento') {
        throw new PublisherFormatError(
          NAME,
          `${currency}: bulletin '${printableUpstream(String(entry.tipoBoletim))}' is not the closing one`,
        );
      }
      const stamp = typeof entry.dataHoraCotacao === 'string' ? entry.dataHoraCotacao : '';
      const parts = STAMP.exec(stamp);
      if (!parts)
        throw new PublisherFormatError(NAME, `${currency}: '${printableUpstream(stamp)}' is not a bulletin time`);
      const date = calendarDay(NAME, parts[1] as string, parts[2] as string, parts[3] as string, stamp);
      const what = `${currency} on ${date}`;
      rate(entry, 'cotacaoCompra', what);
      collector.add(date, currency, { amount: '1', price: rate(entry, 'cotacaoVenda', what) });
    }
  }
  return collector.days();
}

/** Each response is one currency's, named by its request. */
export const BCB: CentralBankAdapter = {
  id: 'bcb',
  requests: bcbRequests,
  parse: (responses) => parseBcb(responses.map(({ url, body }) => ({ currency: currencyOfRequest(url), body }))),
};
