/** Database row types of payment links, checkout sessions and the payment a settlement records. */
import type { TokenConfig } from "../../chains/types";
import { type Environment } from "../../lib/tenant";
import type { Purpose, SessionStatus } from "./schemas";

export interface PaymentLinkRow {
  id: string;
  team_id: string;
  environment: Environment;
  network: string;
  chain_id: number | null;
  token_symbol: string;
  token: TokenConfig;
  amount: string;
  recipient_wallet: string;
  company_id: string | null;
  purpose: Purpose;
  add_on_plan_id: string | null;
  credit_amount: bigint | null;
  ttl_seconds: number;
  description: string | null;
  active: boolean;
  created_at: Date;
}

export interface CheckoutSessionRow {
  id: string;
  team_id: string;
  environment: Environment;
  payment_link_id: string;
  company_id: string | null;
  customer_wallet: string | null;
  status: SessionStatus;
  purpose: Purpose;
  amount: string;
  network: string;
  chain_id: number | null;
  token_symbol: string;
  token: TokenConfig;
  recipient_wallet: string;
  add_on_plan_id: string | null;
  credit_amount: bigint | null;
  memo: string | null;
  tx_hash: string | null;
  failure_reason: string | null;
  failure_detail: string | null;
  expires_at: Date;
  paid_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** The payment row a settlement inserted: its id, the token units the transfer moved, and who sent them. */
export interface RecordedPayment {
  id: string;
  amount: bigint;
  payer: string;
}
