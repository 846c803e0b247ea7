import type { RateSnapshot } from '../../../lambdas/core/domain/rates';
import type { CurrencyYear } from '../../../lambdas/core/domain/series';
import {
  PAIR_CACHE_SIZE,
  RateReader,
  type SnapshotSource,
  seriesExpiry,
} from '../../../lambdas/core/service/rate-reader';

const MINUTE = 60_000;

/** A source of series items only, counting its reads; reads can be held until released. */
class SeriesSource implements SnapshotSource {
  readonly items = new Map<string, CurrencyYear>();
  readonly reads: string[] = [];
  hold = false;
  private held: (() => void)[] = [];
  async getLatest(): Promise<RateSnapshot | undefined> {
    return undefined;
  }
  async getDay(): Promise<RateSnapshot | undefined> {
    return undefined;
  }
  async getSeries(code: string, year: number): Promise<CurrencyYear | undefined> {
    this.reads.push(`${code}#${year}`);
    if (this.hold) await new Promise<void>((resolve) => this.held.push(resolve));
    const item = this.items.get(`${code}#${year}`);
    // A fresh object per read, as a store returns.
    return item && { ...item, dates: [...item.dates], rates: [...item.rates] };
  }
  put(code: string, year: number, days: Record<string, number>): void {
    const dates = Object.keys(days).sort();
    this.items.set(`${code}#${year}`, { code, year, dates, rates: dates.map((d) => days[d] as number) });
  }
  release(): void {
    for (const resolve of this.held.splice(0)) resolve();
  }
}

function setup(now: string, options: ConstructorParameters<typeof RateReader>[2] = {}) {
  const source = new SeriesSource();
  let at = Date.parse(now);
  const reader = new RateReader(source, () => new Date(at), options);
  return { source, reader, advance: (ms: number) => (at += ms) };
}

describe('seriesExpiry', () => {
  const at = (iso: string) => Date.parse(iso);
  it('keeps a year that ended more than 7 days ago for good', () => {
    expect(seriesExpiry(2025, true, at('2026-01-08T00:00:00Z'), MINUTE)).toBe(Number.POSITIVE_INFINITY);
    expect(seriesExpiry(1999, true, at('2026-09-30T00:00:00Z'), MINUTE)).toBe(Number.POSITIVE_INFINITY);
  });
  it('keeps the current year, a year ended within the week, and a missing item for the TTL only', () => {
    const now = at('2026-01-07T23:59:59Z');
    expect(seriesExpiry(2025, true, now, MINUTE)).toBe(now + MINUTE);
    expect(seriesExpiry(2026, true, now, MINUTE)).toBe(now + MINUTE);
    expect(seriesExpiry(1999, false, now, MINUTE)).toBe(now + MINUTE);
  });
});

