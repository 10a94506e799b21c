/**
 * Feature writes: create, update, delete and archive, each in one transaction with its audit record and
 * the catalog's change notice (see ../write.ts).
 *
 * Invariants kept here:
 * - a track event name (a featureKey or an eventKey) names at most one feature of a tenant;
 * - an entitlement's kind fits its feature's type (see kindFits in ../schemas.ts): a type change is refused
 *   while plan entitlements or overrides need the old one (the grants' own check is ../entitlements/edit.ts);
 * - a feature that plans still use is not deleted.
 * Writes that depend on a feature's type lock the feature row first, so they serialize.
 */
import type { Db } from "../../../db/queries";
import type { Sql } from "../../../db/client";
import { newId } from "../../../lib/ids";
import { apiError } from "../../../lib/errors";
import { recordAudit, type Actor } from "../../audit/repo";
import type { OperationContext } from "../../operation-context";
import { OPERATOR } from "../../teams/roles";
import { publishCatalogChanged, publishCompanyChanged } from "../../changes/publish";
import { FEATURE_TYPES, TRACK_NAME, kindFits, type FeatureType, type FeatureUpdate } from "../schemas";
import { audited, catalogChanged } from "../write";
import {
  deleteFeatureRow,
  featureHasUsage,
  insertFeature,
  setFeatureArchivedAt,
  featuresNamedBy,
  findFeatureWithPlans,
  grantsOfFeature,
  lockFeature,
  lockTrackNames,
  updateFeatureRow,
  type FeatureFields,
} from "./repo";
import { type Tenant } from "../../../lib/tenant";

/** 409 when another feature of the tenant already answers to one of `names` (as featureKey or eventKey). */
async function assertTrackNamesFree(tx: Db, tenant: Tenant, featureId: string, names: string[]): Promise<void> {
  await lockTrackNames(tx, tenant);
  const taken = await featuresNamedBy(tx, tenant, featureId, names.filter(Boolean));
  if (taken.length) {
    const name = names.find((n) => taken.some((f) => f.feature_key === n || f.event_key === n))!;
    throw apiError(
      "conflict",
      `'${name}' already names feature ${taken[0]!.id} (${taken[0]!.name}); a track event name must name exactly one feature`,
    );
  }
}

export async function createFeature(
  sql: Sql,
  tenant: Tenant,
  input: { name: string; featureKey: string; featureType: string; eventKey?: string; icon?: string; description?: string },
  actor: Actor = OPERATOR,
) {
  if (typeof input.name !== "string" || !/\S/.test(input.name) || input.name.length > 200)
    throw apiError("validation_failed", "Invalid name", { name: "Expected a string of 1 to 200 characters, not all whitespace" });
  if (!(FEATURE_TYPES as readonly string[]).includes(input.featureType))
    throw apiError("validation_failed", "Invalid feature type", { featureType: FEATURE_TYPES.join(", ") });
  if (!TRACK_NAME.test(input.featureKey))
    throw apiError("validation_failed", "Invalid feature key", { featureKey: "lowercase letters, digits, _ . : -" });
  const eventKey = input.eventKey ?? "";
  if (eventKey !== "" && !TRACK_NAME.test(eventKey))
    throw apiError("validation_failed", "Invalid event key", { eventKey: "lowercase letters, digits, _ . : -" });
  const id = newId("cflag");
  return audited(sql, tenant, { action: "feature.create", resourceType: "feature", ...catalogChanged(tenant), actor }, async (tx) => {
    await assertTrackNamesFree(tx, tenant, id, [input.featureKey, eventKey]);
    return insertFeature(tx, tenant, id, {
      name: input.name,
      featureKey: input.featureKey,
      featureType: input.featureType as FeatureType,
      eventKey,
      icon: input.icon ?? "",
      description: input.description ?? "",
    });
  });
}

/** 409 when the feature's plan entitlements or company overrides need another type (see kindFits). */
async function assertGrantsFit(tx: Db, tenant: Tenant, featureId: string, type: FeatureType): Promise<void> {
  const misfits = (await grantsOfFeature(tx, tenant, featureId)).filter((g) => !kindFits(g.kind, type));
  if (!misfits.length) return;
  const list = (source: string) =>
    misfits
      .filter((g) => g.source === source)
      .map((g) => `${g.owner_name} (${g.kind})`)
      .join(", ");
  const where = [list("plan") && `plans: ${list("plan")}`, list("company") && `company overrides: ${list("company")}`].filter(Boolean).join("; ");
  throw apiError("conflict", `Feature type '${type}' does not fit its entitlements on ${where}; change or remove them first`);
}

