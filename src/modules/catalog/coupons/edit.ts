/**
 * Coupons: create, read, update, archive. Like Stripe's, a coupon's terms (discount, currency, duration,
 * plans) are fixed once it has been redeemed: a customer who redeemed "25% for 3 months" keeps exactly
 * that. Its name and expiry may always change, and its maximum redemptions may only go up (or be lifted).
 * Before the first redemption the terms may change too. Coupons are archived, never deleted: redemptions
 * and invoices refer to them.
 */
import { apiError } from "../../../lib/errors";
import { newId } from "../../../lib/ids";
import type { Db } from "../../../db/queries";
import type { PageWindow } from "../../../http/pagination";
import type { Tenant } from "../../../lib/tenant";
import type { Actor } from "../../audit/repo";
import { COUPON_CODE, type CouponCreate, type CouponPatch } from "./schemas";
import { type CouponRow } from "./rows";
import { checkExpiry, checkTermFormats, checkTerms, termsInputOf, type CouponTerms } from "./compute";
import { plansByIds } from "../plans/repo";
import { findCouponById, insertCoupon, listCouponRows, lockCoupon, updateCouponRow } from "./repo";
import { Problems } from "../problems";
import { catalogWrite, type CatalogDeps } from "../write";

/** 400 naming the plan ids that are not plans of the tenant (share-locked until the write commits). */
async function checkPlanIds(tx: Db, tenant: Tenant, planIds: string[], p: Problems): Promise<void> {
  const known = new Set((await plansByIds(tx, tenant, planIds)).map((r) => r.id));
  const unknown = planIds.filter((id) => !known.has(id));
  if (unknown.length) p.add("planIds", `No plan ${unknown.join(", ")}`);
  p.check();
}

const auditTerms = (t: CouponTerms, planIds: string[]) => ({
  percentOffBp: t.percentOffBp,
  amountOff: t.amountOff?.toString() ?? null,
  currency: t.currency,
  duration: t.duration,
  durationPeriods: t.durationPeriods,
  planIds,
});

export async function createCoupon(deps: CatalogDeps, tenant: Tenant, actor: Actor, input: CouponCreate) {
  const p = new Problems(deps.fieldPrefix);
  const now = deps.now();
  if (typeof input.code !== "string" || !COUPON_CODE.test(input.code)) p.add("code", "Expected 1 to 64 of A-Z a-z 0-9 _ -");
  if (input.name !== undefined) p.text("name", input.name);
  const terms = checkTerms(p, deps.chains, tenant.environment, input);
  if (input.maxRedemptions !== undefined) p.integer("maxRedemptions", input.maxRedemptions, 1, 2147483647);
  const expiresAt = checkExpiry(p, input.expiresAt, now);
  const planIds = [...new Set(input.planIds ?? [])];
  p.check();
  const id = newId("coupon");
  return catalogWrite(deps.sql, tenant, { actor, action: "coupon.create", resourceType: "coupon" }, async (tx) => {
    await checkPlanIds(tx, tenant, planIds, p);
    const t = terms!;
    const fields = {
      name: input.name ?? input.code,
      percentOffBp: t.percentOffBp,
      amountOff: t.amountOff,
      currency: t.currency,
      duration: t.duration,
      durationPeriods: t.durationPeriods,
      maxRedemptions: input.maxRedemptions ?? null,
      expiresAt,
      planIds,
    };
    const row = await insertCoupon(tx, tenant, { id, code: input.code, fields, now });
    if (!row) throw apiError("conflict", `Coupon code ${input.code} is already taken (codes are compared in any case)`);
    return { result: row, resourceId: id, details: { code: input.code, ...auditTerms(t, planIds), maxRedemptions: input.maxRedemptions ?? null } };
  });
}

export async function getCoupon(db: Db, tenant: Tenant, id: string): Promise<CouponRow> {
  const row = await findCouponById(db, tenant, id);
  if (!row) throw apiError("not_found", `No coupon ${id}`);
  return row;
}

export const listCouponPage = (db: Db, tenant: Tenant, page: PageWindow, includeArchived: boolean) =>
  listCouponRows(db, tenant, { beforeSeq: page.beforeSeq, fetch: page.fetch, includeArchived });

/** An int8 column as read (the driver may hand it over as a string) as a bigint. */
const nullableBigInt = (v: bigint | string | null) => (v === null ? null : BigInt(v));

const TERM_FIELDS = ["percentOff", "amountOff", "currency", "duration", "durationPeriods", "planIds"] as const;

