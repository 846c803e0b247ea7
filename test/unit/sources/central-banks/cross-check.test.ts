import { currencyOfRequest, parseBcb } from '../../../../lambdas/core/sources/central-banks/bcb';
import { parseBoe } from '../../../../lambdas/core/sources/central-banks/boe';
import { parseBoi } from '../../../../lambdas/core/sources/central-banks/boi';
import { parseImf } from '../../../../lambdas/core/sources/central-banks/imf';
import type { OfficialDay } from '../../../../lambdas/core/sources/central-banks/official-day';
import { parseRba } from '../../../../lambdas/core/sources/central-banks/rba';
import { parseTcmb } from '../../../../lambdas/core/sources/central-banks/tcmb';
import { readEcbTable } from '../../../support/upstream-server';
import { recorded } from './recorded';

const body = (id: string, i = 0) => recorded(id).files[i]?.body as Buffer;
const all: OfficialDay[] = [
  ...parseTcmb(body('tcmb')),
  ...parseRba(body('rba')),
  ...parseImf(body('imf', 0)),
  ...parseImf(body('imf', 1)),
  ...parseBoe(body('boe')),
  ...parseBcb(recorded('bcb').files.map((f) => ({ currency: currencyOfRequest(f.uri), body: f.body }))),
  ...parseBoi(body('boi')),
];

const table = readEcbTable();
const ecb = new Map(
  table.rows.map((row) => [row.date, new Map(table.codes.map((code, i) => [code, Number(row.values[i])]))]),
);

/** Units of `code` per euro from one publisher's day, through its own quote of the euro. */
function perEuro(day: OfficialDay, code: string): number | undefined {
  const euro = day.quotes.EUR;
  if (!euro) return undefined;
  const euroPrice = Number(euro.price) / Number(euro.amount);
  if (code === day.quoteCurrency) return euroPrice;
  const quote = day.quotes[code];
  return quote ? euroPrice / (Number(quote.price) / Number(quote.amount)) : undefined;
}

describe('the six publishers against the ECB on the same days', () => {
  // 5% catches a unit, a multiplier or a direction gone wrong; real spreads reach 3% in this March (the IMF's won on
  // 3 March, the Bank of Israel's pound and rand on 2 March), so a tighter bound would test the markets, not the code.
  it('agree within 5% for every currency both quote: units, multipliers and directions are right', () => {
    let compared = 0;
    const off: string[] = [];
    for (const day of all.filter((d) => d.date >= '2026-03-01')) {
      const reference = ecb.get(day.date);
      if (!reference) continue;
      for (const code of [day.quoteCurrency, ...Object.keys(day.quotes)]) {
        const expected = reference.get(code);
        const got = perEuro(day, code);
        if (code === 'EUR' || expected === undefined || Number.isNaN(expected) || got === undefined) continue;
        compared += 1;
        if (Math.abs(got / expected - 1) > 0.05) off.push(`${day.publisher} ${day.date} ${code} ${got} vs ${expected}`);
      }
    }
    expect(off).toEqual([]);
    expect(compared).toBeGreaterThan(500);
  });

  it('quote 52 distinct ISO currencies and the SDR together', () => {
    const codes = new Set(all.flatMap((d) => [d.quoteCurrency, ...Object.keys(d.quotes)]));
    expect([...codes].sort().join(' ')).toBe(
      'AED AUD AZN BND BRL BWP CAD CHF CLP CNY CZK DKK DZD EGP EUR GBP HKD HUF IDR ILS INR JOD JPY KRW KWD KZT LBP ' +
        'MUR MXN MYR NOK NZD OMR PEN PGK PHP PKR PLN QAR RON RUB SAR SEK SGD THB TRY TTD TWD USD UYU VND XDR ZAR',
    );
  });
});
