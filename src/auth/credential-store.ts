/**
 * Looks up API keys and dashboard sessions by the SHA-256 of the presented value, with an in-process
 * cache so the hot path (every /check, every /events) does not read the database per request.
 * API keys are cached by the raw value presented, so a warm lookup is one Map hit: the SHA-256 is
 * computed only on a miss. (The raw value is in this process's memory for the request anyway; it is
 * never written anywhere.)
 *
 * Freshness: a revocation on any instance is broadcast with NOTIFY `credential_revoked` and evicted
 * here at once; a reconnection of that listener (notices may have been missed) clears everything; as a
 * backstop every cached entry is re-read after `ttlMs`. Expiry is checked against the clock on every
 * request, so it never depends on the cache.
 *
 * lastUsedAt: recorded in memory and flushed in one UPDATE per second (and at shutdown), instead of a
 * write per request.
 */
import { queries, run, runOne } from "../db/queries";
import type { Sql } from "../db/client";
import type { Clock } from "../lib/clock";
import { sha256Hex } from "../lib/hash";
import type { Environment, KeyType } from "./kinds";

const Q = queries([
  "api_key_find_by_hash",
  "api_key_find_by_id",
  "api_key_touch_many",
  "dashboard_session_find_by_hash",
]);

export interface KeyRecord {
  id: string;
  teamId: string;
  environment: Environment;
  type: KeyType;
  permissions: string[];
  expiresAt: number | null;
  revokedAt: number | null;
}

export interface SessionRecord {
  id: string;
  teamId: string;
  environment: Environment;
  userEmail: string;
  roles: string[];
  expiresAt: number;
  revokedAt: number | null;
}

interface KeyRow {
  id: string;
  team_id: string;
  environment: Environment;
  type: KeyType;
  permissions: string[];
  expires_at: Date | null;
  revoked_at: Date | null;
}

interface Cached<T> {
  value: T | null;
  loadedAt: number;
}

// Unknown values are cached too (briefly), so a flood of bad keys cannot hammer the database.
const NEGATIVE_TTL_MS = 5_000;
const MAX_ENTRIES = 100_000;

const toKey = (r: KeyRow): KeyRecord => ({
  id: r.id,
  teamId: r.team_id,
  environment: r.environment,
  type: r.type,
  permissions: r.permissions,
  expiresAt: r.expires_at ? r.expires_at.getTime() : null,
  revokedAt: r.revoked_at ? r.revoked_at.getTime() : null,
});

export class CredentialStore {
  private keysByRaw = new Map<string, Cached<KeyRecord>>();
  private keysById = new Map<string, Cached<KeyRecord>>();
  private sessions = new Map<string, Cached<SessionRecord>>();
  private used = new Map<string, number>();
  /** Loads in flight, per cache. */
  private loading = new Map<Map<string, Cached<unknown>>, Map<string, Promise<unknown>>>([
    [this.keysByRaw, new Map()],
    [this.keysById, new Map()],
    [this.sessions, new Map()],
  ]);
  private flushTimer: ReturnType<typeof setInterval> | undefined;
  private unlisten: (() => Promise<void>) | undefined;
  // Bumped by every eviction: a load that started before a revocation must not write its stale row back.
  private generation = 0;

  constructor(
    private sql: Sql,
    private clock: Clock,
    private ttlMs: number,
    private onFlushError: (error: unknown) => void = () => {},
  ) {}

  /** Subscribes to revocations from every instance and starts the lastUsedAt flusher. */
  async start(): Promise<void> {
    // Revocations sent while the listener was disconnected are lost: every (re)connection starts clean.
    const sub = await this.sql.listen("credential_revoked", (id) => this.evict(id), () => this.clear());
    this.unlisten = () => sub.unlisten();
    this.flushTimer = setInterval(() => {
      // A failed flush (database briefly unreachable) must not crash the process; the batch is kept.
      this.flushLastUsed().catch((error) => this.onFlushError(error));
    }, 1_000);
  }

  async stop(): Promise<void> {
    if (this.flushTimer) clearInterval(this.flushTimer);
    await this.flushLastUsed();
    await this.unlisten?.();
  }