/** A partial update (see the header for what may change when); `archive` is archiveCoupon. */
export async function updateCoupon(deps: CatalogDeps, tenant: Tenant, actor: Actor, change: { id: string; patch: CouponPatch }) {
  const { id, patch } = change;
  const p = new Problems();
  const now = deps.now();
  if (patch.name !== undefined) p.text("name", patch.name);
  const expiresAt = patch.expiresAt === undefined ? undefined : checkExpiry(p, patch.expiresAt, now);
  if (patch.maxRedemptions !== undefined && patch.maxRedemptions !== null) p.integer("maxRedemptions", patch.maxRedemptions, 1, 2147483647);
  checkTermFormats(p, patch);
  p.check();
  return catalogWrite(deps.sql, tenant, { actor, action: "coupon.update", resourceType: "coupon" }, async (tx) => {
    const current = await lockCoupon(tx, tenant, id);
    if (!current) throw apiError("not_found", `No coupon ${id}`);
    // The discount is one of two kinds: sending one kind replaces the stored other (no explicit null needed).
    const sentTerms = Object.fromEntries(TERM_FIELDS.map((f) => [f, patch[f]]).filter(([, v]) => v !== undefined));
    const kept = termsInputOf(current);
    if (patch.amountOff !== undefined && patch.percentOff === undefined) kept.percentOff = null;
    if (patch.percentOff !== undefined && patch.amountOff === undefined) Object.assign(kept, { amountOff: null, currency: null });
    const terms = checkTerms(p, deps.chains, tenant.environment, { ...kept, ...sentTerms });
    p.check();
    // Compared as stored, after parsing: a dashboard form sends every field back, and "25" is "25.00".
    const t = terms!;
    const samePlans =
      patch.planIds === undefined || JSON.stringify([...new Set(patch.planIds)].sort()) === JSON.stringify([...current.plan_ids].sort());
    const changed = {
      discount: t.percentOffBp !== current.percent_off_bp || t.amountOff !== nullableBigInt(current.amount_off) || t.currency !== current.currency,
      duration: t.duration !== current.duration || t.durationPeriods !== current.duration_periods,
      planIds: !samePlans,
    };
    const changesTerms = Object.entries(changed).flatMap(([what, yes]) => (yes ? [what] : []));
    if (changesTerms.length && current.redemptions > 0)
      throw apiError(
        "conflict",
        `Coupon ${current.code} has been redeemed ${current.redemptions} times; its ${changesTerms.join(", ")} can no longer change (create a new coupon)`,
      );
    const max = patch.maxRedemptions === undefined ? current.max_redemptions : patch.maxRedemptions;
    if (max !== null && current.max_redemptions !== null && max < current.max_redemptions && current.redemptions > 0)
      p.add("maxRedemptions", `Expected at least ${current.max_redemptions}: a redeemed coupon's maximum can only go up`);
    if (max !== null && max < current.redemptions) p.add("maxRedemptions", `Expected at least ${current.redemptions}, the redemptions so far`);
    p.check();
    const planIds = patch.planIds === undefined ? current.plan_ids : [...new Set(patch.planIds)];
    if (patch.planIds !== undefined) await checkPlanIds(tx, tenant, planIds, p);
    const fields = {
      name: patch.name ?? current.name,
      percentOffBp: t.percentOffBp,
      amountOff: t.amountOff,
      currency: t.currency,
      duration: t.duration,
      durationPeriods: t.durationPeriods,
      maxRedemptions: max,
      expiresAt: expiresAt === undefined ? current.expires_at : expiresAt,
      planIds,
    };
    const row = (await updateCouponRow(tx, tenant, { id, fields, archivedAt: current.archived_at, now }))!;
    return { result: row, resourceId: id, details: { patch: { ...patch }, maxRedemptions: max, ...auditTerms(t, planIds) } };
  });
}

/** Archives a coupon: it can no longer be redeemed; redemptions so far stand. Archiving twice is a no-op. */
export function archiveCoupon(deps: CatalogDeps, tenant: Tenant, actor: Actor, id: string) {
  const now = deps.now();
  return catalogWrite(deps.sql, tenant, { actor, action: "coupon.archive", resourceType: "coupon" }, async (tx) => {
    const c = await lockCoupon(tx, tenant, id);
    if (!c) throw apiError("not_found", `No coupon ${id}`);
    const fields = {
      name: c.name,
      percentOffBp: c.percent_off_bp,
      amountOff: c.amount_off,
      currency: c.currency,
      duration: c.duration,
      durationPeriods: c.duration_periods,
      maxRedemptions: c.max_redemptions,
      expiresAt: c.expires_at,
      planIds: c.plan_ids,
    };
    const row = (await updateCouponRow(tx, tenant, { id, fields, archivedAt: c.archived_at ?? now, now }))!;
    return { result: row, resourceId: id, details: { code: c.code } };
  });
}
