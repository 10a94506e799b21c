/** Typed wrappers over the feature queries. */
import { queries, run, runOne, type Db } from "../../../db/queries";
import type { EntitlementKind, FeatureType } from "../schemas";
import type { FeatureRow } from "../rows";
import { type Tenant } from "../../../lib/tenant";

const Q = queries([
  "feature_find_by_id_with_plans",
  "feature_lock_by_id",
  "feature_lock_names",
  "feature_list_by_track_name",
  "feature_update",
  "feature_delete",
  "entitlement_list_by_feature",
  "feature_insert",
  "feature_usage_exists",
  "feature_set_archived",
  "feature_find_id_by_ref",
  "feature_list_page",
]);

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

export const insertFeature = async (db: Db, t: Tenant, id: string, f: FeatureFields & { featureKey: string }) =>
  (await runOne<FeatureRow>(db, Q.feature_insert, [
    id,
    t.teamId,
    t.environment,
    f.name,
    f.featureKey,
    f.featureType,
    f.eventKey,
    f.icon,
    f.description,
  ]))!;

/** Whether metered events, usage counters or refusal tallies refer to the feature. */
export const featureHasUsage = async (db: Db, t: Tenant, id: string) =>
  (await runOne<{ used: boolean }>(db, Q.feature_usage_exists, [t.teamId, t.environment, id]))!.used;

/** Archives the feature (`archivedAt` set) or restores it (null). */
export const setFeatureArchivedAt = (db: Db, t: Tenant, id: string, archivedAt: Date | null) =>
  runOne(db, Q.feature_set_archived, [t.teamId, t.environment, id, archivedAt]);

/** The id of the feature a cflag_ id or a featureKey names. */
export const findFeatureIdByRef = (db: Db, t: Tenant, ref: string) =>
  runOne<{ id: string }>(db, Q.feature_find_id_by_ref, [t.teamId, t.environment, ref]);

/** A page of features, newest first, before `page.beforeSeq` (archived ones when asked). */
export const listFeatureRows = (db: Db, t: Tenant, page: { beforeSeq: bigint | null; fetch: number; includeArchived: boolean }) =>
  run<FeatureRow & { seq: bigint }>(db, Q.feature_list_page, [t.teamId, t.environment, page.beforeSeq, page.fetch, page.includeArchived]);
