/**
 * A company's entitlements: the plan it is on and its overrides of single features. Each write is one
 * transaction with its audit record and the company's change notice (src/modules/changes/publish.ts), so
 * every instance drops the company's cached state at commit.
 */
import type { Sql } from "../../db/client";
import { newId } from "../../lib/ids";
import { systemClock } from "../../lib/clock";
import { apiError } from "../../lib/errors";
import type { Tenant } from "../../lib/tenant";
import { publishCompanyChanged } from "../changes/publish";
import type { Actor } from "../audit/repo";
import { OPERATOR } from "../teams/roles";
import { audited } from "../catalog/write";
import { checkEntitlement, grantFields, lockFeatureFor, type OverrideInput } from "../catalog/entitlements/edit";
import { deleteOverride, upsertOverride } from "../catalog/entitlements/repo";
import { findCompanyByKeys, setCompanyPlan } from "./repo";
import { planChoiceProblems } from "../catalog/plans/choice";

/** Sets a company's override of one feature; it replaces whatever the company's plans grant. */
export async function setOverride(sql: Sql, tenant: Tenant, o: OverrideInput, actor: Actor = OPERATOR) {
  checkEntitlement(o);
  const company = await requireCompany(sql, tenant, o.company);
  return audited(
    sql,
    tenant,
    { action: "override.set", resourceType: "company_override", actor, publish: (tx) => publishCompanyChanged(tx, tenant, company.id) },
    async (tx) => {
      await lockFeatureFor(tx, tenant, o);
      return (await upsertOverride(tx, tenant, { id: newId("ent"), companyId: company.id, featureId: o.featureId, grant: grantFields(o) }))!;
    },
  );
}

/** Removes a company's override of one feature: its plans' entitlements apply again. */
export async function removeOverride(sql: Sql, tenant: Tenant, input: { company: string; featureId: string }, actor: Actor = OPERATOR) {
  const company = await requireCompany(sql, tenant, input.company);
  return audited(
    sql,
    tenant,
    { action: "override.remove", resourceType: "company_override", actor, publish: (tx) => publishCompanyChanged(tx, tenant, company.id) },
    async (tx) => {
      const removed = await deleteOverride(tx, tenant, company.id, input.featureId);
      if (!removed) throw apiError("not_found", `No override of feature ${input.featureId} for company ${input.company}`);
      return removed;
    },
  );
}

/** Looks a company up by our id, the integrator's id, wallet or email. */
async function requireCompany(sql: Sql, tenant: Tenant, ref: string) {
  const company = await sql.begin((tx) => findCompanyByKeys(tx, tenant, { id: ref, wallet: ref, email: ref }));
  if (!company) throw apiError("not_found", `No company ${ref}`);
  return company;
}

/**
 * Puts a company on a plan. The first plan a company gets sets its billing anchor (quota periods
 * reset on it); later plan changes keep the anchor.
 */
export async function assignPlan(sql: Sql, tenant: Tenant, assignment: { company: string; planId: string }, now: Date = new Date(systemClock.now())) {
  const { company: companyRef, planId } = assignment;
  const company = await requireCompany(sql, tenant, companyRef);
  const { unknown, details } = await planChoiceProblems(sql, tenant, [
    { field: "plan", ids: [planId], kind: "plan", held: [company.active_plan_id ?? ""] },
  ]);
  if (unknown.length) throw apiError("not_found", `No plan ${planId}`);
  if (Object.keys(details).length) throw apiError("validation_failed", "Validation failed", details);
  return audited(
    sql,
    tenant,
    { action: "company.plan_assign", resourceType: "company", publish: (tx) => publishCompanyChanged(tx, tenant, company.id) },
    async (tx) => (await setCompanyPlan(tx, tenant, { companyId: company.id, planId, now }))!,
  );
}
