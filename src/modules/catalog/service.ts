/**
 * Catalog use cases for the operator CLI: plans, features, the entitlement of a feature on a plan,
 * putting a company on a plan, and credit grants. Quantities are bigint: never a float.
 */
import { queries, runOne } from "../../db/queries";
import type { Sql } from "../../db/client";
import { newId } from "../../lib/ids";
import { badRequest, notFound } from "../../lib/errors";
import type { Environment } from "../../auth/kinds";
import { recordAudit } from "../audit/repo";
import { OPERATOR } from "../teams/service";
import { findCompanyByKeys } from "../customers/repo";

const Q = queries([
  "plan_insert",
  "plan_find_by_id",
  "feature_insert",
  "feature_find_by_id",
  "plan_entitlement_upsert",
  "company_set_plan",
  "credit_grant_insert",
]);

type Tenant = { teamId: string; environment: Environment };

async function audited<T extends { id: string }>(sql: Sql, tenant: Tenant, action: string, resourceType: string, work: (tx: Sql) => Promise<T>): Promise<T> {
  return sql.begin(async (tx) => {
    const result = await work(tx as unknown as Sql);
    await recordAudit(tx, { ...tenant, actor: OPERATOR, action, resourceType, resourceId: result.id });
    return result;
  }) as Promise<T>;
}

export function createPlan(sql: Sql, tenant: Tenant, input: { name: string; tier?: string; description?: string }) {
  return audited(sql, tenant, "plan.create", "plan", async (tx) =>
    (await runOne<{ id: string }>(tx, Q.plan_insert, [newId("plan"), tenant.teamId, tenant.environment, input.name, input.tier ?? "standard", input.description ?? null]))!,
  );
}

export const FEATURE_TYPES = ["boolean", "event", "trait"] as const;

export function createFeature(
  sql: Sql,
  tenant: Tenant,
  input: { name: string; featureKey: string; featureType: string; eventKey?: string; icon?: string; description?: string },
) {
  if (!(FEATURE_TYPES as readonly string[]).includes(input.featureType)) throw badRequest("Invalid feature type", { featureType: FEATURE_TYPES.join(", ") });
  if (!/^[a-z0-9][a-z0-9_.:-]{0,99}$/.test(input.featureKey)) throw badRequest("Invalid feature key", { featureKey: "lowercase letters, digits, _ . : -" });
  return audited(sql, tenant, "feature.create", "feature", async (tx) =>
    (await runOne<{ id: string }>(tx, Q.feature_insert, [
      newId("cflag"), tenant.teamId, tenant.environment, input.name, input.featureKey, input.featureType, input.eventKey ?? "", input.icon ?? "", input.description ?? "",
    ]))!,
  );
}

export interface EntitlementInput {
  planId: string;
  featureId: string;
  kind: "boolean" | "quota" | "credit" | "trait";
  enabled?: boolean;
  limit?: bigint;
  period?: "day" | "week" | "month" | "lifetime";
  creditsPerUse?: bigint;
  traitKey?: string;
  traitOperator?: "eq" | "neq" | "gt" | "gte" | "lt" | "lte";
  traitValue?: string;
}

function checkEntitlement(e: EntitlementInput): void {
  if (e.kind === "quota" && (e.limit === undefined || e.limit < 0n || !e.period)) throw badRequest("Quota needs limit and period", { limit: ">= 0", period: "day, week, month or lifetime" });
  if (e.kind === "credit" && (e.creditsPerUse === undefined || e.creditsPerUse <= 0n)) throw badRequest("Credit entitlement needs creditsPerUse", { creditsPerUse: "> 0" });
  if (e.kind === "trait" && (!e.traitKey || !e.traitOperator || e.traitValue === undefined)) throw badRequest("Trait entitlement needs key, operator, value", { traitKey: "required" });
}

export async function setEntitlement(sql: Sql, tenant: Tenant, e: EntitlementInput) {
  checkEntitlement(e);
  if (!(await runOne(sql, Q.plan_find_by_id, [tenant.teamId, tenant.environment, e.planId]))) throw notFound(`No plan ${e.planId}`);
  if (!(await runOne(sql, Q.feature_find_by_id, [tenant.teamId, tenant.environment, e.featureId]))) throw notFound(`No feature ${e.featureId}`);
  return audited(sql, tenant, "entitlement.set", "plan_entitlement", async (tx) =>
    (await runOne<{ id: string }>(tx, Q.plan_entitlement_upsert, [
      newId("ent"), tenant.teamId, tenant.environment, e.planId, e.featureId, e.kind, e.enabled ?? true,
      e.kind === "quota" ? e.limit! : null, e.kind === "quota" ? e.period! : null, e.kind === "credit" ? e.creditsPerUse! : null,
      e.kind === "trait" ? e.traitKey! : null, e.kind === "trait" ? e.traitOperator! : null, e.kind === "trait" ? e.traitValue! : null,
    ]))!,
  );
}

/** Looks a company up by our id, the integrator's id, wallet or email. */
async function requireCompany(sql: Sql, tenant: Tenant, ref: string) {
  const company = await sql.begin((tx) => findCompanyByKeys(tx, tenant, ref, ref, ref));
  if (!company) throw notFound(`No company ${ref}`);
  return company;
}

export async function assignPlan(sql: Sql, tenant: Tenant, companyRef: string, planId: string) {
  const company = await requireCompany(sql, tenant, companyRef);
  if (!(await runOne(sql, Q.plan_find_by_id, [tenant.teamId, tenant.environment, planId]))) throw notFound(`No plan ${planId}`);
  return audited(sql, tenant, "company.plan_assign", "company", async (tx) =>
    (await runOne<{ id: string }>(tx, Q.company_set_plan, [tenant.teamId, tenant.environment, company.id, planId]))!,
  );
}

export async function grantCredits(sql: Sql, tenant: Tenant, input: { company: string; amount: bigint; reason?: string; expiresAt?: Date | null }) {
  if (input.amount <= 0n) throw badRequest("Amount must be positive", { amount: "> 0" });
  const company = await requireCompany(sql, tenant, input.company);
  return audited(sql, tenant, "credit.grant", "credit_grant", async (tx) =>
    (await runOne<{ id: string }>(tx, Q.credit_grant_insert, [
      newId("cgr"), tenant.teamId, tenant.environment, company.id, input.amount, input.reason ?? null, input.expiresAt ?? null,
    ]))!,
  );
}
