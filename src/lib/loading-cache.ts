/**
 * A keyed in-memory cache that loads on a miss, shares one load among concurrent callers, and never
 * keeps a value that an invalidation raced: if `invalidate(key)` runs while a load is in flight, the
 * load is repeated, so a change committed during the read cannot be hidden by its stale result.
 * Misses (null) are remembered for `negativeTtlMs`, values for `ttlMs` (default: until invalidated).
 * The oldest entries go first past `maxEntries`.
 */
import type { Clock } from "./clock";

interface Entry<V> {
  value: V | null;
  loadedAt: number;
}

export interface LoadingCacheOptions {
  maxEntries: number;
  negativeTtlMs: number;
  /** Values are read again after this long; unset, they stay until invalidated. */
  ttlMs?: number;
}

export class LoadingCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly inflight = new Map<string, Promise<V | null>>();
  private readonly versions = new Map<string, number>();
  private epoch = 0;

  constructor(
    private readonly load: (key: string) => Promise<V | null>,
    private readonly clock: Clock,
    private readonly options: LoadingCacheOptions,
  ) {}

  /** The cached value, without loading: undefined when absent or past its time to live. */
  peek(key: string): V | null | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    const ttl = entry.value === null ? this.options.negativeTtlMs : this.options.ttlMs;
    if (ttl !== undefined && this.clock.now() - entry.loadedAt > ttl) return undefined;
    return entry.value;
  }

  /** The cached value when there is one (synchronous, for the hot path), else the load's promise. */
  lookup(key: string): V | null | Promise<V | null> {
    const cached = this.peek(key);
    return cached !== undefined ? cached : this.get(key);
  }

  /** The value, loading it on a miss; concurrent callers of one key share one load (one promise). */
  get(key: string): Promise<V | null> {
    const cached = this.peek(key);
    if (cached !== undefined) return Promise.resolve(cached);
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

  /**
   * Drops every entry whose key or value matches. The keys of the loads in flight are not known to
   * match until they return, so every one of them is repeated, as after `clear`.
   */
  invalidateWhere(matches: (key: string, value: V | null) => boolean): void {
    for (const [key, entry] of this.entries) if (matches(key, entry.value)) this.entries.delete(key);
    this.epoch++;
  }

  clear(): void {
    this.entries.clear();
    this.versions.clear();
    this.epoch++;
  }
}