  /** The API key whose raw value this is (its SHA-256 matches), or null. */
  keyByRaw(raw: string): KeyRecord | null | Promise<KeyRecord | null> {
    return this.cached(this.keysByRaw, raw, async () => {
      const row = await runOne<KeyRow>(this.sql, Q.api_key_find_by_hash, [sha256Hex(raw)]);
      return row ? toKey(row) : null;
    });
  }

  /** The cached API key of this raw value (null: known not to exist); undefined when it would have to be loaded. */
  peekKeyByRaw(raw: string): KeyRecord | null | undefined {
    return this.fresh(this.keysByRaw, raw, this.clock.now())?.value;
  }

  keyById(teamId: string, environment: Environment, id: string): KeyRecord | null | Promise<KeyRecord | null> {
    return this.cached(this.keysById, id, async () => {
      const row = await runOne<KeyRow>(this.sql, Q.api_key_find_by_id, [teamId, environment, id]);
      return row ? toKey(row) : null;
    });
  }

  sessionByHash(hash: string): SessionRecord | null | Promise<SessionRecord | null> {
    return this.cached(this.sessions, hash, async () => {
      const r = await runOne<{ id: string; team_id: string; environment: Environment; user_email: string; roles: string[]; expires_at: Date; revoked_at: Date | null }>(
        this.sql,
        Q.dashboard_session_find_by_hash,
        [hash],
      );
      if (!r) return null;
      return { id: r.id, teamId: r.team_id, environment: r.environment, userEmail: r.user_email, roles: r.roles, expiresAt: r.expires_at.getTime(), revokedAt: r.revoked_at?.getTime() ?? null };
    });
  }

  /** Drops every cached entry of a credential id (key or session). */
  evict(id: string): void {
    this.generation++;
    // A load already under way may have read the row before the revocation: later callers start anew.
    for (const inflight of this.loading.values()) inflight.clear();
    for (const map of [this.keysByRaw, this.keysById, this.sessions] as Map<string, Cached<{ id: string }>>[]) {
      for (const [k, entry] of map) if (entry.value?.id === id || k === id) map.delete(k);
    }
  }

  /** Drops every cached credential; each is read again on its next use. */
  clear(): void {
    this.generation++;
    for (const inflight of this.loading.values()) inflight.clear();
    for (const map of [this.keysByRaw, this.keysById, this.sessions] as Map<string, unknown>[]) map.clear();
  }

  markUsed(keyId: string): void {
    this.used.set(keyId, this.clock.now());
  }

  async flushLastUsed(): Promise<void> {
    if (this.used.size === 0) return;
    const batch = this.used;
    this.used = new Map();
    try {
      await run(this.sql, Q.api_key_touch_many, [[...batch.keys()], [...batch.values()].map((ms) => new Date(ms).toISOString())]);
    } catch (error) {
      // Put the batch back (newer uses recorded meanwhile win) so the next flush retries it.
      for (const [id, at] of batch) if ((this.used.get(id) ?? 0) < at) this.used.set(id, at);
      throw error;
    }
  }

  private fresh<T>(map: Map<string, Cached<T>>, key: string, now: number): Cached<T> | undefined {
    const hit = map.get(key);
    return hit && now - hit.loadedAt < (hit.value ? this.ttlMs : Math.min(this.ttlMs, NEGATIVE_TTL_MS)) ? hit : undefined;
  }

  /**
   * Synchronous when cached, so the hot path pays no promise for a warm key. Concurrent misses of one
   * key share one load, so a busy key that expires is read once, not once per request.
   */
  private cached<T>(map: Map<string, Cached<T>>, key: string, load: () => Promise<T | null>): T | null | Promise<T | null> {
    const now = this.clock.now();
    const hit = this.fresh(map, key, now);
    if (hit) return hit.value;
    const inflight = this.loading.get(map)!;
    let loading = inflight.get(key) as Promise<T | null> | undefined;
    if (loading) return loading;
    const generation = this.generation;
    loading = load()
      .then((value) => {
        if (generation !== this.generation) return value;
        // Maps iterate in insertion order: drop the oldest entry, keep the warm ones.
        if (map.size >= MAX_ENTRIES) map.delete(map.keys().next().value!);
        map.set(key, { value, loadedAt: now });
        return value;
      })
      .finally(() => {
        if (inflight.get(key) === loading) inflight.delete(key);
      });
    inflight.set(key, loading);
    return loading;
  }
}
