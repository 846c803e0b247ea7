import {
  BCB_CURRENCIES,
  BCB_PUBLISHER,
  bcbRequests,
  currencyOfRequest,
  parseBcb,
} from '../../../../lambdas/core/sources/central-banks/bcb';
import { bytes, expectFactsMatch, publisherError, recorded } from './recorded';

const { facts, files } = recorded('bcb');
const responses = files.map((f) => ({ currency: currencyOfRequest(f.uri), body: f.body as Uint8Array }));
const days = parseBcb(responses);
const NAME = 'Banco Central do Brasil';
const usd = files[9]?.body.toString('utf8') as string;
const withUsd = (text: string) => [...responses.slice(0, 9), { currency: 'USD', body: bytes(text) }];

describe('the recorded PTAX closing rates 2026-03-02..06', () => {
  it('merges the ten responses into five days of ten currencies priced in reais', () => {
    expect(days.map((d) => d.date)).toEqual(['2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05', '2026-03-06']);
    for (const day of days) {
      expect(Object.keys(day.quotes).sort()).toEqual([...BCB_CURRENCIES]);
      expect(day.quoteCurrency).toBe('BRL');
    }
  });

  it('takes the selling rate per one unit with every published digit', () => {
    expect(days[0]?.quotes.USD).toEqual({ amount: '1', price: '5.20010' });
    expect(days[0]?.quotes.AUD).toEqual({ amount: '1', price: '3.67020' });
    expect(days[0]?.quotes.JPY).toEqual({ amount: '1', price: '0.03297' });
    expect(days[1]?.quotes.USD).toEqual({ amount: '1', price: '5.28700' });
    expect(days[4]?.quotes.USD).toEqual({ amount: '1', price: '5.28780' });
  });

  it('builds the ten recorded requests for the recorded range, and on another origin', () => {
    expect(bcbRequests('2026-03-01', '2026-03-07')).toEqual(files.map((f) => f.uri));
    expect(bcbRequests('2026-03-01', '2026-03-07', 'http://127.0.0.1:9').map(currencyOfRequest)).toEqual([
      ...BCB_CURRENCIES,
    ]);
    expect(bcbRequests('2026-03-01', '2026-03-07', 'http://127.0.0.1:9')[0]).toMatch(
      /^http:\/\/127\.0\.0\.1:9\/olinda\//,
    );
  });

  it('states the publisher facts of the recording', () => {
    expectFactsMatch({ ...BCB_PUBLISHER }, facts);
  });

  it('reads a range without bulletins as no days', () => {
    const empty = usd.replace(/"value":\[.*\]/, '"value":[]');
    expect(parseBcb([{ currency: 'USD', body: bytes(empty) }])).toEqual([]);
  });
});

describe('damaged PTAX responses', () => {
  it('refuses a truncated response', () => {
    for (const size of [0, 20, 400, usd.length - 1]) {
      publisherError(NAME, () => parseBcb(withUsd(usd.slice(0, size))));
    }
  });

  it('refuses an HTML error page', () => {
    expect(publisherError(NAME, () => parseBcb(withUsd('<html><body>503</body></html>')))).toMatch(/HTML/);
  });

  it('refuses a garbage number', () => {
    expect(
      publisherError(NAME, () => parseBcb(withUsd(usd.replace('"cotacaoVenda":5.20010', '"cotacaoVenda":-5.2')))),
    ).toMatch(/USD on 2026-03-02 cotacaoVenda/);
    expect(
      publisherError(NAME, () => parseBcb(withUsd(usd.replace('"cotacaoVenda":5.20010', '"cotacaoVenda":"x"')))),
    ).toMatch(/USD on 2026-03-02 cotacaoVenda/);
  });

  it('refuses an entry without its selling rate', () => {
    expect(publisherError(NAME, () => parseBcb(withUsd(usd.replace('"cotacaoVenda":5.20010,', ''))))).toMatch(
      /no number in cotacaoVenda/,
    );
  });

  it('refuses a currency twice on one day, within or across responses', () => {
    const twice = usd.replace('2026-03-03 13:10:27.879', '2026-03-02 13:10:27.879');
    expect(publisherError(NAME, () => parseBcb(withUsd(twice)))).toMatch(/USD is quoted twice on 2026-03-02/);
    const dup = [...responses, responses[9] as (typeof responses)[number]];
    expect(publisherError(NAME, () => parseBcb(dup))).toMatch(/USD is quoted twice/);
  });

  it('refuses another bulletin, a bad time and another service', () => {
    expect(publisherError(NAME, () => parseBcb(withUsd(usd.replace('Fechamento', 'Abertura'))))).toMatch(
      /'Abertura' is not the closing one/,
    );
    expect(publisherError(NAME, () => parseBcb(withUsd(usd.replace('2026-03-02 13:09', '2026-02-30 13:09'))))).toMatch(
      /not a day/,
    );
    expect(publisherError(NAME, () => parseBcb(withUsd(usd.replace('#_CotacaoMoedaPeriodo', '#_Moedas'))))).toMatch(
      /not a CotacaoMoedaPeriodo/,
    );
  });

  it('refuses a request that names no currency', () => {
    expect(publisherError(NAME, () => currencyOfRequest('https://olinda.bcb.gov.br/olinda/servico/PTAX'))).toMatch(
      /no currency/,
    );
  });
});
