/** Database row type of a coupon (the percentage in basis points, the amount in micro-units). */
import type { CouponDuration } from "./schemas";

export interface CouponRow {
  id: string;
  code: string;
  name: string;
  percent_off_bp: number | null;
  amount_off: bigint | null;
  currency: string | null;
  duration: CouponDuration;
  duration_periods: number | null;
  max_redemptions: number | null;
  redemptions: number;
  expires_at: Date | null;
  plan_ids: string[];
  archived_at: Date | null;
  created_at: Date;
  seq: bigint;
}
