/** Typed wrappers over the grant queries: a feature's entitlement on a plan and a company's override of it. */
import { queries, runOne, type Db } from "../../../db/queries";
import type { Tenant } from "../../../lib/tenant";
import type { EntitlementKind } from "../schemas";
import type { GrantRow } from "../rows";

const Q = queries(["company_override_upsert", "company_override_delete", "plan_entitlement_upsert", "plan_entitlement_delete"]);

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

/** A grant as the upserts take it: one jsonb record of the grant columns (quantities as integer strings). */
const grantRecord = (g: GrantFields) => ({
  kind: g.kind,
  enabled: g.enabled,
  limit_amount: g.limit?.toString() ?? null,
  period: g.period,
  credits_per_use: g.creditsPerUse?.toString() ?? null,
  trait_key: g.traitKey,
  trait_operator: g.traitOperator,
  trait_value: g.traitValue,
});

export const upsertOverride = (db: Db, t: Tenant, o: { id: string; companyId: string; featureId: string; grant: GrantFields }) =>
  runOne<GrantRow & { company_id: string }>(db, Q.company_override_upsert, [
    o.id,
    t.teamId,
    t.environment,
    o.companyId,
    o.featureId,
    grantRecord(o.grant),
  ]);

export const upsertPlanEntitlement = (db: Db, t: Tenant, e: { id: string; planId: string; featureId: string; grant: GrantFields }) =>
  runOne<GrantRow & { plan_id: string }>(db, Q.plan_entitlement_upsert, [e.id, t.teamId, t.environment, e.planId, e.featureId, grantRecord(e.grant)]);

export const deleteOverride = (db: Db, t: Tenant, companyId: string, featureId: string) =>
  runOne<{ id: string; company_id: string; feature_id: string; kind: EntitlementKind }>(db, Q.company_override_delete, [
    t.teamId,
    t.environment,
    companyId,
    featureId,
  ]);

export const deletePlanEntitlement = (db: Db, t: Tenant, planId: string, featureId: string) =>
  runOne<GrantRow & { plan_id: string }>(db, Q.plan_entitlement_delete, [t.teamId, t.environment, planId, featureId]);
