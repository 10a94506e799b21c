/** Database row type of an x402 payment: one EIP-3009 authorization the service claimed, and what became of it. */

export type X402PaymentStatus = "claimed" | "settled" | "failed";

export interface X402PaymentRow {
  id: string;
  team_id: string;
  environment: string;
  company_id: string;
  pack_id: string;
  network: string;
  asset: string;
  payer: string;
  nonce: string;
  pay_to: string;
  amount: string;
  /** the authorization's validBefore, unix seconds */
  valid_before: string;
  credits: bigint | string;
  request_fingerprint: string;
  x402_version: number;
  status: X402PaymentStatus;
  failure_reason: string | null;
  tx_hash: string | null;
  log_index: number | null;
  credit_grant_id: string | null;
  claimed_at: Date;
  settled_at: Date | null;
  seq: bigint;
}
