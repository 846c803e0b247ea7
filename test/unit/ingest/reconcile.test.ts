import { addDays } from '../../../lambdas/core/domain/dates';
import type { RateSnapshot } from '../../../lambdas/core/domain/rates';
import { mergeDay } from '../../../lambdas/core/ingest/merge';
import { datesToRead, reconcile } from '../../../lambdas/core/ingest/reconcile';
import { JUMP_LOOKBACK_DAYS, relativeMove } from '../../../lambdas/core/ingest/validate';
import type { SourceDay } from '../../../lambdas/core/sources/source-day';
import { bundledFiles, readBundledDays } from '../../../local-server/bundled-data';
import { byDate, currencyApiDay, ecbDay, MAJORS } from './fixtures';

const today = '2026-09-30';

/** Runs reconcile and applies its writes, the way the ingestion service does. */
function apply(stored: Map<string, RateSnapshot>, latest: RateSnapshot | undefined, fetched: SourceDay[]) {
  const result = reconcile({ fetched, stored, storedLatest: latest, today });
  for (const day of result.writes) stored.set(day.date, day);
  return result;
}

describe('reconcile: writing days', () => {
  it('writes every new day and a LATEST, then nothing on an identical second run', () => {
    const fetched = [ecbDay('2026-09-24'), ecbDay('2026-09-25'), currencyApiDay('2026-09-26')];
    const stored = new Map<string, RateSnapshot>();
    const first = apply(stored, undefined, fetched);
    expect(first.writes.map((d) => d.date)).toEqual(['2026-09-24', '2026-09-25', '2026-09-26']);
    expect(first.latest?.date).toBe('2026-09-26');
    const second = apply(stored, first.latest, fetched);
    expect(second.writes).toEqual([]);
    expect(second.unchanged).toBe(3);
    expect(second.latest).toBeUndefined();
    expect(second.finalLatest).toEqual(first.latest);
  });

  it('fills a stored currency-api day with a late ECB day, ECB winning', () => {
    const stored = new Map<string, RateSnapshot>();
    const first = apply(stored, undefined, [currencyApiDay('2026-09-25', { USD: 1.16 })]);
    const second = apply(stored, first.latest, [ecbDay('2026-09-25', { USD: 1.17 })]);
    expect(second.writes).toHaveLength(1);
    expect(stored.get('2026-09-25')?.rates.USD).toBe(1.17);
    expect(stored.get('2026-09-25')?.sources.USD).toBe('ecb');
    expect(stored.get('2026-09-25')?.sources.AED).toBe('currency-api');
    expect(second.latest?.sources.USD).toBe('ecb');
  });

  it('does not let currency-api change a stored ECB value', () => {
    const stored = new Map<string, RateSnapshot>();
    const first = apply(stored, undefined, [ecbDay('2026-09-25', { USD: 1.17 })]);
    apply(stored, first.latest, [currencyApiDay('2026-09-25', { USD: 1.2 })]);
    expect(stored.get('2026-09-25')?.rates.USD).toBe(1.17);
    expect(stored.get('2026-09-25')?.rates.AED).toBe(4.04);
  });

  it('rebases a day quoted against another currency', () => {
    const usdBased: SourceDay = {
      ...currencyApiDay('2026-09-25'),
      base: 'USD',
      rates: { USD: 1, EUR: 0.8, GBP: 0.68, JPY: 128, CHF: 0.76 },
    };
    const result = reconcile({ fetched: [usdBased], stored: new Map(), today });
    expect(result.writes[0]?.rates.USD).toBeCloseTo(1.25, 12);
    expect(result.writes[0]?.rates.GBP).toBeCloseTo(0.85, 12);
    expect(result.writes[0]?.rates.EUR).toBe(1);
  });

  it('rejects a source day with no EUR rate to rebase with', () => {
    const noEur: SourceDay = { ...currencyApiDay('2026-09-25'), base: 'USD', rates: { USD: 1, GBP: 0.68 } };
    const result = reconcile({ fetched: [noEur], stored: new Map(), today });
    expect(result.writes).toEqual([]);
    expect(result.rejections).toMatchObject([{ date: '2026-09-25', reason: 'unusable-base' }]);
  });

  it('rejects days after tomorrow and accepts tomorrow', () => {
    const tomorrow = addDays(today, 1);
    const later = addDays(today, 2);
    const result = reconcile({ fetched: [currencyApiDay(tomorrow), currencyApiDay(later)], stored: new Map(), today });
    expect(result.writes.map((d) => d.date)).toEqual([tomorrow]);
    expect(result.rejections).toMatchObject([{ date: later, reason: 'future-date', source: 'currency-api' }]);
  });

  it('rejects a day without the majors and keeps the stored one', () => {
    const stored = new Map<string, RateSnapshot>();
    const first = apply(stored, undefined, [ecbDay('2026-09-24', { SEK: 11 })]);
    const broken = ecbDay('2026-09-25');
    delete broken.rates.GBP;
    const second = apply(stored, first.latest, [broken]);
    expect(second.writes).toEqual([]);
    expect(stored.has('2026-09-25')).toBe(false);
    expect(second.rejections).toMatchObject([{ date: '2026-09-25', reason: 'missing-majors' }]);
    expect(second.latest).toBeUndefined();
    expect(second.finalLatest?.date).toBe('2026-09-24');
  });
});

