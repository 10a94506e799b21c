/**
 * A keyed in-memory cache that loads on a miss, shares one load among concurrent callers, and never
 * keeps a value that an invalidation raced: if `invalidate(key)` runs while a load is in flight, the
 * load is repeated, so a change committed during the read cannot be hidden by its stale result.
 * Misses (null) are remembered for `negativeTtlMs`. The oldest entries go first past `maxEntries`.
 */
import type { Clock } from "./clock";

interface Entry<V> {
  value: V | null;
  loadedAt: number;
}

export class LoadingCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly inflight = new Map<string, Promise<V | null>>();
  private readonly versions = new Map<string, number>();
  private epoch = 0;

  constructor(
    private readonly load: (key: string) => Promise<V | null>,
    private readonly clock: Clock,
    private readonly options: { maxEntries: number; negativeTtlMs: number },
  ) {}

  /** The cached value, without loading: undefined when absent or a stale miss. */
  peek(key: string): V | null | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.value === null && this.clock.now() - entry.loadedAt > this.options.negativeTtlMs) return undefined;
    return entry.value;
  }

  async get(key: string): Promise<V | null> {
    const cached = this.peek(key);
    if (cached !== undefined) return cached;
    let pending = this.inflight.get(key);
    if (!pending) {
      pending = this.loadFresh(key).finally(() => this.inflight.delete(key));
      this.inflight.set(key, pending);
    }
    return pending;
  }

  private async loadFresh(key: string): Promise<V | null> {
    for (let attempt = 0; ; attempt++) {
      const version = this.versionOf(key);
      const value = await this.load(key);
      if (this.versionOf(key) === version) {
        this.set(key, value);
        return value;
      }
      // Invalidated on every attempt (a key changing without pause): answer, but keep nothing that may be stale.
      if (attempt >= 3) return value;
    }
  }

  private versionOf(key: string): string {
    return `${this.epoch}:${this.versions.get(key) ?? 0}`;
  }

  set(key: string, value: V | null): void {
    this.entries.delete(key);
    this.entries.set(key, { value, loadedAt: this.clock.now() });
    if (this.entries.size > this.options.maxEntries) this.entries.delete(this.entries.keys().next().value!);
  }

  invalidate(key: string): void {
    this.entries.delete(key);
    if (this.versions.size >= this.options.maxEntries) {
      // Forgetting one key's version could set it back to a value a load in flight remembers; a new
      // epoch instead makes every load in flight repeat, which is always safe.
      this.versions.clear();
      this.epoch++;
    }
    this.versions.set(key, (this.versions.get(key) ?? 0) + 1);
  }

  clear(): void {
    this.entries.clear();
    this.versions.clear();
    this.epoch++;
  }
}
