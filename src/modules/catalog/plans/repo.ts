/** Typed wrappers over the plan, price and on-chain id queries. */
import { queries, run, runOne, type Db } from "../../../db/queries";
import type { PageWindow } from "../../../http/pagination";
import type { Tenant } from "../../../lib/tenant";
import type { BillingPeriod, PlanKind } from "./schemas";
import type { PlanFullRow, PlanLockRow, PriceRow } from "./rows";

const Q = queries([
  "plan_insert",
  "plan_find_full",
  "plan_list_page",
  "plan_lock_by_id",
  "plan_update",
  "plan_delete",
  "plan_usage_find",
  "plan_price_upsert",
  "plan_price_delete",
  "plan_price_find",
  "plan_onchain_id_delete_many",
  "plan_onchain_id_insert_many",
  "plan_find_by_onchain_id",
  "plan_list_by_ids",
  "plan_find_by_id",
]);

export interface PlanFields {
  name: string;
  tier: string;
  description: string | null;
  kind: PlanKind;
  trialDays: number;
}

export const insertPlan = (db: Db, t: Tenant, id: string, f: PlanFields) =>
  runOne<{ id: string; name: string; tier: string; description: string | null; created_at: Date }>(db, Q.plan_insert, [
    id,
    t.teamId,
    t.environment,
    f.name,
    f.tier,
    f.description,
    f.kind,
    f.trialDays,
  ]);

export const findPlanFull = (db: Db, t: Tenant, id: string) => runOne<PlanFullRow>(db, Q.plan_find_full, [t.teamId, t.environment, id]);

export const listPlanPage = (db: Db, t: Tenant, page: PageWindow, f: { includeArchived: boolean; kind: PlanKind | null }) =>
  run<PlanFullRow>(db, Q.plan_list_page, [t.teamId, t.environment, page.beforeSeq, page.fetch, f.includeArchived, f.kind]);

export const lockPlan = (db: Db, t: Tenant, id: string) => runOne<PlanLockRow>(db, Q.plan_lock_by_id, [t.teamId, t.environment, id]);

export const updatePlanRow = (db: Db, t: Tenant, id: string, u: { fields: PlanFields; archivedAt: Date | null; now: Date }) =>
  runOne(db, Q.plan_update, [
    t.teamId,
    t.environment,
    id,
    u.fields.name,
    u.fields.tier,
    u.fields.description,
    u.fields.kind,
    u.fields.trialDays,
    u.archivedAt,
    u.now,
  ]);

export const deletePlanRow = (db: Db, t: Tenant, id: string) => runOne(db, Q.plan_delete, [t.teamId, t.environment, id]);

export const planUsage = (db: Db, t: Tenant, id: string) =>
  runOne<{ companies: number; payments: number; coupons: number }>(db, Q.plan_usage_find, [t.teamId, t.environment, id]).then((r) => r!);

export const upsertPrice = (db: Db, t: Tenant, planId: string, p: { period: BillingPeriod; amount: bigint; currency: string; now: Date }) =>
  runOne(db, Q.plan_price_upsert, [t.teamId, t.environment, planId, p.period, p.amount, p.currency, p.now]);

export const deletePrice = (db: Db, t: Tenant, planId: string, period: BillingPeriod) =>
  runOne<{ amount: bigint; currency: string }>(db, Q.plan_price_delete, [t.teamId, t.environment, planId, period]);

export const findPrice = (db: Db, t: Tenant, planId: string, period: BillingPeriod) =>
  runOne<PriceRow>(db, Q.plan_price_find, [t.teamId, t.environment, planId, period]);

/** Replaces the plan's on-chain ids on the networks named (removed ones in `remove`, new ones in `set`). */
export async function replaceOnchainIds(db: Db, t: Tenant, planId: string, ids: { set: [string, string][]; remove: string[] }): Promise<void> {
  const { set, remove } = ids;
  const networks = [...remove, ...set.map(([n]) => n)];
  if (networks.length) await run(db, Q.plan_onchain_id_delete_many, [t.teamId, t.environment, planId, networks]);
  if (set.length) await run(db, Q.plan_onchain_id_insert_many, [t.teamId, t.environment, planId, set.map(([n]) => n), set.map(([, id]) => id)]);
}

export const findPlanByOnchainIdRow = (db: Db, t: Tenant, network: string, onchainPlanId: string) =>
  runOne<{ id: string; name: string; tier: string; kind: PlanKind; trial_days: number; archived_at: Date | null }>(db, Q.plan_find_by_onchain_id, [
    t.teamId,
    t.environment,
    network,
    onchainPlanId,
  ]);

/** The tenant's plans among `ids`, share-locked. */
export const plansByIds = (db: Db, t: Tenant, ids: string[]) =>
  run<{ id: string; name: string; tier: string; kind: PlanKind; archived_at: Date | null }>(db, Q.plan_list_by_ids, [t.teamId, t.environment, ids]);

/** Whether the tenant has a plan `id`. */
export const planExists = async (db: Db, t: Tenant, id: string) => Boolean(await runOne(db, Q.plan_find_by_id, [t.teamId, t.environment, id]));
