import { SOURCE_IDS } from '../../../lambdas/core/domain/rates';
import { buildLatest, mergeDay } from '../../../lambdas/core/ingest/merge';
import { toSourceDays } from '../../../lambdas/core/sources/central-bank-source';
import { NBP } from '../../../lambdas/core/sources/central-banks/nbp';
import type { OfficialDay } from '../../../lambdas/core/sources/central-banks/official-day';
import type { SourceDay } from '../../../lambdas/core/sources/source-day';
import { recorded } from './central-banks/recorded';

const day = (over: Partial<OfficialDay> & Pick<OfficialDay, 'quotes'>): OfficialDay => ({
  publisher: 'nbp',
  date: '2026-03-04',
  quoteCurrency: 'PLN',
  cadence: 'daily',
  ...over,
});

/** Quotes of one unit of each currency at the given prices. */
const perUnit = (prices: Record<string, string>): OfficialDay['quotes'] =>
  Object.fromEntries(Object.entries(prices).map(([currency, price]) => [currency, { amount: '1', price }]));

describe("a central bank's days against the euro", () => {
  it("takes a weekly table without the euro through the daily table's euro quote of the same day", () => {
    const { days, warnings } = toSourceDays('nbp', [
      day({ quotes: { EUR: { amount: '1', price: '4.2685' }, USD: { amount: '1', price: '3.6769' } } }),
      day({ cadence: 'weekly', quotes: { KZT: { amount: '1', price: '0.007356' } } }),
    ]);
    expect(warnings).toEqual([]);
    expect(days).toEqual([
      {
        source: 'nbp',
        date: '2026-03-04',
        base: 'EUR',
        // PLN per EUR as published; KZT = 4.2685 / 0.007356 to 12 digits; the publication at its window's start.
        rates: { EUR: 1, PLN: 4.2685, USD: 1.1608964073, KZT: 580.274605764 },
        publishedAt: '2026-03-04T11:00:00Z',
      },
    ]);
  });

  it('leaves out, with a warning, a weekly table on a day without a euro quote', () => {
    const { days, warnings } = toSourceDays('nbp', [
      day({ cadence: 'weekly', quotes: { KZT: { amount: '1', price: '0.007356' } } }),
    ]);
    expect(days).toEqual([]);
    expect(warnings).toEqual([expect.stringMatching(/^Narodowy Bank Polski: the weekly table of 2026-03-04/)]);
  });

  it("takes only the SDR from the IMF's SDR-priced day, its currencies from the dollar-priced one", () => {
    const { days } = toSourceDays('imf', [
      day({
        publisher: 'imf',
        quoteCurrency: 'USD',
        quotes: { EUR: { amount: '1', price: '1.1649' }, JPY: { amount: '157.2', price: '1' } },
      }),
      day({
        publisher: 'imf',
        quoteCurrency: 'XDR',
        quotes: perUnit({ EUR: '0.85', USD: '0.73', JPY: '0.0046' }),
      }),
    ]);
    expect(days[0]?.rates).toEqual({ EUR: 1, USD: 1.1649, JPY: 183.12228, XDR: 0.85 });
  });

  it('reads the bundled answers with their recorded URLs, leaving out the gold prices', () => {
    const { files } = recorded('nbp');
    const official = NBP.parse(files.filter((f) => NBP.reads?.(f.uri)).map((f) => ({ url: f.uri, body: f.body })));
    expect(official.map((d) => `${d.date} ${d.cadence}`)).toEqual([
      '2026-03-02 daily',
      '2026-03-03 daily',
      '2026-03-04 daily',
      '2026-03-04 weekly',
      '2026-03-05 daily',
    ]);
    expect(NBP.reads?.(files[2]?.uri ?? '')).toBe(false);
  });
});

describe('weekly quotes in LATEST', () => {
  const nbpDay = (date: string, rates: Record<string, number>): SourceDay => ({
    source: 'nbp',
    date,
    base: 'EUR',
    rates: { EUR: 1, ...rates },
    publishedAt: `${date}T11:00:00Z`,
  });
  const snapshots = [
    mergeDay('2026-03-04', undefined, [nbpDay('2026-03-04', { PLN: 4.27, USD: 1.16, KZT: 580 })]).snapshot,
    mergeDay('2026-03-11', undefined, [nbpDay('2026-03-11', { PLN: 4.28, USD: 1.17 })]).snapshot,
  ];

  it("keeps NBP's table-B quote a week old while its daily quotes come from the newest day", () => {
    const latest = buildLatest(snapshots, SOURCE_IDS)?.latest;
    expect(latest?.rates).toMatchObject({ USD: 1.17, PLN: 4.28, KZT: 580 });
    expect(latest?.sources.KZT).toBe('nbp');
  });

  it('drops it after 8 days', () => {
    const later = mergeDay('2026-03-13', undefined, [nbpDay('2026-03-13', { PLN: 4.29, USD: 1.18 })]).snapshot;
    expect(buildLatest([...snapshots, later], SOURCE_IDS)?.latest.rates.KZT).toBeUndefined();
  });

  it('ranks a daily quote of another publisher over a weekly one', () => {
    const nbu: SourceDay = { ...nbpDay('2026-03-11', { UAH: 50.5, KZT: 590 }), source: 'nbu' };
    const merged = mergeDay('2026-03-11', undefined, [nbpDay('2026-03-11', { PLN: 4.28, KZT: 580 }), nbu]).snapshot;
    expect(merged.sources.KZT).toBe('nbu');
    expect(merged.sources.UAH).toBe('nbu');
  });
});
