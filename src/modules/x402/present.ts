/** An x402 payment as webhooks show it (`payment.confirmed`). */
import type { Offer } from "./compute";
import type { X402PaymentRow } from "./rows";

export const presentPayment = (r: X402PaymentRow, offer: Offer) => ({
  id: r.id,
  kind: "x402",
  companyId: r.company_id,
  creditPackId: r.pack_id,
  credits: String(r.credits),
  creditGrantId: r.credit_grant_id,
  network: r.network,
  networkCaip2: offer.requirement.network,
  asset: offer.token.contract,
  token: offer.token.symbol,
  amount: String(r.amount),
  payer: r.payer,
  payTo: r.pay_to,
  txHash: r.tx_hash,
  settledAt: r.settled_at?.toISOString() ?? null,
});
