/** Typed wrappers over the coupon queries: the catalog's writes and reads, and redemptions. */
import { queries, run, runOne, type Db } from "../../../db/queries";
import type { Tenant } from "../../../lib/tenant";
import type { CouponRow } from "./rows";

const Q = queries([
  "coupon_insert",
  "coupon_find_by_id",
  "coupon_lock_by_id",
  "coupon_list_page",
  "coupon_update",
  "coupon_redeem",
  "coupon_find_by_code",
  "coupon_redemption_insert",
  "coupon_redemption_release",
]);

/** A coupon's terms and limits as written: the columns both the insert and the update take. */
export interface CouponFields {
  name: string;
  percentOffBp: number | null;
  amountOff: bigint | null;
  currency: string | null;
  duration: string;
  durationPeriods: number | null;
  maxRedemptions: number | null;
  expiresAt: Date | null;
  planIds: readonly string[];
}

/** The fields as the statements' one jsonb record (keys named as the columns; the amount as an integer string). */
const couponRecord = (f: CouponFields) => ({
  name: f.name,
  percent_off_bp: f.percentOffBp,
  amount_off: f.amountOff?.toString() ?? null,
  currency: f.currency,
  duration: f.duration,
  duration_periods: f.durationPeriods,
  max_redemptions: f.maxRedemptions,
  expires_at: f.expiresAt?.toISOString() ?? null,
  plan_ids: [...f.planIds],
});

/** Inserts a coupon; null when its code is taken (in any case). */
export const insertCoupon = (db: Db, t: Tenant, c: { id: string; code: string; fields: CouponFields; now: Date }) =>
  runOne<CouponRow>(db, Q.coupon_insert, [c.id, t.teamId, t.environment, c.now, { code: c.code, ...couponRecord(c.fields) }]);

export const updateCouponRow = (db: Db, t: Tenant, c: { id: string; fields: CouponFields; archivedAt: Date | null; now: Date }) =>
  runOne<CouponRow>(db, Q.coupon_update, [
    t.teamId,
    t.environment,
    c.id,
    c.now,
    { ...couponRecord(c.fields), archived_at: c.archivedAt?.toISOString() ?? null },
  ]);

/** A coupon by id, archived or not. */
export const findCouponById = (db: Db, t: Tenant, id: string) => runOne<CouponRow>(db, Q.coupon_find_by_id, [t.teamId, t.environment, id]);

/** Locks the coupon row for the rest of the transaction. */
export const lockCoupon = (db: Db, t: Tenant, id: string) => runOne<CouponRow>(db, Q.coupon_lock_by_id, [t.teamId, t.environment, id]);

/** A page of coupons, newest first, before `page.beforeSeq` (archived ones when asked). */
export const listCouponRows = (db: Db, t: Tenant, page: { beforeSeq: bigint | null; fetch: number; includeArchived: boolean }) =>
  run<CouponRow>(db, Q.coupon_list_page, [t.teamId, t.environment, page.beforeSeq, page.fetch, page.includeArchived]);

export const findCouponByCode = (db: Db, t: Tenant, code: string) => runOne<CouponRow>(db, Q.coupon_find_by_code, [t.teamId, t.environment, code]);

/** Counts one redemption of `code` for `planId` (see coupon_redeem.sql); null when the guarded update finds no row. */
export const countRedemption = (db: Db, t: Tenant, r: { code: string; planId: string; now: Date }) =>
  runOne<CouponRow>(db, Q.coupon_redeem, [t.teamId, t.environment, r.code, r.planId, r.now]);

export const insertRedemption = (db: Db, t: Tenant, r: { id: string; couponId: string; companyId: string; planId: string; now: Date }) =>
  runOne(db, Q.coupon_redemption_insert, [r.id, t.teamId, t.environment, r.couponId, r.companyId, r.planId, r.now]);

export const releaseRedemptionRow = (db: Db, t: Tenant, redemptionId: string, now: Date) =>
  runOne(db, Q.coupon_redemption_release, [t.teamId, t.environment, redemptionId, now]);
