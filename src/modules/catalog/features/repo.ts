/** Typed wrappers over the feature, plan and company-override queries. */
import { queries, run, runOne, type Db } from "../../../db/queries";
import type { EntitlementKind, FeatureRow, FeatureType, GrantRow } from "../schemas";
import type { PlanKind } from "../plans/schemas";
import { type Tenant } from "../../../lib/tenant";

const Q = queries([
  "feature_find_by_id_with_plans",
  "feature_lock_by_id",
  "feature_lock_names",
  "feature_list_by_track_name",
  "feature_update",
  "feature_delete",
  "entitlement_list_by_feature",
  "plan_list_by_ids",
  "company_override_upsert",
  "company_override_delete",
  "plan_entitlement_upsert",
  "plan_entitlement_delete",
]);

/** A grant's columns in the order both upserts (plan entitlement, company override) take them. */
const grantParams = (g: GrantFields) => [g.kind, g.enabled, g.limit, g.period, g.creditsPerUse, g.traitKey, g.traitOperator, g.traitValue];

export interface FeatureGrant {
  source: "plan" | "company";
  owner_id: string;
  owner_name: string;
  kind: EntitlementKind;
}

export interface FeatureFields {
  name: string;
  featureType: FeatureType;
  eventKey: string;
  icon: string;
  description: string;
}

export interface GrantFields {
  kind: EntitlementKind;
  enabled: boolean;
  limit: bigint | null;
  period: string | null;
  creditsPerUse: bigint | null;
  traitKey: string | null;
  traitOperator: string | null;
  traitValue: string | null;
}

export const findFeatureWithPlans = (db: Db, t: Tenant, id: string) =>
  runOne<FeatureRow>(db, Q.feature_find_by_id_with_plans, [t.teamId, t.environment, id]);

/** Locks the feature row for the rest of the transaction. */
export const lockFeature = (db: Db, t: Tenant, id: string) => runOne<FeatureRow>(db, Q.feature_lock_by_id, [t.teamId, t.environment, id]);

/** Takes the tenant's track-name lock (see feature_lock_names.sql) until the transaction ends. */
export const lockTrackNames = (db: Db, t: Tenant) => run(db, Q.feature_lock_names, [t.teamId, t.environment]);

/** Features other than `exceptId` that one of `names` already names (as featureKey or eventKey). */
export const featuresNamedBy = (db: Db, t: Tenant, exceptId: string, names: string[]) =>
  run<{ id: string; name: string; feature_key: string; event_key: string }>(db, Q.feature_list_by_track_name, [
    t.teamId,
    t.environment,
    exceptId,
    names,
  ]);

export const updateFeatureRow = (db: Db, t: Tenant, id: string, f: FeatureFields) =>
  runOne<FeatureRow>(db, Q.feature_update, [t.teamId, t.environment, id, f.name, f.featureType, f.eventKey, f.icon, f.description]);

export const deleteFeatureRow = (db: Db, t: Tenant, id: string) =>
  runOne<{ id: string; name: string; feature_key: string }>(db, Q.feature_delete, [t.teamId, t.environment, id]);

/** The plan entitlements and company overrides of a feature. */
export const grantsOfFeature = (db: Db, t: Tenant, featureId: string) =>
  run<FeatureGrant>(db, Q.entitlement_list_by_feature, [t.teamId, t.environment, featureId]);

/** The tenant's plans among `ids`, share-locked. */
export const plansByIds = (db: Db, t: Tenant, ids: string[]) =>
  run<{ id: string; name: string; tier: string; kind: PlanKind; archived_at: Date | null }>(db, Q.plan_list_by_ids, [t.teamId, t.environment, ids]);

export const upsertOverride = (db: Db, t: Tenant, id: string, companyId: string, featureId: string, g: GrantFields) =>
  runOne<GrantRow & { company_id: string }>(db, Q.company_override_upsert, [id, t.teamId, t.environment, companyId, featureId, ...grantParams(g)]);

export const upsertPlanEntitlement = (db: Db, t: Tenant, id: string, planId: string, featureId: string, g: GrantFields) =>
  runOne<GrantRow & { plan_id: string }>(db, Q.plan_entitlement_upsert, [id, t.teamId, t.environment, planId, featureId, ...grantParams(g)]);

export const deleteOverride = (db: Db, t: Tenant, companyId: string, featureId: string) =>
  runOne<{ id: string; company_id: string; feature_id: string; kind: EntitlementKind }>(db, Q.company_override_delete, [
    t.teamId,
    t.environment,
    companyId,
    featureId,
  ]);

export const deletePlanEntitlement = (db: Db, t: Tenant, planId: string, featureId: string) =>
  runOne<GrantRow & { plan_id: string }>(db, Q.plan_entitlement_delete, [t.teamId, t.environment, planId, featureId]);
