/**
 * Redeeming a coupon, for the subscription and plan-change services, inside THEIR transaction: the
 * redemption commits or rolls back with the activation it pays for.
 *
 * The count is one guarded UPDATE (coupon_redeem.sql): `redemptions < max_redemptions` is evaluated on
 * the row as locked, so concurrent redemptions queue on the row and never pass the maximum; no
 * read-then-write. When it finds no row, the coupon is read again only to say why (404 or 422 codes).
 */
import { apiError } from "../../../lib/errors";
import { newId } from "../../../lib/ids";
import { mulDivRound } from "../../../lib/money";
import type { Db } from "../../../db/queries";
import type { Tenant } from "../../../lib/tenant";
import type { CouponRow } from "./rows";

import { countRedemption, findCouponByCode, insertRedemption, releaseRedemptionRow } from "./repo";

export interface Redemption {
  /** cpred_… */
  id: string;
  coupon: CouponRow;
}

/** Why a coupon found by its code was not redeemed, in the order a customer can act on. */
function refusal(c: CouponRow, planId: string, now: Date) {
  if (c.archived_at) return apiError("coupon_archived", `Coupon ${c.code} is no longer available`);
  if (c.expires_at && c.expires_at <= now) return apiError("coupon_expired", `Coupon ${c.code} expired at ${c.expires_at.toISOString()}`);
  if (c.plan_ids.length && !c.plan_ids.includes(planId))
    return apiError("coupon_not_applicable", `Coupon ${c.code} does not apply to plan ${planId}`);
  return apiError("coupon_exhausted", `Coupon ${c.code} has reached its maximum of ${c.max_redemptions} redemptions`);
}

/**
 * Counts one redemption of the coupon `code` (any case) by `companyId` for `planId` at `now`, and records
 * it. Throws coupon_not_found (404), coupon_archived, coupon_expired, coupon_not_applicable (wrong plan) or
 * coupon_exhausted (422). `companyId` must be a company of the tenant (the caller has it locked or loaded).
 */
export async function redeemCoupon(
  tx: Db,
  tenant: Tenant,
  input: { code: string; companyId: string; planId: string },
  now: Date,
): Promise<Redemption> {
  const coupon = await countRedemption(tx, tenant, { code: input.code, planId: input.planId, now });
  if (!coupon) {
    const found = await findCouponByCode(tx, tenant, input.code);
    if (!found) throw apiError("coupon_not_found", `No coupon ${input.code}`);
    throw refusal(found, input.planId, now);
  }
  const id = newId("cpred");
  await insertRedemption(tx, tenant, { id, couponId: coupon.id, companyId: input.companyId, planId: input.planId, now });
  return { id, coupon };
}

/**
 * The coupon `code` as a redemption for `planId` at `now` would find it, without counting one: what a
 * preview shows. Throws what redeemCoupon would.
 */
export async function checkCoupon(db: Db, tenant: Tenant, input: { code: string; planId: string }, now: Date): Promise<CouponRow> {
  const { code, planId } = input;
  const found = await findCouponByCode(db, tenant, code);
  if (!found) throw apiError("coupon_not_found", `No coupon ${code}`);
  const redeemable =
    !found.archived_at &&
    (!found.expires_at || found.expires_at > now) &&
    (found.max_redemptions === null || found.redemptions < found.max_redemptions) &&
    (found.plan_ids.length === 0 || found.plan_ids.includes(planId));
  if (!redeemable) throw refusal(found, planId, now);
  return found;
}

/** Undoes a redemption whose purchase failed before anything was charged: the coupon counts one fewer. */
export async function releaseRedemption(tx: Db, tenant: Tenant, redemptionId: string, now: Date): Promise<void> {
  await releaseRedemptionRow(tx, tenant, redemptionId, now);
}

/** A coupon by id, archived or not (a subscription keeps applying the coupon it redeemed). */

/**
 * The discount a coupon gives on `subtotal` (micro-units) in `currency`: round(subtotal x percent), or the
 * amount off capped at the subtotal (never a negative total). An amount off in another currency is
 * coupon_not_applicable. One rounding, half away from zero (src/lib/money), applied to the discount line.
 */
export function couponDiscount(coupon: CouponRow, subtotal: bigint, currency: string): bigint {
  if (coupon.percent_off_bp !== null) return mulDivRound(subtotal, BigInt(coupon.percent_off_bp), 10_000n);
  if (coupon.currency?.toLowerCase() !== currency.toLowerCase())
    throw apiError("coupon_not_applicable", `Coupon ${coupon.code} is an amount off in ${coupon.currency}, not ${currency}`);
  const off = BigInt(coupon.amount_off!);
  return off < subtotal ? off : subtotal;
}

/**
 * Whether the coupon still discounts the `period`-th billing period of a subscription (0 is the first):
 * once -> the first only; repeating -> the first durationPeriods; forever -> all.
 */
export function couponAppliesToPeriod(coupon: CouponRow, period: number): boolean {
  if (coupon.duration === "once") return period === 0;
  if (coupon.duration === "repeating") return period < (coupon.duration_periods ?? 0);
  return true;
}
