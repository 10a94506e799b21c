/**
 * PATCH /companies/{id}: rename, merge traits, set or clear the plan, replace the add-ons. One
 * transaction holds the locked company, the change, its audit record and the change notice.
 * Billing anchor rule: the first time a company gets a plan its anchor is set to "now" (the caller's
 * clock); after that it never moves, whatever plan changes follow.
 */
import type { Sql } from "../../db/client";
import type { Db } from "../../db/queries";
import { apiError } from "../../lib/errors";
import { recordAudit } from "../audit/repo";
import type { OperationContext } from "../operation-context";
import { planChoiceProblems } from "../catalog/plans/choice";
import { publishCompanyChanged } from "../changes/publish";
import type { CompanyPatch } from "./schemas";
import type { CompanyRow } from "./rows";
import { findCompanyByKeys, updateCompanyRow } from "./repo";
import { type Tenant } from "../../lib/tenant";

/** 400 naming each plan id that cannot fill its slot (src/modules/catalog/plans/choice.ts). */
async function assertPlanChoices(tx: Db, tenant: Tenant, company: CompanyRow, patch: CompanyPatch): Promise<void> {
  const { details } = await planChoiceProblems(tx, tenant, [
    { field: "body.activePlanId", ids: patch.activePlanId ? [patch.activePlanId] : [], kind: "plan", held: [company.active_plan_id ?? ""] },
    { field: "body.activeAddOnIds", ids: patch.activeAddOnIds ?? [], kind: "add_on", held: company.active_add_on_ids },
  ]);
  if (Object.keys(details).length) throw apiError("validation_failed", "Validation failed", details);
}

export async function updateCompany(
  sql: Sql,
  { tenant, actor, now }: Omit<OperationContext, "tx">,
  ref: string,
  patch: CompanyPatch,
): Promise<CompanyRow> {
  return sql.begin(async (tx) => {
    const company = await findCompanyByKeys(tx, tenant, { id: ref }); // our id or the integrator's, locked
    if (!company) throw apiError("not_found", `No company ${ref}`);
    const sent = (Object.keys(patch) as (keyof CompanyPatch)[]).filter((k) => patch[k] !== undefined);
    if (sent.length === 0) return company;
    await assertPlanChoices(tx, tenant, company, patch);
    const updated = await updateCompanyRow(tx, tenant, company.id, {
      name: patch.name ?? company.name,
      traitsPatch: patch.traits ?? {},
      activePlanId: patch.activePlanId === undefined ? company.active_plan_id : patch.activePlanId || null, // "" as null
      activeAddOnIds: patch.activeAddOnIds ?? company.active_add_on_ids,
      anchorIfUnset: patch.activePlanId ? now : null,
    });
    await recordAudit(tx, {
      ...tenant,
      actor,
      action: "company.update",
      resourceType: "company",
      resourceId: company.id,
      details: { set: Object.fromEntries(sent.map((k) => [k, patch[k]])) },
    });
    await publishCompanyChanged(tx, tenant, company.id);
    return updated!;
  });
}
