/**
 * Plans and add-ons (a plan of kind `add_on`) with prices and on-chain ids: create, read, update,
 * archive or delete, and prices set, replaced or removed. Each write validates every field first (one 400
 * naming them all), then runs as one audited transaction that publishes the catalog change (../write.ts).
 *
 * Removing a plan that anything still refers to (companies on it as plan or add-on, payment links or
 * checkout sessions selling it, coupons restricted to it) archives it: it leaves lists, can no longer be
 * given prices or sold, but companies on it keep their entitlements. An unused plan is deleted.
 */
import { apiError } from "../../../lib/errors";
import { newId } from "../../../lib/ids";
import type { Db } from "../../../db/queries";
import type { Sql } from "../../../db/client";
import type { Tenant } from "../../../lib/tenant";
import type { Actor } from "../../audit/repo";
import { checkOnchainIds, checkPeriod, checkPlanFields, checkPrice, checkPrices } from "./compute";
import type { BillingPeriod, PlanCreate, PlanKind, PlanPatch } from "./schemas";
import type { PlanFullRow } from "./rows";
import {
  deletePlanRow,
  deletePrice,
  findPlanFull,
  insertPlan,
  lockPlan,
  planUsage,
  replaceOnchainIds,
  updatePlanRow,
  upsertPrice,
  type PlanFields,
} from "./repo";
import { Problems } from "../problems";
import { audited, catalogChanged, catalogWrite, isUniqueViolation, type CatalogDeps } from "../write";

/** On-chain ids are unique per team, environment and network: a taken one is a 409 naming it. */
async function writeOnchainIds(tx: Db, tenant: Tenant, planId: string, set: [string, string][], remove: string[]) {
  try {
    await replaceOnchainIds(tx, tenant, planId, { set, remove });
  } catch (error) {
    if (isUniqueViolation(error, "plan_onchain_ids"))
      throw apiError("conflict", `On-chain plan id already names another plan on its network: ${set.map(([n, id]) => `${n}=${id}`).join(", ")}`);
    throw error;
  }
}

export async function getPlan(db: Db, tenant: Tenant, id: string): Promise<PlanFullRow> {
  const plan = await findPlanFull(db, tenant, id);
  if (!plan) throw apiError("not_found", `No plan ${id}`);
  return plan;
}

export async function createPlanRecord(deps: CatalogDeps, tenant: Tenant, actor: Actor, input: PlanCreate) {
  const p = new Problems(deps.fieldPrefix);
  checkPlanFields(p, input);
  const prices = checkPrices(p, deps.chains, tenant.environment, input.prices ?? []);
  const onchain = checkOnchainIds(p, deps.chains, tenant.environment, input.onchainPlanIds ?? {});
  p.check();
  const id = newId("plan");
  const fields: PlanFields = {
    name: input.name,
    tier: input.tier ?? "standard",
    description: input.description ?? null,
    kind: input.kind ?? "plan",
    trialDays: input.trialDays ?? 0,
  };
  const now = deps.now();
  return catalogWrite(deps.sql, tenant, { actor, action: "plan.create", resourceType: "plan" }, async (tx) => {
    await insertPlan(tx, tenant, id, fields);
    for (const price of prices)
      await upsertPrice(tx, tenant, id, { period: price.billingPeriod, amount: price.amount, currency: price.currency, now });
    await writeOnchainIds(tx, tenant, id, onchain.set, []);
    const details = { ...fields, prices: prices.map((x) => ({ ...x, amount: x.amount.toString() })), onchainPlanIds: input.onchainPlanIds ?? {} };
    return { result: (await findPlanFull(tx, tenant, id))!, resourceId: id, details };
  });
}

async function lockLivePlan(tx: Db, tenant: Tenant, id: string) {
  const plan = await lockPlan(tx, tenant, id);
  if (!plan) throw apiError("not_found", `No plan ${id}`);
  return plan;
}