describe('RateReader series cache', () => {
  it('reads a final year once, and the current year again after the TTL', async () => {
    const { source, reader, advance } = setup('2026-09-30T12:00:00Z');
    source.put('USD', 2025, { '2025-06-02': 1.1 });
    source.put('USD', 2026, { '2026-06-02': 1.2 });
    await reader.getSeries('USD', 2025);
    await reader.getSeries('USD', 2026);
    advance(MINUTE + 1);
    await reader.getSeries('USD', 2025);
    await reader.getSeries('USD', 2026);
    expect(source.reads).toEqual(['USD#2025', 'USD#2026', 'USD#2026']);
  });

  it('shares one read between concurrent misses', async () => {
    const { source, reader } = setup('2026-09-30T12:00:00Z');
    source.put('JPY', 2026, { '2026-06-02': 160 });
    source.hold = true;
    const pending = [reader.getSeries('JPY', 2026), reader.getSeries('JPY', 2026), reader.getSeries('JPY', 2026)];
    source.release();
    const [a, b, c] = await Promise.all(pending);
    expect(source.reads).toEqual(['JPY#2026']);
    expect(a).toBe(b);
    expect(b).toBe(c);
  });

  it('keeps an unchanged item, and the pair points computed from it, across a re-read; a changed one replaces them', async () => {
    const { source, reader, advance } = setup('2026-09-30T12:00:00Z');
    source.put('USD', 2026, { '2026-06-01': 1.1, '2026-06-02': 1.2 });
    source.put('JPY', 2026, { '2026-06-01': 160, '2026-06-02': 161 });
    const usd = await reader.getSeries('USD', 2026);
    const jpy = await reader.getSeries('JPY', 2026);
    if (!usd || !jpy) throw new Error('no series');
    const points = reader.pairPoints(usd, jpy);
    expect(reader.pairPoints(usd, jpy)).toBe(points);
    advance(MINUTE + 1);
    expect(await reader.getSeries('USD', 2026)).toBe(usd);
    source.put('JPY', 2026, { '2026-06-01': 160, '2026-06-02': 161, '2026-06-03': 162 });
    source.put('USD', 2026, { '2026-06-01': 1.1, '2026-06-02': 1.2, '2026-06-03': 1.3 });
    advance(MINUTE + 1);
    const usd2 = await reader.getSeries('USD', 2026);
    const jpy2 = await reader.getSeries('JPY', 2026);
    if (!usd2 || !jpy2) throw new Error('no series');
    expect(usd2).not.toBe(usd);
    expect(reader.pairPoints(usd2, jpy2).map((p) => p.date)).toEqual(['2026-06-01', '2026-06-02', '2026-06-03']);
  });

  it(`keeps at most ${PAIR_CACHE_SIZE} pairs' points, the least recently used leaving first`, () => {
    const { reader } = setup('2026-09-30T12:00:00Z');
    const year = (code: string): CurrencyYear => ({ code, year: 2025, dates: ['2025-06-02'], rates: [2] });
    const eur = year('BBB');
    const first = year('AAA');
    const kept = reader.pairPoints(eur, first);
    for (let i = 0; i < PAIR_CACHE_SIZE * 3; i++) {
      reader.pairPoints(eur, year(`X${String(i).padStart(4, '0')}`));
      // Used again and again, the first pair stays.
      if (i % 100 === 0) expect(reader.pairPoints(eur, first)).toBe(kept);
    }
    expect(reader.pairCacheSize).toBe(PAIR_CACHE_SIZE);
    expect(reader.pairPoints(eur, first)).toBe(kept);
    // An evicted pair is computed anew, from its items.
    const evicted = year('X0001');
    expect(reader.pairPoints(eur, evicted)).toEqual([{ date: '2025-06-02', rate: 1 }]);
  });

  it('remembers a missing item for the TTL only', async () => {
    const { source, reader, advance } = setup('2026-09-30T12:00:00Z');
    expect(await reader.getSeries('AED', 2020)).toBeUndefined();
    expect(await reader.getSeries('AED', 2020)).toBeUndefined();
    advance(MINUTE + 1);
    source.put('AED', 2020, { '2020-03-02': 4.0 });
    expect((await reader.getSeries('AED', 2020))?.rates).toEqual([4]);
    expect(source.reads).toEqual(['AED#2020', 'AED#2020']);
  });

  it('evicts the least recently used item beyond its size', async () => {
    const { source, reader } = setup('2026-09-30T12:00:00Z', { seriesCacheSize: 2 });
    for (const code of ['USD', 'JPY', 'GBP']) source.put(code, 2020, { '2020-03-02': 1 });
    await reader.getSeries('USD', 2020);
    await reader.getSeries('JPY', 2020);
    await reader.getSeries('USD', 2020);
    await reader.getSeries('GBP', 2020);
    await reader.getSeries('USD', 2020);
    await reader.getSeries('JPY', 2020);
    expect(source.reads).toEqual(['USD#2020', 'JPY#2020', 'GBP#2020', 'JPY#2020']);
  });

  it('answers no series from a source that has none', async () => {
    const source: SnapshotSource = { getLatest: async () => undefined, getDay: async () => undefined };
    const reader = new RateReader(source, () => new Date());
    expect(await reader.getSeries('USD', 2026)).toBeUndefined();
  });
});
