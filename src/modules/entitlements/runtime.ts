/**
 * The entitlement engine of one instance: catalog and company caches, the meter, and the listener
 * that keeps the caches in step with every other instance.
 *
 * Freshness, stated exactly:
 *  - A consume or track is decided in the database under row locks: exact on any number of instances.
 *  - This instance applies each committed batch to its caches before answering it, so the next check
 *    here sees the usage at once.
 *  - Other instances receive the same values by NOTIFY at commit (milliseconds on one database);
 *    a missed notice cannot linger, because every (re)connection of the listener clears the caches.
 */
import type { Sql } from "../../db/client";
import type { Clock } from "../../lib/clock";
import type { Logger } from "../../lib/logger";
import { LoadingCache } from "../../lib/loading-cache";
import type { MaybePromise } from "../../lib/maybe-promise";
import { loadCatalog, type CatalogSnapshot } from "./catalog";
import { loadCompanyState, toLots, type CompanyState } from "./company-state";
import { CHANGE_CHANNEL, type Change } from "../changes/publish";
import { counterKey } from "./compute";
import { Meter } from "./meter";
import { findCompanyIdByRef } from "./repo";
import { type Environment, type Tenant } from "../../lib/tenant";

/** What a check reads: the tenant's catalog and one company. */
export interface EntitlementLookups {
  catalog(tenant: Tenant): MaybePromise<CatalogSnapshot>;
  company(tenant: Tenant, ref: string): MaybePromise<CompanyState | null>;
}

export const tenantKey = (t: Tenant) => `${t.teamId}|${t.environment}`;
const splitKey = (key: string) => {
  const [teamId, environment, ref] = key.split("|") as [string, Environment, string];
  return { teamId, environment, ref };
};

// A company that does not exist yet may be created by another instance at any moment: remember a
// miss only briefly.
const NEGATIVE_TTL_MS = 1_000;
const MAX_COMPANIES = 200_000;

export class EntitlementRuntime {
  readonly meter: Meter;
  private readonly catalogs: LoadingCache<CatalogSnapshot>;
  private readonly companies: LoadingCache<CompanyState>;
  /** tenant|integrator's id -> our comp_ id */
  private readonly aliases: LoadingCache<string>;
  private unlisten: (() => Promise<void>) | null = null;

  constructor(
    private readonly sql: Sql,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {
    const options = { maxEntries: MAX_COMPANIES, negativeTtlMs: NEGATIVE_TTL_MS };
    this.catalogs = new LoadingCache(
      (key) => {
        const { teamId, environment } = splitKey(key);
        return loadCatalog(sql, { teamId, environment });
      },
      clock,
      { maxEntries: 10_000, negativeTtlMs: 0 },
    );
    this.companies = new LoadingCache(
      (key) => {
        const { teamId, environment, ref } = splitKey(key);
        return loadCompanyState(sql, { teamId, environment }, ref, clock.now());
      },
      clock,
      options,
    );
    this.aliases = new LoadingCache(
      async (key) => {
        const { teamId, environment, ref } = splitKey(key);
        return findCompanyIdByRef(sql, { teamId, environment }, ref);
      },
      clock,
      options,
    );
    this.meter = new Meter(
      sql,
      clock,
      (changes) => changes.forEach((c) => this.apply(c)),
      undefined,
      (error) => logger.warn("cache update after a metering batch failed", { error: error instanceof Error ? error.message : String(error) }),
    );
  }

  async start(): Promise<void> {
    const listener = await this.sql.listen(
      CHANGE_CHANNEL,
      (payload) => {
        try {
          this.apply(JSON.parse(payload) as Change);
        } catch (error) {
          this.logger.warn("bad entitlement change notice", { error: String(error) });
        }
      },
      // Called on every (re)connection: notices sent while disconnected are lost, so start clean.
      () => this.clear(),
    );
    this.unlisten = listener.unlisten;
  }

  /** Settles everything queued, then stops listening. */
  async stop(): Promise<void> {
    await this.meter.drain();
    await this.unlisten?.().catch(() => {});
    this.unlisten = null;
  }

  catalog(tenant: Tenant): MaybePromise<CatalogSnapshot> {
    const key = tenantKey(tenant);
    return this.catalogs.peek(key) ?? (this.catalogs.get(key) as Promise<CatalogSnapshot>);
  }

  /** A company named by our comp_ id or the integrator's id; null when there is none. Synchronous when cached. */
  company(tenant: Tenant, ref: string): MaybePromise<CompanyState | null> {
    const cached = this.peekCompany(tenant, ref);
    if (cached !== undefined) return cached;
    const tk = tenantKey(tenant);
    if (ref.startsWith("comp_")) return this.companies.get(`${tk}|${ref}`);
    return this.aliases.get(`${tk}|${ref}`).then((id) => (id ? this.companies.get(`${tk}|${id}`) : null));
  }

  /** The company from memory alone (null: known not to exist); undefined when it would have to be loaded. */
  private peekCompany(tenant: Tenant, ref: string): CompanyState | null | undefined {
    const tk = tenantKey(tenant);
    const id = ref.startsWith("comp_") ? ref : this.aliases.peek(`${tk}|${ref}`);
    if (id === null) return null;
    return id === undefined ? undefined : this.companies.peek(`${tk}|${id}`);
  }

  /**
   * Our comp_ id of a company this tenant has, from memory only (undefined: not cached). A comp_ ref
   * counts only when this tenant's cache holds it: an id of another team's company must not pass.
   */
  knownCompanyId(tenant: Tenant, ref: string): string | null | undefined {
    const tk = tenantKey(tenant);
    if (!ref.startsWith("comp_")) return this.aliases.peek(`${tk}|${ref}`);
    const state = this.companies.peek(`${tk}|${ref}`);
    return state === undefined ? undefined : (state?.id ?? null);
  }

  rememberCompany(tenant: Tenant, externalId: string | null, id: string): void {
    if (externalId) this.aliases.set(`${tenantKey(tenant)}|${externalId}`, id);
  }

  /** After a committed catalog write: this instance need not wait for its own notice. */
  catalogChanged(tenant: Tenant): void {
    this.apply({ k: "catalog", t: tenant.teamId, e: tenant.environment });
  }

  /** After a committed company write (plan, add-ons, traits, overrides). */
  companyChanged(tenant: Tenant, companyId: string): void {
    this.apply({ k: "company", t: tenant.teamId, e: tenant.environment, c: companyId });
  }

  /** Applies a change from this instance's own commits or from another instance's notice. */
  apply(change: Change): void {
    const tk = `${change.t}|${change.e}`;
    if (change.k === "catalog") return this.catalogs.invalidate(tk);
    if (change.k === "company") return this.companies.invalidate(`${tk}|${change.c}`);
    for (const [companyId, featureId, periodStart, used] of change.counters) {
      const state = this.companies.peek(`${tk}|${companyId}`);
      if (!state) {
        this.companies.invalidate(`${tk}|${companyId}`); // a load in flight must not keep older values
        continue;
      }
      // Used only grows within a period: out-of-order notices cannot move it back.
      const key = counterKey(featureId, periodStart);
      const value = BigInt(used);
      if ((state.counters.get(key) ?? -1n) < value) state.counters.set(key, value);
    }
    for (const [companyId, lots] of change.balances) {
      const state = this.companies.peek(`${tk}|${companyId}`);
      if (state) state.lots = toLots(lots);
      else this.companies.invalidate(`${tk}|${companyId}`);
    }
  }

  private clear(): void {
    this.catalogs.clear();
    this.companies.clear();
    this.aliases.clear();
  }
}
