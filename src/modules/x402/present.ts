/** An x402 payment as the dashboard lists it and `payment.confirmed` sends it. */
import type { X402PaymentRow } from "./rows";
import type { X402Payment } from "./schemas";

export const presentPayment = (r: X402PaymentRow): X402Payment => ({
  id: r.id,
  status: r.status,
  companyId: r.company_id,
  creditPackId: r.pack_id,
  credits: String(r.credits),
  network: r.network,
  asset: r.asset,
  payer: r.payer,
  payTo: r.pay_to,
  amount: String(r.amount),
  txHash: r.tx_hash,
  creditGrantId: r.credit_grant_id,
  failureReason: r.failure_reason,
  x402Version: r.x402_version,
  claimedAt: r.claimed_at.toISOString(),
  settledAt: r.settled_at?.toISOString() ?? null,
});
