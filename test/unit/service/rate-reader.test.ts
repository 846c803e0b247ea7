import { addDays } from '../../../lambdas/core/domain/dates';
import type { RateSnapshot } from '../../../lambdas/core/domain/rates';
import { RateReader, type SnapshotSource } from '../../../lambdas/core/service/rate-reader';

const TODAY = '2026-09-20';
const START = Date.parse(`${TODAY}T12:00:00.000Z`);

function snapshot(date: string, publishedAt = `${date}T15:00:00Z`, usd = 1.1): RateSnapshot {
  return { date, rates: { EUR: 1, USD: usd }, sources: { EUR: 'ecb', USD: 'ecb' }, publishedAt };
}

/** An in-memory snapshot source that counts its reads and can hold them until released. */
class FakeSource implements SnapshotSource {
  latest: RateSnapshot | undefined = snapshot('2026-09-18');
  readonly days = new Map<string, RateSnapshot>();
  latestReads = 0;
  readonly dayReads = new Map<string, number>();
  failNextLatest = false;
  private held: (() => void)[] = [];
  hold = false;

  private async gate(): Promise<void> {
    if (this.hold) await new Promise<void>((resolve) => this.held.push(resolve));
  }

  release(): void {
    for (const resolve of this.held.splice(0)) resolve();
  }

  async getLatest(): Promise<RateSnapshot | undefined> {
    this.latestReads++;
    await this.gate();
    if (this.failNextLatest) {
      this.failNextLatest = false;
      throw new Error('store unavailable');
    }
    return this.latest;
  }

  async getDay(day: string): Promise<RateSnapshot | undefined> {
    this.dayReads.set(day, (this.dayReads.get(day) ?? 0) + 1);
    await this.gate();
    return this.days.get(day);
  }

  readsOf(day: string): number {
    return this.dayReads.get(day) ?? 0;
  }
}

function setup(options: ConstructorParameters<typeof RateReader>[2] = {}) {
  const source = new FakeSource();
  let now = START;
  const clock = () => new Date(now);
  const reader = new RateReader(source, clock, options);
  const advance = (ms: number) => {
    now += ms;
  };
  return { source, reader, advance };
}

describe('RateReader.getLatest', () => {
  it('serves LATEST from memory for 60 s, then reads it again', async () => {
    const { source, reader, advance } = setup();
    expect(await reader.getLatest()).toEqual(snapshot('2026-09-18'));
    expect(source.latestReads).toBe(1);
    advance(59_999);
    await reader.getLatest();
    expect(source.latestReads).toBe(1);
    advance(1);
    await reader.getLatest();
    expect(source.latestReads).toBe(2);
  });

  it('returns the new LATEST once the old one has expired', async () => {
    const { source, reader, advance } = setup();
    await reader.getLatest();
    source.latest = snapshot('2026-09-19');
    expect((await reader.getLatest())?.date).toBe('2026-09-18');
    advance(60_000);
    expect((await reader.getLatest())?.date).toBe('2026-09-19');
  });

  it('honours a configured time to live', async () => {
    const { source, reader, advance } = setup({ latestTtlMs: 5_000 });
    await reader.getLatest();
    advance(4_999);
    await reader.getLatest();
    expect(source.latestReads).toBe(1);
    advance(1);
    await reader.getLatest();
    expect(source.latestReads).toBe(2);
  });

  it('shares one read among concurrent misses', async () => {
    const { source, reader } = setup();
    source.hold = true;
    const pending = Array.from({ length: 10 }, () => reader.getLatest());
    source.release();
    const results = await Promise.all(pending);
    expect(source.latestReads).toBe(1);
    for (const result of results) expect(result).toEqual(snapshot('2026-09-18'));
  });

  it('remembers that there is no LATEST yet for the time to live', async () => {
    const { source, reader, advance } = setup();
    source.latest = undefined;
    expect(await reader.getLatest()).toBeUndefined();
    await reader.getLatest();
    expect(source.latestReads).toBe(1);
    source.latest = snapshot('2026-09-18');
    advance(60_000);
    expect(await reader.getLatest()).toEqual(snapshot('2026-09-18'));
  });

  it('reads again after a failed read instead of caching the failure', async () => {
    const { source, reader } = setup();
    source.failNextLatest = true;
    await expect(reader.getLatest()).rejects.toThrow('store unavailable');
    expect(await reader.getLatest()).toEqual(snapshot('2026-09-18'));
    expect(source.latestReads).toBe(2);
  });
});