describe('reconcile: the jump rule', () => {
  const monday = '2026-09-21';
  const tuesday = '2026-09-22';
  const wednesday = '2026-09-23';

  function seeded(rates: Record<string, number> = {}, sources = ['ecb', 'currency-api']) {
    const stored = new Map<string, RateSnapshot>();
    const days = [ecbDay(monday, rates), currencyApiDay(monday, rates)].filter((d) => sources.includes(d.source));
    const first = apply(stored, undefined, days);
    return { stored, latest: first.latest };
  }

  it('rejects a whole day when a major jumps in one source without confirmation, and LATEST stays', () => {
    const { stored, latest } = seeded();
    const result = apply(stored, latest, [currencyApiDay(tuesday, { USD: MAJORS.USD * 1.4 })]);
    expect(stored.has(tuesday)).toBe(false);
    expect(result.rejections.map((r) => r.reason).sort()).toEqual(['jump', 'missing-majors']);
    expect(result.rejections.find((r) => r.reason === 'jump')).toMatchObject({ code: 'USD', date: tuesday });
    expect(result.latest).toBeUndefined();
    expect(result.finalLatest).toEqual(latest);
  });

  it('accepts the jump when both sources quote it within 2 %', () => {
    const { stored, latest } = seeded();
    const moved = MAJORS.USD * 1.4;
    const result = apply(stored, latest, [
      ecbDay(tuesday, { USD: moved }),
      currencyApiDay(tuesday, { USD: moved * 1.015 }),
    ]);
    expect(result.rejections).toEqual([]);
    expect(stored.get(tuesday)?.rates.USD).toBe(moved);
  });

  it('rejects the jump when the second source disagrees by more than 2 %', () => {
    const { stored, latest } = seeded();
    const moved = MAJORS.USD * 1.4;
    const result = apply(stored, latest, [
      ecbDay(tuesday, { USD: moved }),
      currencyApiDay(tuesday, { USD: moved * 1.03 }),
    ]);
    expect(stored.has(tuesday)).toBe(false);
    expect(result.rejections.some((r) => r.reason === 'jump' && r.code === 'USD')).toBe(true);
  });

  it('lets no next day confirm a jump that the second source contradicts', () => {
    const { stored, latest } = seeded();
    const moved = MAJORS.USD * 1.4;
    const result = apply(stored, latest, [
      ecbDay(tuesday, { USD: moved }),
      currencyApiDay(tuesday, { USD: MAJORS.USD * 1.01 }),
      ecbDay(wednesday, { USD: moved }),
      currencyApiDay(wednesday, { USD: MAJORS.USD * 1.01 }),
    ]);
    expect(stored.get(tuesday)?.rates.USD).not.toBe(moved);
    expect(stored.get(wednesday)?.rates.USD).not.toBe(moved);
    expect(result.rejections.filter((r) => r.reason === 'jump' && r.code === 'USD').length).toBeGreaterThan(0);
  });

  it('accepts a new level the next day holds, and refuses a one-day spike that reverts', () => {
    const level = seeded({ SEK: 11 });
    apply(level.stored, level.latest, [ecbDay(tuesday, { SEK: 16 }), ecbDay(wednesday, { SEK: 16.5 })]);
    expect(level.stored.get(tuesday)?.rates.SEK).toBe(16);
    expect(level.stored.get(wednesday)?.rates.SEK).toBe(16.5);

    const spike = seeded({ SEK: 11 });
    const result = apply(spike.stored, spike.latest, [ecbDay(tuesday, { SEK: 16 }), ecbDay(wednesday, { SEK: 11.1 })]);
    expect(spike.stored.get(tuesday)?.rates.SEK).toBeUndefined();
    expect(spike.stored.get(tuesday)?.rates.USD).toBe(MAJORS.USD);
    expect(spike.stored.get(wednesday)?.rates.SEK).toBe(11.1);
    expect(result.rejections).toMatchObject([{ date: tuesday, code: 'SEK', reason: 'jump' }]);
  });

  it('holds back a jump on the newest day, keeps the last served value in LATEST, and takes it once confirmed', () => {
    // currency-api only: a recent ECB day would serve its own SEK in LATEST regardless.
    const { stored, latest } = seeded({ SEK: 11 }, ['currency-api']);
    const held = apply(stored, latest, [currencyApiDay(tuesday, { SEK: 16 })]);
    expect(stored.get(tuesday)?.rates.SEK).toBeUndefined();
    expect(held.latest?.date).toBe(tuesday);
    expect(held.latest?.rates.SEK).toBe(11);
    const again = apply(stored, held.latest, [currencyApiDay(tuesday, { SEK: 16 })]);
    expect(again.writes).toEqual([]);
    expect(again.latest).toBeUndefined();
    const confirmed = apply(stored, held.latest, [
      currencyApiDay(tuesday, { SEK: 16 }),
      currencyApiDay(wednesday, { SEK: 16.2 }),
    ]);
    expect(stored.get(tuesday)?.rates.SEK).toBe(16);
    expect(confirmed.latest?.rates.SEK).toBe(16.2);
  });

  it('does not treat a currency that newly appears, or returns after a long gap, as a jump', () => {
    const { stored, latest } = seeded();
    apply(stored, latest, [currencyApiDay(tuesday, { SEK: 11 })]);
    expect(stored.get(tuesday)?.rates.SEK).toBe(11);
    const back = addDays(tuesday, JUMP_LOOKBACK_DAYS + 1);
    apply(stored, undefined, [currencyApiDay(back, { SEK: 30 })]);
    expect(stored.get(back)?.rates.SEK).toBe(30);
  });

  it('compares with the last accepted rate across a missing day within the lookback', () => {
    const { stored, latest } = seeded({ SEK: 11 });
    const result = apply(stored, latest, [currencyApiDay(wednesday, { SEK: 30 })]);
    expect(result.rejections).toMatchObject([{ date: wednesday, code: 'SEK', reason: 'jump' }]);
  });
});

