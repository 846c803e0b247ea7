import fc from 'fast-check';
import {
  crossCheck,
  type PublishedDay,
  rankFor,
  spreadOf,
  toEuroRates,
} from '../../../lambdas/core/domain/official-rates';
import { crossRate } from '../../../lambdas/core/domain/rates';

const nbp: PublishedDay = {
  publisher: 'nbp',
  date: '2026-03-04',
  quoteCurrency: 'PLN',
  cadence: 'daily',
  quotes: {
    EUR: { amount: '1', price: '4.2150' },
    USD: { amount: '1', price: '3.6300' },
    JPY: { amount: '100', price: '2.4100' },
  },
};

describe('toEuroRates', () => {
  it('converts each quote through the publisher’s own quote of the euro, exactly', () => {
    const rates = toEuroRates(nbp);
    expect(rates).toEqual({
      EUR: 1,
      PLN: 4.215,
      // 1 × 4.2150 / 3.6300 = 1.16115702479…, kept to 12 significant digits
      USD: 1.16115702479,
      // 100 × 4.2150 / 2.4100 = 174.896265560…
      JPY: 174.89626556,
    });
  });

  it('applies units other than 1 and inverse quotations without dividing early', () => {
    const inverse: PublishedDay = {
      publisher: 'rba',
      date: '2026-03-04',
      quoteCurrency: 'AUD',
      cadence: 'daily',
      // 1 AUD = 0.6 EUR and 1 AUD = 0.7 USD, as units per A$1
      quotes: { EUR: { amount: '0.6', price: '1' }, USD: { amount: '0.7', price: '1' } },
    };
    // USD per EUR = 0.7 × (1/0.6) = 1.1666…: one division of 0.7 by 0.6
    expect(toEuroRates(inverse)).toEqual({ EUR: 1, AUD: 1.66666666667, USD: 1.16666666667 });
  });

  it('goes through a fallback euro quote when the day has none, and gives up without one', () => {
    const weekly: PublishedDay = { ...nbp, cadence: 'weekly', quotes: { AFN: { amount: '1', price: '0.0555' } } };
    expect(toEuroRates(weekly)).toBeUndefined();
    const rates = toEuroRates(weekly, nbp.quotes.EUR);
    expect(rates?.AFN).toBe(75.9459459459);
    expect(rates?.PLN).toBe(4.215);
  });

  it('round-trips: the cross rate back to the publisher’s currency is its quote to 8 significant digits', () => {
    const decimalText = fc
      .tuple(fc.integer({ min: 1, max: 99_999_999 }), fc.integer({ min: 0, max: 6 }))
      .map(([digits, places]) => (digits / 10 ** places).toFixed(places));
    fc.assert(
      fc.property(decimalText, decimalText, fc.constantFrom('1', '10', '100', '1000'), (eur, price, units) => {
        const day: PublishedDay = {
          ...nbp,
          quotes: { EUR: { amount: '1', price: eur }, XAU: { amount: units, price } },
        };
        const rates = toEuroRates(day);
        if (!rates) throw new Error('no rates');
        const back = crossRate(rates, 'XAU', 'PLN');
        const exact = Number(price) / Number(units);
        expect(back).toBeDefined();
        expect(Math.abs((back as number) - exact) / exact).toBeLessThanOrEqual(5e-8 + 1e-11);
      }),
      { numRuns: 300 },
    );
  });
});

describe('rankFor', () => {
  const order = ['ecb', 'nbp', 'cnb', 'currency-api'];
  const facts = (source: string) =>
    ({ nbp: { currency: 'PLN', weekly: (code: string) => code === 'AFN' }, cnb: { currency: 'CZK' } })[source];
  const rank = (source: string, code: string) => rankFor(order, facts, 'currency-api', source, code);

  it('puts the ECB first, the issuing bank second, other officials by order, the aggregator last', () => {
    expect(rank('ecb', 'USD')).toBeLessThan(rank('cnb', 'CZK'));
    expect(rank('cnb', 'CZK')).toBeLessThan(rank('nbp', 'CZK'));
    expect(rank('nbp', 'USD')).toBeLessThan(rank('cnb', 'USD'));
    expect(rank('cnb', 'USD')).toBeLessThan(rank('currency-api', 'USD'));
  });

  it('ranks a weekly table after every daily publisher and before the aggregator', () => {
    expect(rank('cnb', 'AFN')).toBeLessThan(rank('nbp', 'AFN'));
    expect(rank('nbp', 'AFN')).toBeLessThan(rank('currency-api', 'AFN'));
  });

  it('does not use a source missing from the configured order', () => {
    expect(rank('bnr', 'RON')).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('crossCheck', () => {
  it('measures every other publisher’s distance from the served rate and flags those over the tolerance', () => {
    const served = { rates: { USD: 1.1, JPY: 170 }, sources: { USD: 'ecb', JPY: 'ecb' } };
    const quotes = new Map<string, Record<string, number>>([
      ['nbp', { USD: 1.1011, JPY: 175 }],
      ['ecb', { USD: 1.1, JPY: 170 }],
      ['currency-api', { USD: 2 }],
    ]);
    expect(crossCheck(served, quotes, 0.01, 'currency-api')).toEqual([
      { code: 'JPY', source: 'nbp', rate: 175, servedBy: 'ecb', served: 170, spread: 0.0294118, overTolerance: true },
      { code: 'USD', source: 'nbp', rate: 1.1011, servedBy: 'ecb', served: 1.1, spread: 0.001, overTolerance: false },
    ]);
  });

  it('computes spreads exactly in decimal', () => {
    expect(spreadOf(1.1, 1)).toBe(0.1);
    expect(spreadOf(0.9, 1)).toBe(0.1);
    expect(spreadOf(1, 1)).toBe(0);
  });
});
