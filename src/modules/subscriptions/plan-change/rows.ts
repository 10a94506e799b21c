/** Database row types of this folder (repo.ts reads and writes them). */
import type { Interval } from "../../../lib/period";

export interface QuoteRow {
  id: string;
  subscription_id: string;
  plan_id: string;
  billing_period: Interval;
  coupon_code: string | null;
  effective: "now" | "period_end";
  basis: string;
  priced_at: Date;
  expires_at: Date;
  invoice_total: bigint;
  credit_to_balance: bigint;
  net: bigint;
  used_at: Date | null;
}
