/** Database row types of escrow_reservations. */
import type { Environment } from "../../lib/tenant";

export type EscrowStatus = "pending" | "authorized" | "captured" | "disputed" | "refunded";
export type PendingAction = "reserve" | "capture" | "capture_early" | "dispute" | "resolve_refund" | "resolve_capture";

export interface EscrowReservationRow {
  id: string;
  team_id: string;
  environment: Environment;
  company_id: string | null;
  network: string;
  contract: string;
  request_nonce: string;
  payer: string;
  payee: string;
  token: string;
  token_symbol: string;
  /** numeric(78, 0) as postgres.js reads it: a decimal string */
  amount: string;
  window_ends_at: Date;
  consent_deadline: Date;
  /** the Reclaim provider name whose proof may capture early; null: none may */
  delivery_provider: string | null;
  consent_signature: string;
  status: EscrowStatus;
  pending_action: PendingAction | null;
  pending_since: Date | null;
  authorize_tx: string | null;
  capture_tx: string | null;
  dispute_tx: string | null;
  refund_tx: string | null;
  captured_early: boolean;
  capture_proof_id: string | null;
  dispute_reason: string | null;
  disputed_via: "signature" | "embed_token" | "chain" | null;
  created_at: Date;
  updated_at: Date;
  authorized_at: Date | null;
  captured_at: Date | null;
  disputed_at: Date | null;
  refunded_at: Date | null;
  seq: bigint;
}
