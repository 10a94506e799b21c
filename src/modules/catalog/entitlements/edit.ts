/**
 * A feature's entitlement on a plan (set, remove), and the checks a company's overrides share with it
 * (customers/plan.ts): the grant's fields fit its kind, and its kind fits the feature's type (see kindFits
 * in schemas.ts), on plans and overrides. The feature row is locked first, so these serialize with a change
 * of the feature's type (features/edit.ts).
 */
import type { Db } from "../../../db/queries";
import type { Sql } from "../../../db/client";
import { newId } from "../../../lib/ids";
import { apiError } from "../../../lib/errors";
import type { Actor } from "../../audit/repo";
import { OPERATOR } from "../../teams/roles";
import { kindFits, type EntitlementKind } from "../schemas";
import { type FeatureRow } from "../rows";
import { audited, catalogChanged } from "../write";
import { lockFeature } from "../features/repo";
import { planExists } from "../plans/repo";
import { deletePlanEntitlement, upsertPlanEntitlement, type GrantFields } from "./repo";
import { type Tenant } from "../../../lib/tenant";

export interface EntitlementInput {
  planId: string;
  featureId: string;
  kind: EntitlementKind;
  enabled?: boolean;
  limit?: bigint;
  period?: "day" | "week" | "month" | "lifetime";
  creditsPerUse?: bigint;
  traitKey?: string;
  traitOperator?: "eq" | "neq" | "gt" | "gte" | "lt" | "lte";
  traitValue?: string;
}

/** A company-level override: the same fields as a plan entitlement, for one company. */
export interface OverrideInput extends Omit<EntitlementInput, "planId"> {
  /** our id, the integrator's id, wallet or email */
  company: string;
}

export type Grant = Omit<EntitlementInput, "planId">;

export function checkEntitlement(e: Grant): void {
  if (e.kind === "quota" && (e.limit === undefined || e.limit < 0n || !e.period))
    throw apiError("validation_failed", "Quota needs limit and period", { limit: ">= 0", period: "day, week, month or lifetime" });
  if (e.kind === "credit" && (e.creditsPerUse === undefined || e.creditsPerUse <= 0n))
    throw apiError("validation_failed", "Credit entitlement needs creditsPerUse", { creditsPerUse: "> 0" });
  if (e.kind === "trait" && (!e.traitKey || !e.traitOperator || e.traitValue === undefined)) {
    // Each missing one named, so the caller is not told to add the traitKey they sent.
    const missing = { traitKey: !e.traitKey, traitOperator: !e.traitOperator, traitValue: e.traitValue === undefined };
    const details = Object.fromEntries(Object.entries(missing).flatMap(([field, absent]) => (absent ? [[field, "required"]] : [])));
    throw apiError("validation_failed", "Trait entitlement needs key, operator, value", details);
  }
}

/** Locks the feature and checks that the grant's kind fits its type. */
export async function lockFeatureFor(tx: Db, tenant: Tenant, e: Grant): Promise<FeatureRow> {
  const feature = await lockFeature(tx, tenant, e.featureId);
  if (!feature) throw apiError("not_found", `No feature ${e.featureId}`);
  if (!kindFits(e.kind, feature.feature_type)) {
    throw apiError("validation_failed", "Entitlement kind does not fit the feature type", {
      kind: `A ${e.kind} entitlement needs a${e.kind === "trait" ? " trait" : "n event"} feature; ${feature.feature_key} is a ${feature.feature_type} feature`,
    });
  }
  return feature;
}

/** Only the columns of the grant's kind are stored. */
export const grantFields = (e: Grant): GrantFields => ({
  kind: e.kind,
  enabled: e.enabled ?? true,
  limit: e.kind === "quota" ? e.limit! : null,
  period: e.kind === "quota" ? e.period! : null,
  creditsPerUse: e.kind === "credit" ? e.creditsPerUse! : null,
  traitKey: e.kind === "trait" ? e.traitKey! : null,
  traitOperator: e.kind === "trait" ? e.traitOperator! : null,
  traitValue: e.kind === "trait" ? e.traitValue! : null,
});

export async function setEntitlement(sql: Sql, tenant: Tenant, e: EntitlementInput, actor: Actor = OPERATOR) {
  checkEntitlement(e);
  return audited(sql, tenant, { action: "entitlement.set", resourceType: "plan_entitlement", ...catalogChanged(tenant), actor }, async (tx) => {
    if (!(await planExists(tx, tenant, e.planId))) throw apiError("not_found", `No plan ${e.planId}`);
    const feature = await lockFeatureFor(tx, tenant, e);
    if (feature.archived_at) throw apiError("conflict", `Feature ${feature.feature_key} is archived; restore it before granting it`);
    return (await upsertPlanEntitlement(tx, tenant, { id: newId("ent"), planId: e.planId, featureId: e.featureId, grant: grantFields(e) }))!;
  });
}

/** Takes a feature off a plan: companies on the plan lose what it granted (their overrides stay). */
export async function removeEntitlement(sql: Sql, tenant: Tenant, input: { planId: string; featureId: string }, actor: Actor = OPERATOR) {
  return audited(sql, tenant, { action: "entitlement.remove", resourceType: "plan_entitlement", ...catalogChanged(tenant), actor }, async (tx) => {
    await lockFeature(tx, tenant, input.featureId);
    const removed = await deletePlanEntitlement(tx, tenant, input.planId, input.featureId);
    if (!removed) throw apiError("not_found", `Plan ${input.planId} has no entitlement for feature ${input.featureId}`);
    return removed;
  });
}
