/**
 * Coupon shapes. A coupon takes `percentOff` (a percentage with up to 2 fractional digits, 0.01 to 100,
 * stored as basis points) or `amountOff` (a decimal string in `currency`), never both.
 */
import { t, type Static } from "elysia";
import { fixedFormat } from "../../../lib/money";
import { NonBlankText } from "../../../http/non-blank-text";

export const COUPON_DURATIONS = ["once", "repeating", "forever"] as const;
export type CouponDuration = (typeof COUPON_DURATIONS)[number];
export const COUPON_CODE = /^[A-Za-z0-9_-]{1,64}$/;
export const MAX_DURATION_PERIODS = 1200;
/** Percent off in basis points: "12.5" -> 1250, from 0.01% (1) to 100% (10000). */
export const PERCENT_OFF = fixedFormat(2, 1n, 10000n);

const Nullable = <S extends ReturnType<typeof t.String>>(s: S) => t.Union([s, t.Null()]);
const Duration = t.Union([t.Literal("once"), t.Literal("repeating"), t.Literal("forever")], {
  description: "once: the first period; repeating: durationPeriods periods; forever",
});

export const CouponCreate = t.Object(
  {
    code: t.String({ pattern: COUPON_CODE.source, description: "Unique per team and environment in any case; A-Z a-z 0-9 _ - (1-64)" }),
    name: t.Optional(NonBlankText("Default: the code")),
    percentOff: t.Optional(t.String({ maxLength: 16, description: "Percent, up to 2 fractional digits, 0.01 to 100", examples: ["25"] })),
    amountOff: t.Optional(t.String({ maxLength: 64, description: "Decimal string, at most 6 fractional digits, > 0" })),
    currency: t.Optional(t.String({ minLength: 1, maxLength: 32, description: "With amountOff: a settlement token's symbol" })),
    duration: Duration,
    durationPeriods: t.Optional(t.Integer({ minimum: 1, maximum: MAX_DURATION_PERIODS, description: "With duration repeating" })),
    maxRedemptions: t.Optional(t.Integer({ minimum: 1, maximum: 2147483647 })),
    expiresAt: t.Optional(t.String({ format: "date-time", description: "Redeemable until then (must be in the future)" })),
    planIds: t.Optional(
      t.Array(t.String({ minLength: 1, maxLength: 200 }), { maxItems: 100, description: "Plans it applies to; empty or absent: any" }),
    ),
  },
  { $id: "CouponCreate", examples: [{ code: "LAUNCH25", percentOff: "25", duration: "repeating", durationPeriods: 3, maxRedemptions: 100 }] },
);
export type CouponCreate = Static<typeof CouponCreate>;

export const CouponPatch = t.Object(
  {
    name: t.Optional(NonBlankText()),
    expiresAt: t.Optional(t.Union([t.String({ format: "date-time" }), t.Null()])),
    maxRedemptions: t.Optional(t.Union([t.Integer({ minimum: 1, maximum: 2147483647 }), t.Null()])),
    percentOff: t.Optional(t.Union([t.String({ maxLength: 16 }), t.Null()])),
    amountOff: t.Optional(t.Union([t.String({ maxLength: 64 }), t.Null()])),
    currency: t.Optional(t.Union([t.String({ minLength: 1, maxLength: 32 }), t.Null()])),
    duration: t.Optional(Duration),
    durationPeriods: t.Optional(t.Union([t.Integer({ minimum: 1, maximum: MAX_DURATION_PERIODS }), t.Null()])),
    planIds: t.Optional(t.Array(t.String({ minLength: 1, maxLength: 200 }), { maxItems: 100 })),
  },
  { $id: "CouponPatch", examples: [{ name: "Launch week", maxRedemptions: 200 }] },
);
export type CouponPatch = Static<typeof CouponPatch>;

export const Coupon = t.Object(
  {
    id: t.String({ description: "coupon_…" }),
    code: t.String(),
    name: t.String(),
    percentOff: Nullable(t.String({ description: 'Two fractional digits ("25.00")' })),
    amountOff: Nullable(t.String({ description: "Six fractional digits" })),
    currency: Nullable(t.String()),
    duration: Duration,
    durationPeriods: t.Union([t.Integer(), t.Null()]),
    maxRedemptions: t.Union([t.Integer(), t.Null()]),
    redemptions: t.Integer(),
    expiresAt: Nullable(t.String({ format: "date-time" })),
    planIds: t.Array(t.String()),
    archived: t.Boolean(),
    archivedAt: Nullable(t.String({ format: "date-time" })),
    createdAt: t.String({ format: "date-time" }),
  },
  { $id: "Coupon" },
);