describe('reconcile: LATEST', () => {
  it('is not fed by a source more than four days behind', () => {
    const result = reconcile({
      fetched: [ecbDay('2026-09-21', { USD: 1.2 }), currencyApiDay('2026-09-26', { USD: 1.19 })],
      stored: new Map(),
      today,
    });
    expect(result.contributing).toEqual({ 'currency-api': '2026-09-26' });
    expect(result.latest?.rates.USD).toBe(1.19);
  });

  it('is left alone by a backfill of old days', () => {
    const stored = new Map<string, RateSnapshot>();
    const first = apply(stored, undefined, [currencyApiDay('2026-09-26')]);
    const backfill = apply(stored, first.latest, [ecbDay('2001-02-01'), ecbDay('2001-02-02')]);
    expect(backfill.writes).toHaveLength(2);
    expect(backfill.latest).toBeUndefined();
    expect(backfill.finalLatest).toEqual(first.latest);
  });

  it('never moves back in time when the newest day is rejected', () => {
    const stored = new Map<string, RateSnapshot>();
    const first = apply(stored, undefined, [currencyApiDay('2026-09-26')]);
    const stale: RateSnapshot = { ...(first.latest as RateSnapshot), date: '2026-09-27' };
    const result = apply(stored, stale, [currencyApiDay('2026-09-26')]);
    expect(result.latest).toBeUndefined();
    expect(result.finalLatest).toEqual(stale);
  });
});

