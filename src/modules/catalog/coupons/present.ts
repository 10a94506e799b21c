/** Coupon rows to API records. */
import { type Static } from "elysia";
import { formatFixed, formatMicro } from "../../../lib/money";
import type { Coupon } from "./schemas";
import type { CouponRow } from "./rows";

export const presentCoupon = (r: CouponRow): Static<typeof Coupon> => ({
  id: r.id,
  code: r.code,
  name: r.name,
  percentOff: r.percent_off_bp === null ? null : formatFixed(BigInt(r.percent_off_bp), 2),
  amountOff: r.amount_off === null ? null : formatMicro(BigInt(r.amount_off)),
  currency: r.currency,
  duration: r.duration,
  durationPeriods: r.duration_periods,
  maxRedemptions: r.max_redemptions,
  redemptions: r.redemptions,
  expiresAt: r.expires_at?.toISOString() ?? null,
  planIds: r.plan_ids,
  archived: r.archived_at !== null,
  archivedAt: r.archived_at?.toISOString() ?? null,
  createdAt: r.created_at.toISOString(),
});
