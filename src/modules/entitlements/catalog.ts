/**
 * A tenant's catalog held in memory: features (by id, key and event key) and each plan's grants.
 * Loaded once per tenant, dropped when a `catalog` change is published (see src/modules/changes/publish.ts).
 */
import type { Db } from "../../db/queries";
import type { FeatureType } from "../catalog/schemas";
import type { Grant } from "./compute";
import type { Tenant } from "../../lib/tenant";
import { listCatalogFeatures, listCatalogGrants } from "./repo";
import type { GrantRow } from "./rows";

export interface FeatureDef {
  id: string;
  name: string;
  key: string;
  type: FeatureType;
  eventKey: string;
}

export class CatalogSnapshot {
  readonly byId = new Map<string, FeatureDef>();
  readonly byKey = new Map<string, FeatureDef>();
  readonly byEventKey = new Map<string, FeatureDef>();
  /** plan id -> feature id -> grant */
  readonly grants = new Map<string, Map<string, Grant>>();
  /** Every feature, by featureKey: the order GET /entitlements lists them in (sorted once per snapshot). */
  readonly sorted: readonly FeatureDef[];

  constructor(features: FeatureDef[]) {
    this.sorted = [...features].sort((a, b) => a.key.localeCompare(b.key));
    for (const f of features) {
      this.byId.set(f.id, f);
      this.byKey.set(f.key, f);
      if (f.eventKey) this.byEventKey.set(f.eventKey, f);
    }
  }

  /** A feature named by its cflag_ id, or by a name a track event meters it under (featureForEvent). */
  feature(ref: string): FeatureDef | undefined {
    return ref.startsWith("cflag_") ? this.byId.get(ref) : this.featureForEvent(ref);
  }

  /** The feature a track event of this name meters: its featureKey first, then its eventKey. */
  featureForEvent(name: string): FeatureDef | undefined {
    return this.byKey.get(name) ?? this.byEventKey.get(name);
  }

  /** The base plan's grant for one feature, or null: all a company without add-ons can hold, found without building a list. */
  planGrant(planId: string | null, featureId: string): Grant | null {
    return (planId ? this.grants.get(planId)?.get(featureId) : undefined) ?? null;
  }

  /** The grants of a base plan and its add-on plans for one feature, plan first. */
  planGrants(planId: string | null, addOnIds: readonly string[], featureId: string): Grant[] {
    const out: Grant[] = [];
    const base = planId ? this.grants.get(planId)?.get(featureId) : undefined;
    if (base) out.push(base);
    for (const addOn of addOnIds) {
      const g = this.grants.get(addOn)?.get(featureId);
      if (g) out.push({ ...g, source: "add_on" });
    }
    return out;
  }
}

export function toGrant(row: GrantRow, featureId: string, source: Grant["source"], planId: string | null): Grant {
  return {
    featureId,
    kind: row.kind,
    enabled: row.enabled,
    limit: row.limit_amount === null ? null : BigInt(row.limit_amount),
    period: row.period,
    creditsPerUse: row.credits_per_use === null ? null : BigInt(row.credits_per_use),
    traitKey: row.trait_key,
    traitOperator: row.trait_operator,
    traitValue: row.trait_value,
    source,
    planId,
  };
}

export async function loadCatalog(db: Db, tenant: Tenant): Promise<CatalogSnapshot> {
  const [features, grants] = await Promise.all([listCatalogFeatures(db, tenant), listCatalogGrants(db, tenant)]);
  const snapshot = new CatalogSnapshot(
    features.map((f) => ({ id: f.id, name: f.name, key: f.feature_key, type: f.feature_type, eventKey: f.event_key })),
  );
  for (const row of grants) {
    let byFeature = snapshot.grants.get(row.plan_id);
    if (!byFeature) snapshot.grants.set(row.plan_id, (byFeature = new Map()));
    byFeature.set(row.feature_id, toGrant(row, row.feature_id, "plan", row.plan_id));
  }
  return snapshot;
}