describe('datesToRead', () => {
  it('covers the lookback before the first fetched day, the fetched span and LATEST’s window', () => {
    const dates = datesToRead(['2026-09-10', '2026-09-12'], '2026-09-29', today);
    expect(dates[0]).toBe(addDays('2026-09-10', -JUMP_LOOKBACK_DAYS));
    expect(dates).toContain('2026-09-11');
    expect(dates).toContain(addDays('2026-09-12', JUMP_LOOKBACK_DAYS));
    // LATEST reads 8 days back: a weekly table's quote may be that old.
    expect(dates).toContain('2026-09-21');
    expect(dates[dates.length - 1]).toBe('2026-09-29');
    expect(dates).not.toContain('2026-09-20');
  });

  it('ignores fetched days after tomorrow', () => {
    expect(datesToRead(['2027-01-01'], undefined, today)).toEqual([]);
  });
});

describe('reconcile over the bundled history', () => {
  const bundled = readBundledDays(bundledFiles());
  const result = reconcile({ fetched: [...bundled.ecb, ...bundled.currencyApi], stored: new Map(), today });

  it('accepts every bundled day with no rejection', () => {
    expect(result.rejections).toEqual([]);
    expect(result.writes).toHaveLength(bundled.ecb.length + bundled.currencyApi.length);
  });

  it('keeps the real one-day moves above 25 % that the next day held', () => {
    const moves: string[] = [];
    for (let i = 1; i < bundled.ecb.length; i++) {
      const [before, after] = [bundled.ecb[i - 1], bundled.ecb[i]];
      for (const [code, rate] of Object.entries(after?.rates ?? {})) {
        const previous = before?.rates[code];
        if (previous !== undefined && relativeMove(previous, rate) > 0.25) moves.push(`${after?.date} ${code}`);
      }
    }
    expect(moves.length).toBeGreaterThan(0);
    const written = byDate(result.writes);
    for (const move of moves) {
      const [date = '', code = ''] = move.split(' ');
      expect(written.get(date)?.rates[code]).toBe(bundled.ecb.find((d) => d.date === date)?.rates[code]);
    }
  });

  it('builds LATEST from currency-api alone, since the bundled ECB history ends months earlier', () => {
    const newestApi = bundled.currencyApi[bundled.currencyApi.length - 1];
    expect(result.latest?.date).toBe(newestApi?.date);
    expect(Object.values(result.latest?.sources ?? {}).every((s) => s === 'currency-api')).toBe(true);
    expect(Object.keys(result.latest?.rates ?? {}).length).toBe(Object.keys(newestApi?.rates ?? {}).length);
  });

  it('stores withdrawn ECB currencies in their days', () => {
    const day = byDate(result.writes).get('2007-12-31');
    expect(day?.rates.CYP).toBeGreaterThan(0);
    expect(day?.sources.CYP).toBe('ecb');
  });

  it('merges ECB and currency-api on a shared day', () => {
    const date = '2026-09-28';
    const merged = mergeDay(date, undefined, [ecbDay(date), ...bundled.currencyApi.filter((d) => d.date === date)]);
    expect(merged.snapshot.sources.USD).toBe('ecb');
    expect(Object.keys(merged.snapshot.rates).length).toBeGreaterThan(150);
  });
});
