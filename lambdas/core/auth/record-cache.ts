/**
 * A small time-bounded cache for key and account records: a revoked key or a suspended account is seen within
 * `ttlMs` (the API reference allows 60 s). Absent records are cached too, so a stream of unknown keys costs one read
 * per key per TTL. The oldest entries go first when the cache is full.
 */
export class RecordCache<T> {
  private readonly entries = new Map<string, { value: T | undefined; expires: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number,
  ) {}

  async get(key: string, load: () => Promise<T | undefined>): Promise<T | undefined> {
    const at = this.now();
    const hit = this.entries.get(key);
    if (hit && hit.expires > at) return hit.value;
    const value = await load();
    this.entries.delete(key);
    this.entries.set(key, { value, expires: at + this.ttlMs });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
    return value;
  }

  clear(): void {
    this.entries.clear();
  }
}
