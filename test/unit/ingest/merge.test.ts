import { addDays, currencyApiPublishedAt, ecbPublishedAt } from '../../../lambdas/core/domain/dates';
import { sameSnapshot } from '../../../lambdas/core/domain/rates';
import {
  buildLatest,
  LATEST_DAILY_LAG_DAYS,
  mergeDay,
  newestDate,
  rebaseToEur,
} from '../../../lambdas/core/ingest/merge';
import { currencyApiDay, ecbDay } from './fixtures';

describe('rebaseToEur', () => {
  it('divides a non-EUR table through by its EUR rate', () => {
    const day = { ...currencyApiDay('2026-09-01'), base: 'USD', rates: { USD: 1, EUR: 0.8, GBP: 0.7 } };
    const rebased = rebaseToEur(day);
    expect(rebased?.base).toBe('EUR');
    expect(rebased?.rates.EUR).toBe(1);
    expect(rebased?.rates.USD).toBeCloseTo(1 / 0.8, 12);
    expect(rebased?.rates.GBP).toBeCloseTo(0.7 / 0.8, 12);
  });

  it('leaves an EUR table as it is and gives up on a table without EUR', () => {
    const day = currencyApiDay('2026-09-01');
    expect(rebaseToEur(day)).toEqual(day);
    expect(rebaseToEur({ ...day, base: 'USD', rates: { USD: 1, GBP: 0.7 } })).toBeUndefined();
  });
});

describe('mergeDay', () => {
  it('takes ECB for the currencies it quotes and currency-api for the rest', () => {
    const ecb = ecbDay('2026-09-28', { USD: 1.17 });
    const api = currencyApiDay('2026-09-28', { USD: 1.16 });
    const { snapshot, changed } = mergeDay('2026-09-28', undefined, [api, ecb]);
    expect(snapshot.rates.USD).toBe(1.17);
    expect(snapshot.sources.USD).toBe('ecb');
    expect(snapshot.rates.AED).toBe(api.rates.AED);
    expect(snapshot.sources.AED).toBe('currency-api');
    expect(snapshot.rates.EUR).toBe(1);
    expect(snapshot.sources.EUR).toBeUndefined();
    expect(changed).toEqual(['AED', 'CHF', 'GBP', 'JPY', 'USD']);
    expect(snapshot.publishedAt).toBe(ecbPublishedAt('2026-09-28'));
  });

  it('lets a late ECB day replace currency-api values in a stored day', () => {
    const stored = mergeDay('2026-09-28', undefined, [currencyApiDay('2026-09-28', { USD: 1.16 })]).snapshot;
    const { snapshot, changed } = mergeDay('2026-09-28', stored, [ecbDay('2026-09-28', { USD: 1.17 })]);
    expect(snapshot.rates.USD).toBe(1.17);
    expect(snapshot.sources.USD).toBe('ecb');
    expect(snapshot.sources.AED).toBe('currency-api');
    expect(changed).toEqual(['CHF', 'GBP', 'JPY', 'USD']);
    expect(snapshot.publishedAt).toBe(ecbPublishedAt('2026-09-28'));
  });

  it('lets a late currency-api day only fill currencies a stored ECB day lacks', () => {
    const stored = mergeDay('2026-09-28', undefined, [ecbDay('2026-09-28', { USD: 1.17 })]).snapshot;
    const { snapshot, changed } = mergeDay('2026-09-28', stored, [currencyApiDay('2026-09-28', { USD: 1.5 })]);
    expect(snapshot.rates.USD).toBe(1.17);
    expect(changed).toEqual(['AED']);
    expect(snapshot.publishedAt).toBe(stored.publishedAt);
  });

  it('never changes a stored value from the same source', () => {
    const stored = mergeDay('2026-09-28', undefined, [currencyApiDay('2026-09-28')]).snapshot;
    const { snapshot, changed } = mergeDay('2026-09-28', stored, [currencyApiDay('2026-09-28', { USD: 9.99 })]);
    expect(changed).toEqual([]);
    expect(sameSnapshot(snapshot, stored)).toBe(true);
  });
});

describe('buildLatest', () => {
  const friday = '2026-09-25';
  const sunday = '2026-09-27';
  const days = [
    mergeDay(friday, undefined, [ecbDay(friday, { USD: 1.17 }), currencyApiDay(friday)]).snapshot,
    mergeDay(sunday, undefined, [currencyApiDay(sunday, { USD: 1.18, GBP: 0.86 })]).snapshot,
  ];

  it("merges each source's newest day, ECB winning for its currencies", () => {
    const build = buildLatest(days);
    expect(build?.contributing).toEqual({ ecb: friday, 'currency-api': sunday });
    expect(build?.latest.rates.USD).toBe(1.17);
    expect(build?.latest.sources.USD).toBe('ecb');
    expect(build?.latest.rates.AED).toBe(4.04);
    expect(build?.latest.sources.AED).toBe('currency-api');
  });

  it('dates LATEST by the newest contributing day and its newest publication', () => {
    const build = buildLatest(days);
    expect(build?.latest.date).toBe(sunday);
    expect(build?.latest.publishedAt).toBe(currencyApiPublishedAt(sunday));
    expect(ecbPublishedAt(friday) < currencyApiPublishedAt(sunday)).toBe(true);
  });

  it(`leaves out a source more than ${LATEST_DAILY_LAG_DAYS} days behind the newest day`, () => {
    const newest = addDays(friday, LATEST_DAILY_LAG_DAYS + 1);
    const late = [days[0], mergeDay(newest, undefined, [currencyApiDay(newest, { USD: 1.18 })]).snapshot].flatMap(
      (d) => (d ? [d] : []),
    );
    const build = buildLatest(late);
    expect(build?.contributing).toEqual({ 'currency-api': newest });
    expect(build?.latest.rates.USD).toBe(1.18);
    expect(build?.latest.sources.USD).toBe('currency-api');
  });

  it(`still takes a source exactly ${LATEST_DAILY_LAG_DAYS} days behind`, () => {
    const newest = addDays(friday, LATEST_DAILY_LAG_DAYS);
    const edge = [days[0], mergeDay(newest, undefined, [currencyApiDay(newest)]).snapshot].flatMap((d) =>
      d ? [d] : [],
    );
    expect(buildLatest(edge)?.contributing.ecb).toBe(friday);
  });

  it('serves active currencies only, leaving withdrawn ones to their historical days', () => {
    const day = mergeDay('2007-12-31', undefined, [ecbDay('2007-12-31', { CYP: 0.585 })]).snapshot;
    expect(day.rates.CYP).toBe(0.585);
    expect(buildLatest([day])?.latest.rates.CYP).toBeUndefined();
  });

  it('returns nothing without days', () => {
    expect(buildLatest([])).toBeUndefined();
    expect(newestDate([])).toBeUndefined();
    expect(newestDate(['2026-01-02', '2026-01-10', '2025-12-31'])).toBe('2026-01-10');
  });
});