/** A partial update; `archived` archives (true) or restores (false) the plan. */
export async function updatePlanRecord(deps: CatalogDeps, tenant: Tenant, actor: Actor, change: { id: string; patch: PlanPatch }) {
  const { id, patch } = change;
  const p = new Problems(deps.fieldPrefix);
  checkPlanFields(p, patch);
  const onchain = checkOnchainIds(p, deps.chains, tenant.environment, patch.onchainPlanIds ?? {});
  p.check();
  const now = deps.now();
  return catalogWrite(deps.sql, tenant, { actor, action: "plan.update", resourceType: "plan" }, async (tx) => {
    const current = await lockLivePlan(tx, tenant, id);
    const next: PlanFields = {
      name: patch.name ?? current.name,
      tier: patch.tier ?? current.tier,
      description: patch.description === undefined ? current.description : patch.description,
      kind: (patch.kind ?? current.kind) as PlanKind,
      trialDays: patch.trialDays ?? current.trial_days,
    };
    if (next.kind !== current.kind) {
      const usage = await planUsage(tx, tenant, id);
      if (usage.companies || usage.payments)
        throw apiError(
          "conflict",
          `Plan ${id} is in use (${usage.companies} companies, ${usage.payments} payment links or sessions); its kind cannot change`,
        );
    }
    const archivedAt = patch.archived === undefined ? current.archived_at : patch.archived ? (current.archived_at ?? now) : null;
    await updatePlanRow(tx, tenant, id, { fields: next, archivedAt, now });
    await writeOnchainIds(tx, tenant, id, onchain.set, onchain.remove);
    const before = { name: current.name, tier: current.tier, description: current.description, kind: current.kind, trialDays: current.trial_days };
    const details = { before, after: next, archived: archivedAt !== null, onchainPlanIds: patch.onchainPlanIds ?? {} };
    return { result: (await findPlanFull(tx, tenant, id))!, resourceId: id, details };
  });
}

/** Deletes an unused plan; archives one that anything refers to (see the header). */
export function removePlan(deps: CatalogDeps, tenant: Tenant, actor: Actor, id: string) {
  const now = deps.now();
  return catalogWrite(deps.sql, tenant, { actor, action: "plan.remove", resourceType: "plan" }, async (tx) => {
    const current = await lockLivePlan(tx, tenant, id);
    const usage = await planUsage(tx, tenant, id);
    const used = usage.companies + usage.payments + usage.coupons > 0;
    if (used) {
      const fields = { name: current.name, tier: current.tier, description: current.description, kind: current.kind, trialDays: current.trial_days };
      await updatePlanRow(tx, tenant, id, { fields, archivedAt: current.archived_at ?? now, now });
    } else await deletePlanRow(tx, tenant, id);
    const outcome = used ? ("archived" as const) : ("deleted" as const);
    return { result: { id, outcome }, resourceId: id, details: { outcome, ...usage } };
  });
}

/** Sets (or replaces) the plan's price for one billing period. */
export async function setPlanPrice(
  deps: CatalogDeps,
  tenant: Tenant,
  actor: Actor,
  change: { planId: string; period: string; price: { amount: unknown; currency: unknown } },
) {
  const { planId, period, price: input } = change;
  const p = new Problems(deps.fieldPrefix);
  const periodOk = checkPeriod(p, "billingPeriod", period);
  const price = checkPrice(p, { chains: deps.chains, environment: tenant.environment }, "", input);
  p.check();
  if (!periodOk || !price) throw new Error("unreachable: problems were reported");
  const now = deps.now();
  return catalogWrite(deps.sql, tenant, { actor, action: "plan.price_set", resourceType: "plan" }, async (tx) => {
    const plan = await lockLivePlan(tx, tenant, planId);
    if (plan.archived_at) throw apiError("conflict", `Plan ${planId} is archived; restore it before changing its prices`);
    await upsertPrice(tx, tenant, planId, { period: period as BillingPeriod, amount: price.amount, currency: price.currency, now });
    const details = { billingPeriod: period, amount: price.amount.toString(), currency: price.currency };
    return { result: (await findPlanFull(tx, tenant, planId))!, resourceId: planId, details };
  });
}

export async function removePlanPrice(deps: CatalogDeps, tenant: Tenant, actor: Actor, price: { planId: string; period: string }) {
  const { planId, period } = price;
  const p = new Problems(deps.fieldPrefix);
  checkPeriod(p, "billingPeriod", period);
  p.check();
  return catalogWrite(deps.sql, tenant, { actor, action: "plan.price_remove", resourceType: "plan" }, async (tx) => {
    await lockLivePlan(tx, tenant, planId);
    const removed = await deletePrice(tx, tenant, planId, period as BillingPeriod);
    if (!removed) throw apiError("not_found", `Plan ${planId} has no ${period} price`);
    const details = { billingPeriod: period, amount: removed.amount.toString(), currency: removed.currency };
    return { result: (await findPlanFull(tx, tenant, planId))!, resourceId: planId, details };
  });
}

/** A plan with no prices (the operator's quick path; createPlanRecord takes everything). */
export function createPlan(sql: Sql, tenant: Tenant, input: { name: string; tier?: string; description?: string; kind?: PlanKind }) {
  const fields = {
    name: input.name,
    tier: input.tier ?? "standard",
    description: input.description ?? null,
    kind: input.kind ?? "plan",
    trialDays: 0,
  };
  return audited(
    sql,
    tenant,
    { action: "plan.create", resourceType: "plan", ...catalogChanged(tenant) },
    async (tx) => (await insertPlan(tx, tenant, newId("plan"), fields))!,
  );
}