describe('RateReader.memo', () => {
  it('computes a derived value once per snapshot and key', async () => {
    const { reader } = setup();
    const latest = (await reader.getLatest()) as RateSnapshot;
    const compute = jest.fn(() => ({ table: 'USD' }));
    const first = reader.memo(latest, 'USD', compute);
    expect(reader.memo(latest, 'USD', compute)).toBe(first);
    expect(compute).toHaveBeenCalledTimes(1);
    reader.memo(latest, 'GBP', compute);
    expect(compute).toHaveBeenCalledTimes(2);
  });

  it('keeps the snapshot object, and so its derived values, when a re-read finds the same LATEST', async () => {
    const { reader, advance } = setup();
    const first = (await reader.getLatest()) as RateSnapshot;
    const compute = jest.fn(() => 'body');
    reader.memo(first, 'USD', compute);
    advance(60_000);
    const again = (await reader.getLatest()) as RateSnapshot;
    expect(again).toBe(first);
    reader.memo(again, 'USD', compute);
    expect(compute).toHaveBeenCalledTimes(1);
  });

  it('derives afresh when LATEST changes', async () => {
    const { source, reader, advance } = setup();
    const first = (await reader.getLatest()) as RateSnapshot;
    const compute = jest.fn(() => 'body');
    reader.memo(first, 'USD', compute);
    source.latest = snapshot('2026-09-19');
    advance(60_000);
    reader.memo((await reader.getLatest()) as RateSnapshot, 'USD', compute);
    expect(compute).toHaveBeenCalledTimes(2);
  });

  it('derives afresh when the same day is published again with new data', async () => {
    const { source, reader, advance } = setup();
    const first = (await reader.getLatest()) as RateSnapshot;
    const compute = jest.fn(() => 'body');
    reader.memo(first, 'USD', compute);
    source.latest = snapshot('2026-09-18', '2026-09-19T00:00:00Z', 1.2);
    advance(60_000);
    reader.memo((await reader.getLatest()) as RateSnapshot, 'USD', compute);
    expect(compute).toHaveBeenCalledTimes(2);
  });

  it('never serves a value derived from an older snapshot for a newer one', async () => {
    const { source, reader, advance } = setup();
    const older = (await reader.getLatest()) as RateSnapshot;
    source.latest = snapshot('2026-09-19');
    advance(60_000);
    const newer = (await reader.getLatest()) as RateSnapshot;
    reader.memo(older, 'USD', () => `from ${older.date}`);
    expect(reader.memo(newer, 'USD', () => `from ${newer.date}`)).toBe('from 2026-09-19');
  });
});

describe('RateReader.getDay', () => {
  it('keeps past days in memory for good', async () => {
    const { source, reader, advance } = setup();
    const day = '2026-01-05';
    source.days.set(day, snapshot(day));
    expect(await reader.getDay(day)).toEqual(snapshot(day));
    advance(365 * 86_400_000);
    expect(await reader.getDay(day)).toEqual(snapshot(day));
    expect(source.readsOf(day)).toBe(1);
  });

  it('reads days of the last 7 days again after 60 s, since a late source may still fill them', async () => {
    const { source, reader, advance } = setup();
    const recent = [TODAY, addDays(TODAY, -1), addDays(TODAY, -7)];
    for (const day of recent) source.days.set(day, snapshot(day));
    for (const day of recent) await reader.getDay(day);
    advance(59_999);
    for (const day of recent) await reader.getDay(day);
    expect(recent.map((d) => source.readsOf(d))).toEqual([1, 1, 1]);
    advance(1);
    for (const day of recent) await reader.getDay(day);
    expect(recent.map((d) => source.readsOf(d))).toEqual([2, 2, 2]);
  });

  it('settles a day once it is more than 7 days old', async () => {
    const { source, reader, advance } = setup();
    const day = addDays(TODAY, -8);
    source.days.set(day, snapshot(day));
    await reader.getDay(day);
    advance(10 * 60_000);
    await reader.getDay(day);
    expect(source.readsOf(day)).toBe(1);
  });

  it('serves the filled-in version of a recent day after its time to live', async () => {
    const { source, reader, advance } = setup();
    const day = addDays(TODAY, -1);
    source.days.set(day, snapshot(day));
    await reader.getDay(day);
    source.days.set(day, snapshot(day, `${day}T16:00:00Z`, 1.3));
    advance(60_000);
    expect((await reader.getDay(day))?.rates.USD).toBe(1.3);
  });

  it('remembers a missing day only for its time to live, even an old one', async () => {
    const { source, reader, advance } = setup({ missingDayTtlMs: 30_000 });
    const day = '2020-01-04';
    expect(await reader.getDay(day)).toBeUndefined();
    advance(29_999);
    expect(await reader.getDay(day)).toBeUndefined();
    expect(source.readsOf(day)).toBe(1);
    source.days.set(day, snapshot(day));
    advance(1);
    expect(await reader.getDay(day)).toEqual(snapshot(day));
    expect(source.readsOf(day)).toBe(2);
  });

  it('gives a day from memory without a read while it is fresh, a known absence as an undefined value', async () => {
    const { source, reader, advance } = setup();
    const day = addDays(TODAY, -1);
    const missing = addDays(TODAY, -2);
    source.days.set(day, snapshot(day));
    expect(reader.cachedDay(day)).toBeUndefined();
    const read = await reader.getDay(day);
    await reader.getDay(missing);
    expect(reader.cachedDay(day)?.value).toBe(read);
    expect(reader.cachedDay(missing)).toHaveProperty('value', undefined);
    expect([source.readsOf(day), source.readsOf(missing)]).toEqual([1, 1]);
    // Past the recent days' time to live, both must be read again: memory no longer answers for them.
    advance(60_000);
    expect(reader.cachedDay(day)).toBeUndefined();
    expect(reader.cachedDay(missing)).toBeUndefined();
  });

  it('evicts the least recently used day at capacity', async () => {
    const { source, reader } = setup({ dayCacheSize: 3 });
    const days = ['2025-01-06', '2025-01-07', '2025-01-08', '2025-01-09'];
    for (const day of days) source.days.set(day, snapshot(day));
    const [d1, d2, d3, d4] = days as [string, string, string, string];
    await reader.getDay(d1);
    await reader.getDay(d2);
    await reader.getDay(d3);
    await reader.getDay(d1);
    await reader.getDay(d4);
    expect(days.map((d) => source.readsOf(d))).toEqual([1, 1, 1, 1]);
    await reader.getDay(d1);
    await reader.getDay(d3);
    await reader.getDay(d4);
    expect(days.map((d) => source.readsOf(d))).toEqual([1, 1, 1, 1]);
    await reader.getDay(d2);
    expect(source.readsOf(d2)).toBe(2);
  });

  it('keeps no more days than its capacity', async () => {
    const { source, reader } = setup({ dayCacheSize: 2 });
    const days = ['2025-02-03', '2025-02-04', '2025-02-05'];
    for (const day of days) source.days.set(day, snapshot(day));
    for (const day of days) await reader.getDay(day);
    for (const day of [...days].reverse()) await reader.getDay(day);
    // The third day evicted the first; reading the first again evicts the least recently used, the third.
    expect(days.map((d) => source.readsOf(d))).toEqual([2, 1, 1]);
    await reader.getDay('2025-02-04');
    await reader.getDay('2025-02-05');
    expect(days.map((d) => source.readsOf(d))).toEqual([2, 1, 2]);
  });
});

