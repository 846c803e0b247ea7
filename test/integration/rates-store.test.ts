import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { RateSnapshot } from '../../lambdas/core/domain/rates';
import { RatesStore } from '../../lambdas/core/store/rates-store';
import { backends, freshTables } from '../support/backends';

const day = (date: string, usd: number): RateSnapshot => ({
  date,
  rates: { EUR: 1, USD: usd, JPY: 133.73, AED: 4.17 },
  sources: { USD: 'ecb', JPY: 'ecb', AED: 'currency-api' },
  publishedAt: `${date}T15:00:00Z`,
});

describe.each(backends())('RatesStore on $name', (backend) => {
  let store: RatesStore;
  let tables: Awaited<ReturnType<typeof freshTables>>;

  beforeAll(async () => {
    tables = await freshTables(backend);
    store = new RatesStore(tables.client, tables.ratesTable);
  });

  it('round-trips a day snapshot with rates, per-currency sources and publication time', async () => {
    await store.putDay(day('1999-01-04', 1.1789));
    expect(await store.getDay('1999-01-04')).toEqual(day('1999-01-04', 1.1789));
  });

  it('stores sources compactly as one code list per source', async () => {
    const raw = await tables.client.send(
      new GetCommand({ TableName: tables.ratesTable, Key: { pk: 'DAY#1999-01-04' } }),
    );
    expect(raw.Item?.sources).toEqual({ ecb: 'JPY,USD', 'currency-api': 'AED' });
  });

  it('keeps LATEST apart from the days', async () => {
    await store.putLatest(day('2026-09-29', 1.17));
    expect((await store.getLatest())?.rates.USD).toBe(1.17);
    expect(await store.getDay('2026-09-29')).toBeUndefined();
  });

  it('returns undefined for a day that was never written', async () => {
    expect(await store.getDay('2001-02-03')).toBeUndefined();
  });

  it('batch-writes and batch-reads more days than one call carries', async () => {
    const days = Array.from({ length: 130 }, (_, i) =>
      day(new Date(Date.UTC(2010, 0, 1 + i)).toISOString().slice(0, 10), 1 + i / 1000),
    );
    expect(await store.putDays(days)).toBe(130);
    const read = await store.getDays([...days.map((d) => d.date), '1990-01-01']);
    expect(read.size).toBe(130);
    expect(read.get('2010-01-01')?.rates.USD).toBe(1);
    expect(read.get(days[129]?.date ?? '')?.rates.USD).toBeCloseTo(1.129, 10);
  });
});
