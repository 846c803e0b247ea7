import { RecordCache } from '../../../lambdas/core/auth/record-cache';

function setup(ttlMs = 60_000, maxEntries = 100) {
  let now = 1_000_000;
  const cache = new RecordCache<{ id: string }>(ttlMs, maxEntries, () => now);
  const loads: string[] = [];
  const loader =
    (key: string, ...value: [{ id: string } | undefined] | []) =>
    () => {
      loads.push(key);
      return Promise.resolve(value.length === 0 ? { id: key } : value[0]);
    };
  return {
    cache,
    loads,
    loader,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('RecordCache', () => {
  it('loads a record once and serves it from memory until the time to live ends', async () => {
    const { cache, loads, loader, advance } = setup();
    expect(await cache.get('a', loader('a'))).toEqual({ id: 'a' });
    advance(59_999);
    expect(await cache.get('a', loader('a'))).toEqual({ id: 'a' });
    expect(loads).toEqual(['a']);
    advance(1);
    await cache.get('a', loader('a'));
    expect(loads).toEqual(['a', 'a']);
  });

  it('sees a changed record once the time to live has passed', async () => {
    const { cache, loader, advance } = setup(1_000);
    await cache.get('k', loader('k', { id: 'active' }));
    expect(await cache.get('k', loader('k', { id: 'revoked' }))).toEqual({ id: 'active' });
    advance(1_000);
    expect(await cache.get('k', loader('k', { id: 'revoked' }))).toEqual({ id: 'revoked' });
  });

  it('caches absent records too', async () => {
    const { cache, loads, loader } = setup();
    expect(await cache.get('missing', loader('missing', undefined))).toBeUndefined();
    expect(await cache.get('missing', loader('missing', undefined))).toBeUndefined();
    expect(loads).toEqual(['missing']);
  });

  it('keeps entries apart by key', async () => {
    const { cache, loader } = setup();
    await cache.get('a', loader('a'));
    expect(await cache.get('b', loader('b'))).toEqual({ id: 'b' });
  });

  it('does not cache a failed load', async () => {
    const { cache, loads, loader } = setup();
    await expect(cache.get('a', () => Promise.reject(new Error('throttled')))).rejects.toThrow('throttled');
    expect(await cache.get('a', loader('a'))).toEqual({ id: 'a' });
    expect(loads).toEqual(['a']);
  });

  it('drops the oldest entries when full', async () => {
    const { cache, loads, loader } = setup(60_000, 2);
    await cache.get('a', loader('a'));
    await cache.get('b', loader('b'));
    await cache.get('c', loader('c'));
    await cache.get('b', loader('b'));
    await cache.get('c', loader('c'));
    expect(loads).toEqual(['a', 'b', 'c']);
    await cache.get('a', loader('a'));
    expect(loads).toEqual(['a', 'b', 'c', 'a']);
  });

  it('forgets everything on clear', async () => {
    const { cache, loads, loader } = setup();
    await cache.get('a', loader('a'));
    cache.clear();
    await cache.get('a', loader('a'));
    expect(loads).toEqual(['a', 'a']);
  });
});