/** PUT /features/{id}: a partial update (omitted fields keep their value); featureKey never changes. */
export async function updateFeature(sql: Sql, tenant: Tenant, actor: Actor, change: { id: string; patch: FeatureUpdate }) {
  const { id, patch } = change;
  return sql.begin(async (tx) => {
    const current = await lockFeature(tx, tenant, id);
    if (!current) throw apiError("not_found", `No feature ${id}`);
    const sent = (Object.keys(patch) as (keyof FeatureUpdate)[]).filter((k) => patch[k] !== undefined);
    if (sent.length === 0) return (await findFeatureWithPlans(tx, tenant, id))!;
    const next: FeatureFields = {
      name: patch.name ?? current.name,
      featureType: patch.featureType ?? current.feature_type,
      eventKey: patch.eventKey ?? current.event_key,
      icon: patch.icon ?? current.icon,
      description: patch.description ?? current.description,
    };
    if (next.eventKey !== current.event_key) await assertTrackNamesFree(tx, tenant, id, [next.eventKey]);
    if (next.featureType !== current.feature_type) await assertGrantsFit(tx, tenant, id, next.featureType);
    await updateFeatureRow(tx, tenant, id, next);
    const before = {
      name: current.name,
      featureType: current.feature_type,
      eventKey: current.event_key,
      icon: current.icon,
      description: current.description,
    };
    const pick = (from: Record<string, unknown>) => Object.fromEntries(sent.map((k) => [k, from[k]]));
    await recordAudit(tx, {
      ...tenant,
      actor,
      action: "feature.update",
      resourceType: "feature",
      resourceId: id,
      details: { before: pick(before), after: pick({ ...next }) },
    });
    await publishCatalogChanged(tx, tenant);
    return (await findFeatureWithPlans(tx, tenant, id))!;
  });
}

/**
 * DELETE /features/{id} and the dashboard's DELETE. A feature that plans still use is refused (409) rather
 * than silently taken out of them. A feature with usage history (metered events, usage counters or refusal
 * tallies) is archived, so that history keeps naming it: it grants and meters nothing and leaves lists, and
 * its featureKey stays reserved. Any other feature is deleted with its company overrides.
 */
export async function removeFeature(
  sql: Sql,
  { tenant, actor, now }: Omit<OperationContext, "tx">,
  id: string,
): Promise<{ id: string; outcome: "deleted" | "archived" }> {
  return sql.begin(async (tx) => {
    const feature = await lockFeature(tx, tenant, id);
    if (!feature) throw apiError("not_found", `No feature ${id}`);
    const grants = await grantsOfFeature(tx, tenant, id);
    const plans = grants.filter((g) => g.source === "plan").map((g) => g.owner_name);
    if (plans.length) throw apiError("conflict", `Feature is used by plans: ${plans.join(", ")}; remove it from them first`);
    const used = await featureHasUsage(tx, tenant, id);
    if (used) await setFeatureArchivedAt(tx, tenant, id, feature.archived_at ?? now);
    else await deleteFeatureRow(tx, tenant, id);
    const outcome = used ? ("archived" as const) : ("deleted" as const);
    await recordAudit(tx, {
      ...tenant,
      actor,
      action: used ? "feature.archive" : "feature.delete",
      resourceType: "feature",
      resourceId: id,
      details: {
        name: feature.name,
        featureKey: feature.feature_key,
        featureType: feature.feature_type,
        eventKey: feature.event_key,
        overridesRemoved: used ? 0 : grants.length,
      },
    });
    await publishCatalogChanged(tx, tenant);
    if (!used) for (const companyId of new Set(grants.map((g) => g.owner_id))) await publishCompanyChanged(tx, tenant, companyId);
    return { id, outcome };
  });
}

/** The spec's DELETE /features/{id}: removeFeature, answered `{ok: true}` whether deleted or archived. */
export async function deleteFeature(sql: Sql, tenant: Tenant, actor: Actor, id: string): Promise<{ ok: true }> {
  await removeFeature(sql, { tenant, actor, now: new Date() }, id);
  return { ok: true };
}

/** Archives (true) or restores (false) a feature; plan entitlements and overrides stay, inert while archived. */
export async function setFeatureArchived(sql: Sql, { tenant, actor, now }: Omit<OperationContext, "tx">, id: string, archived: boolean) {
  return sql.begin(async (tx) => {
    const feature = await lockFeature(tx, tenant, id);
    if (!feature) throw apiError("not_found", `No feature ${id}`);
    await setFeatureArchivedAt(tx, tenant, id, archived ? (feature.archived_at ?? now) : null);
    await recordAudit(tx, { ...tenant, actor, action: archived ? "feature.archive" : "feature.restore", resourceType: "feature", resourceId: id });
    await publishCatalogChanged(tx, tenant);
    return (await findFeatureWithPlans(tx, tenant, id))!;
  });
}