describe('RateReader.getDay under concurrency', () => {
  it('shares one read among concurrent misses of the same day', async () => {
    const { source, reader } = setup();
    const day = '2025-03-03';
    source.days.set(day, snapshot(day));
    source.hold = true;
    const pending = Array.from({ length: 10 }, () => reader.getDay(day));
    source.release();
    for (const result of await Promise.all(pending)) expect(result).toEqual(snapshot(day));
    expect(source.readsOf(day)).toBe(1);
  });
});

describe('RateReader.getLatest when a late source changes LATEST', () => {
  it('takes the new rates even when the publication time stays the same', async () => {
    const { source, reader, advance } = setup();
    const first = (await reader.getLatest()) as RateSnapshot;
    source.latest = { ...first, rates: { ...first.rates, USD: 1.25 } };
    advance(60_000);
    const next = (await reader.getLatest()) as RateSnapshot;
    expect(next.rates.USD).toBe(1.25);
    expect(reader.memo(next, 'USD', () => 'fresh')).toBe('fresh');
  });
});

describe('RateReader: the sources status item', () => {
  const status = (fetchedAt: string) => ({
    ecb: {
      origin: 'upstream' as const,
      fetchedAt,
      publishedDate: '2026-09-18',
      publishedAt: '2026-09-18T14:00:00Z',
      currencies: ['USD'],
    },
  });

  it('reads it once per 60 s, shares a read in flight, and reads again after', async () => {
    let now = START;
    let reads = 0;
    let stored = status('2026-09-20T11:00:00Z');
    const source: SnapshotSource = {
      getLatest: async () => undefined,
      getDay: async () => undefined,
      getSourceStatuses: async () => {
        reads++;
        return stored;
      },
    };
    const reader = new RateReader(source, () => new Date(now));
    const [a, b] = await Promise.all([reader.getSourceStatuses(), reader.getSourceStatuses()]);
    expect(a).toEqual(status('2026-09-20T11:00:00Z'));
    expect(b).toBe(a);
    expect(reads).toBe(1);
    stored = status('2026-09-20T12:00:30Z');
    now += 59_999;
    expect(await reader.getSourceStatuses()).toEqual(status('2026-09-20T11:00:00Z'));
    now += 1;
    expect(await reader.getSourceStatuses()).toEqual(status('2026-09-20T12:00:30Z'));
    expect(reads).toBe(2);
  });

  it('has nothing to report from a source that keeps no status', async () => {
    const reader = new RateReader(new FakeSource(), () => new Date(START));
    expect(await reader.getSourceStatuses()).toEqual({});
  });

  it('does not keep a failed read', async () => {
    let fail = true;
    const reader = new RateReader(
      {
        getLatest: async () => undefined,
        getDay: async () => undefined,
        getSourceStatuses: async () => {
          if (fail) throw new Error('store unavailable');
          return status('2026-09-20T11:00:00Z');
        },
      },
      () => new Date(START),
    );
    await expect(reader.getSourceStatuses()).rejects.toThrow('store unavailable');
    fail = false;
    expect(await reader.getSourceStatuses()).toEqual(status('2026-09-20T11:00:00Z'));
  });
});
