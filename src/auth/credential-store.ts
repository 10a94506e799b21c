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
import type { Sql } from "../db/client";
import type { Clock } from "../lib/clock";
import { sha256Hex } from "../lib/hash";
import { LoadingCache } from "../lib/loading-cache";
import type { KeyType } from "./kinds";
import { findKeyByHash, findKeyById, findSessionByHash, touchKeys } from "./repo";
import type { KeyRow } from "./rows";
import type { Environment, Tenant } from "../lib/tenant";

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
  operatorId: string;
  memberId: string;
  /** the membership's roles and status when loaded: a change evicts the session (NOTIFY with the member id) */
  roles: string[];
  memberActive: boolean;
  expiresAt: number;
  revokedAt: number | null;
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
  // Each lookup is synchronous when cached, so the hot path pays no promise for a warm key, and
  // concurrent misses of one key share one load (a busy key that expires is read once).
  private readonly keysByRaw: LoadingCache<KeyRecord>;
  /** by `team|environment|id`: an embed token names its issuing key within its own tenant */
  private readonly keysById: LoadingCache<KeyRecord>;
  private readonly sessions: LoadingCache<SessionRecord>;
  /** key id -> when last used, since the last flush */
  private used = new Map<string, number>();
  /**
   * The tenant of every key this store has loaded, so the lastUsedAt flush can name each key's team and
   * environment, as every tenant statement does. A key's tenant never changes, so no entry goes stale;
   * there is one per key this process has seen, and a key is only ever marked used after this store
   * resolved it.
   */
  private readonly tenantOfKey = new Map<string, Tenant>();
  private flushTimer: ReturnType<typeof setInterval> | undefined;
  private unlisten: (() => Promise<void>) | undefined;

  constructor(
    private sql: Sql,
    private clock: Clock,
    ttlMs: number,
    private onFlushError: (error: unknown) => void = () => {},
  ) {
    const options = { maxEntries: MAX_ENTRIES, ttlMs, negativeTtlMs: Math.min(ttlMs, NEGATIVE_TTL_MS) };
    this.keysByRaw = new LoadingCache(async (raw) => this.loadedKey(await findKeyByHash(this.sql, sha256Hex(raw))), clock, options);
    this.keysById = new LoadingCache(async (key) => this.loadedKey(await findKeyById(this.sql, key.split("|"))), clock, options);
    this.sessions = new LoadingCache(
      async (hash) => {
        const r = await findSessionByHash(this.sql, hash);
        if (!r) return null;
        return {
          id: r.id,
          teamId: r.team_id,
          environment: r.environment,
          operatorId: r.operator_id,
          memberId: r.member_id,
          roles: r.roles,
          memberActive: r.member_status === "active",
          expiresAt: r.expires_at.getTime(),
          revokedAt: r.revoked_at?.getTime() ?? null,
        };
      },
      clock,
      options,
    );
  }

  private loadedKey(row: KeyRow | undefined): KeyRecord | null {
    if (!row) return null;
    this.tenantOfKey.set(row.id, { teamId: row.team_id, environment: row.environment });
    return toKey(row);
  }

  /** Subscribes to revocations from every instance and starts the lastUsedAt flusher. */
  async start(): Promise<void> {
    // Revocations sent while the listener was disconnected are lost: every (re)connection starts clean.
    const sub = await this.sql.listen(
      "credential_revoked",
      (id) => this.evict(id),
      () => this.clear(),
    );
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
    return this.keysByRaw.lookup(raw);
  }

  keyById(teamId: string, environment: Environment, id: string): KeyRecord | null | Promise<KeyRecord | null> {
    return this.keysById.lookup(`${teamId}|${environment}|${id}`);
  }

  sessionByHash(hash: string): SessionRecord | null | Promise<SessionRecord | null> {
    return this.sessions.lookup(hash);
  }

  /**
   * Drops every cached entry of a credential id (key or session), or every session of a team member
   * (whose roles changed or who was removed). A load already under way may have read the row before the
   * change: it is repeated before anyone is answered from it.
   */
  evict(id: string): void {
    const ofCredential = (_key: string, value: { id: string } | null) => value?.id === id;
    this.keysByRaw.invalidateWhere(ofCredential);
    this.keysById.invalidateWhere((key, value) => ofCredential(key, value) || key.endsWith(`|${id}`));
    this.sessions.invalidateWhere((key, value) => ofCredential(key, value) || value?.memberId === id);
  }

  /** Drops every cached credential; each is read again on its next use. */
  clear(): void {
    this.keysByRaw.clear();
    this.keysById.clear();
    this.sessions.clear();
  }

  markUsed(keyId: string): void {
    this.used.set(keyId, this.clock.now());
  }

  async flushLastUsed(): Promise<void> {
    if (this.used.size === 0) return;
    const batch = this.used;
    this.used = new Map();
    try {
      // The auth plugin marks only keys this store resolved; an id it never loaded has no tenant here and is left out.
      const ids = [...batch.keys()].filter((id) => this.tenantOfKey.has(id));
      const tenants = ids.map((id) => this.tenantOfKey.get(id)!);
      await touchKeys(
        this.sql,
        ids.map((id, i) => ({ tenant: tenants[i]!, keyId: id, usedAt: batch.get(id)! })),
      );
    } catch (error) {
      // Put the batch back (newer uses recorded meanwhile win) so the next flush retries it.
      for (const [id, at] of batch) if ((this.used.get(id) ?? 0) < at) this.used.set(id, at);
      throw error;
    }
  }
}
