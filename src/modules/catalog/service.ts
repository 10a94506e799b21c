/**
 * Catalog use cases: the audited-write helper they share and a plan's quick create. Features (create, update,
 * delete, archive) are feature-writes.ts; a feature's entitlement on a plan, and the checks it shares with a
 * company's overrides, entitlements.ts (a company's own plan and overrides are customers/plan.ts; credit
 * grants entitlements/credits.ts).
 * Each write is one transaction holding the change, its audit record and its change notice
 * (src/modules/changes/publish.ts), so
 * every instance drops what it cached at commit. Quantities are bigint: never a float.
 */
import type { Db } from "../../db/queries";
import type { Sql } from "../../db/client";
import { newId } from "../../lib/ids";
import type { Actor } from "../audit/repo";
import { OPERATOR } from "../teams/service";
import { publishCatalogChanged } from "../changes/publish";
import type { PlanKind } from "./plans/schemas";
import { insertPlan } from "./plans/repo";
import { auditedWrite } from "./write";
import { type Tenant } from "../../lib/tenant";

interface AuditOptions {
  /** Who made the change; the operator CLI when not given. */
  actor?: Actor;
  /** The change notice to publish in the same transaction. */
  publish?: (tx: Db) => Promise<void>;
}

/** `auditedWrite` (write.ts) for a change whose result names the resource by its `id`; the CLI's actor unless told. */
export function audited<T extends { id: string }>(
  sql: Sql,
  tenant: Tenant,
  action: string,
  resourceType: string,
  work: (tx: Db) => Promise<T>,
  options: AuditOptions = {},
): Promise<T> {
  const named = async (tx: Db) => {
    const result = await work(tx);
    return { result, resourceId: result.id };
  };
  return auditedWrite(sql, tenant, options.actor ?? OPERATOR, action, resourceType, named, options.publish ?? (async () => {}));
}

export const catalogChanged = (tenant: Tenant): AuditOptions => ({ publish: (tx) => publishCatalogChanged(tx, tenant) });

/** A plan with no prices (the operator's quick path; the dashboard's createPlanRecord in plans.ts takes everything). */
export function createPlan(sql: Sql, tenant: Tenant, input: { name: string; tier?: string; description?: string; kind?: PlanKind }) {
  const fields = {
    name: input.name,
    tier: input.tier ?? "standard",
    description: input.description ?? null,
    kind: input.kind ?? "plan",
    trialDays: 0,
  };
  return audited(sql, tenant, "plan.create", "plan", async (tx) => (await insertPlan(tx, tenant, newId("plan"), fields))!, catalogChanged(tenant));
}
