import { LruCache } from '../../../lambdas/core/service/lru-cache';

function setup(ttlMs = 60_000, maxEntries = 100) {
  let now = 1_000_000;
  const cache = new LruCache<{ id: string } | undefined>(maxEntries);
  const loads: string[] = [];
  const get = (key: string, ...value: [{ id: string } | undefined] | []) =>
    cache.load(key, now, ttlMs, () => {
      loads.push(key);
      return Promise.resolve(value.length === 0 ? { id: key } : value[0]);
    });
  return {
    cache,
    loads,
    get,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe('LruCache', () => {
  it('loads a value once and serves it from memory until the time to live ends', async () => {
    const { get, loads, advance } = setup();
    expect(await get('a')).toEqual({ id: 'a' });
    advance(59_999);
    expect(await get('a')).toEqual({ id: 'a' });
    expect(loads).toEqual(['a']);
    advance(1);
    await get('a');
    expect(loads).toEqual(['a', 'a']);
  });

  it('sees a changed value once the time to live has passed', async () => {
    const { get, advance } = setup(1_000);
    await get('k', { id: 'active' });
    expect(await get('k', { id: 'revoked' })).toEqual({ id: 'active' });
    advance(1_000);
    expect(await get('k', { id: 'revoked' })).toEqual({ id: 'revoked' });
  });

  it('caches absent values too', async () => {
    const { get, loads } = setup();
    expect(await get('missing', undefined)).toBeUndefined();
    expect(await get('missing', undefined)).toBeUndefined();
    expect(loads).toEqual(['missing']);
  });

  it('keeps entries apart by key', async () => {
    const { get } = setup();
    await get('a');
    expect(await get('b')).toEqual({ id: 'b' });
  });

  it('does not cache a failed load', async () => {
    const { cache, get, loads } = setup();
    await expect(cache.load('a', 0, 1_000, () => Promise.reject(new Error('throttled')))).rejects.toThrow('throttled');
    expect(await get('a')).toEqual({ id: 'a' });
    expect(loads).toEqual(['a']);
  });

  it('drops the least recently used entry when full', async () => {
    const { get, loads } = setup(60_000, 2);
    await get('a');
    await get('b');
    await get('a');
    await get('c');
    expect(loads).toEqual(['a', 'b', 'c']);
    await get('a');
    expect(loads).toEqual(['a', 'b', 'c']);
    await get('b');
    expect(loads).toEqual(['a', 'b', 'c', 'b']);
  });

  it('keeps an expired value for peek but not for get', () => {
    const cache = new LruCache<string>(2);
    cache.set('a', 'old', 10);
    expect(cache.get('a', 9)?.value).toBe('old');
    expect(cache.get('a', 10)).toBeUndefined();
    expect(cache.peek('a')).toBe('old');
    expect(cache.size).toBe(1);
  });

  it('forgets everything on clear', async () => {
    const { cache, get, loads } = setup();
    await get('a');
    cache.clear();
    await get('a');
    expect(loads).toEqual(['a', 'a']);
  });
});
