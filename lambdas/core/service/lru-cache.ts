/**
 * The one in-memory cache of the functions (records in the authorizer; days, series items and pairs in the rate
 * reader): at most `maxEntries` entries, the least recently used leaving first, each live until its `expires`
 * instant (epoch ms; for good by default). Hand-written: a Map keeps insertion order, which is all an LRU needs.
 */
export class LruCache<V> {
  private readonly entries = new Map<string, { value: V; expires: number }>();

  constructor(private readonly maxEntries: number) {}

  /** The entry while it is live at `now`, made the most recently used; undefined when absent or expired. */
  get(key: string, now = Number.NEGATIVE_INFINITY): { value: V } | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.expires <= now) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  /** The value stored under `key`, expired or not, without making it recent. */
  peek(key: string): V | undefined {
    return this.entries.get(key)?.value;
  }

  set(key: string, value: V, expires = Number.POSITIVE_INFINITY): void {
    this.entries.delete(key);
    this.entries.set(key, { value, expires });
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries) break;
      this.entries.delete(oldest);
    }
  }

  /** The live value, or the one `load` gives (kept for `ttlMs`; a failed load keeps nothing). */
  async load(key: string, now: number, ttlMs: number, load: () => Promise<V>): Promise<V> {
    const hit = this.get(key, now);
    if (hit) return hit.value;
    const value = await load();
    this.set(key, value, now + ttlMs);
    return value;
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
