import type { RateSnapshot } from '../../../lambdas/core/domain/rates';
import { planSeries, seriesOfDays, unreadDaysOfBulkYears } from '../../../lambdas/core/ingest/series';

const day = (date: string, rates: Record<string, number>): RateSnapshot => ({
  date,
  rates: { EUR: 1, ...rates },
  sources: {},
  publishedAt: `${date}T14:00:00Z`,
});
const TODAY = '2026-09-30';
const daysOf = (from: string, to: string) => {
  const days: string[] = [];
  for (let d = Date.parse(from); d <= Date.parse(to); d += 86_400_000)
    days.push(new Date(d).toISOString().slice(0, 10));
  return days;
};

describe('planSeries', () => {
  it('sets only the codes whose value changed against the stored day, and removes codes a day lost', () => {
    const stored = new Map([['2026-09-29', day('2026-09-29', { USD: 1.1, JPY: 160, GBP: 0.86 })]]);
    const writes = [day('2026-09-29', { USD: 1.1, JPY: 161, AED: 4.2 })];
    const plan = planSeries({ writes, stored, read: ['2026-09-29'], today: TODAY });
    expect(plan.items).toEqual([]);
    expect(plan.updates).toEqual([
      { code: 'AED', year: 2026, set: { d0929: 4.2 }, remove: [] },
      { code: 'GBP', year: 2026, set: {}, remove: ['d0929'] },
      { code: 'JPY', year: 2026, set: { d0929: 161 }, remove: [] },
    ]);
  });

  it('writes nothing when the days are unchanged', () => {
    const same = day('2026-09-29', { USD: 1.1 });
    expect(
      planSeries({ writes: [same], stored: new Map([[same.date, same]]), read: [same.date], today: TODAY }),
    ).toEqual({ updates: [], items: [] });
  });

  it('groups a run over several days into one update per code and year', () => {
    const writes = [day('2025-12-31', { USD: 1.0 }), day('2026-01-02', { USD: 1.1 }), day('2026-01-05', { USD: 1.2 })];
    const plan = planSeries({ writes, stored: new Map(), read: [], today: TODAY });
    expect(plan.updates.filter((u) => u.code === 'USD')).toEqual([
      { code: 'USD', year: 2025, set: { d1231: 1.0 }, remove: [] },
      { code: 'USD', year: 2026, set: { d0102: 1.1, d0105: 1.2 }, remove: [] },
    ]);
  });

  it('writes whole items for a year read whole, with the stored days of that year kept', () => {
    const read = daysOf('2024-01-01', '2024-12-31');
    const kept = day('2024-03-01', { USD: 1.05, CYP: 0.58 });
    const writes = [day('2024-03-04', { USD: 1.07 })];
    const plan = planSeries({ writes, stored: new Map([[kept.date, kept]]), read, today: TODAY });
    expect(plan.updates).toEqual([]);
    // Only the changed currency's item is written: EUR and USD changed on 03-04, CYP did not.
    expect(plan.items).toEqual([
      { code: 'EUR', year: 2024, dates: ['2024-03-01', '2024-03-04'], rates: [1, 1] },
      { code: 'USD', year: 2024, dates: ['2024-03-01', '2024-03-04'], rates: [1.05, 1.07] },
    ]);
  });

  it('counts the current year as read whole through tomorrow, the ingestion horizon', () => {
    const writes = [day('2026-09-29', { USD: 1.1 })];
    const whole = planSeries({ writes, stored: new Map(), read: daysOf('2026-01-01', '2026-10-01'), today: TODAY });
    expect(whole.items.map((s) => s.code)).toEqual(['EUR', 'USD']);
    const part = planSeries({ writes, stored: new Map(), read: daysOf('2026-01-02', '2026-10-01'), today: TODAY });
    expect(part.items).toEqual([]);
  });
});

describe('unreadDaysOfBulkYears', () => {
  it('lists the unread possible days of each year with at least 28 day writes', () => {
    const writes = daysOf('2026-03-01', '2026-03-28').map((date) => day(date, { USD: 1 }));
    const unread = unreadDaysOfBulkYears(writes, daysOf('2026-01-01', '2026-06-30'), TODAY);
    expect(unread[0]).toBe('2026-07-01');
    expect(unread.at(-1)).toBe('2026-10-01');
    expect(unreadDaysOfBulkYears(writes.slice(1), [], TODAY)).toEqual([]);
  });
});

describe('seriesOfDays', () => {
  it("builds every currency's year series, ascending, by code then year", () => {
    const series = seriesOfDays([
      day('2026-01-05', { USD: 1.2 }),
      day('2025-12-31', { USD: 1 }),
      day('2026-01-02', { USD: 1.1 }),
    ]);
    expect(series).toEqual([
      { code: 'EUR', year: 2025, dates: ['2025-12-31'], rates: [1] },
      { code: 'EUR', year: 2026, dates: ['2026-01-02', '2026-01-05'], rates: [1, 1] },
      { code: 'USD', year: 2025, dates: ['2025-12-31'], rates: [1] },
      { code: 'USD', year: 2026, dates: ['2026-01-02', '2026-01-05'], rates: [1.1, 1.2] },
    ]);
  });
});
