/** Rows to API records. */
import type { Static } from "elysia";
import { tokenLocator } from "../../lib/networks";
import type { CheckoutSession, PaymentLink } from "./schemas";
import type { CheckoutSessionRow, PaymentLinkRow } from "./rows";

export const presentPaymentLink = (r: PaymentLinkRow): Static<typeof PaymentLink> => ({
  id: r.id,
  amount: r.amount,
  currency: r.token_symbol,
  acceptedToken: tokenLocator(r.token),
  decimals: r.token.decimals,
  network: r.network,
  chainId: r.chain_id,
  recipientWallet: r.recipient_wallet,
  companyId: r.company_id,
  purpose: r.purpose,
  addOnPlanId: r.add_on_plan_id,
  creditAmount: r.credit_amount?.toString() ?? null,
  ttlSeconds: r.ttl_seconds,
  description: r.description,
  active: r.active,
  createdAt: r.created_at.toISOString(),
});

export const presentCheckoutSession = (r: CheckoutSessionRow): CheckoutSession => ({
  id: r.id,
  status: r.status,
  purpose: r.purpose,
  amount: r.amount,
  currency: r.token_symbol,
  acceptedToken: tokenLocator(r.token),
  decimals: r.token.decimals,
  chainId: r.chain_id,
  network: r.network,
  customerWallet: r.customer_wallet ?? "",
  recipientWallet: r.recipient_wallet,
  paymentLinkId: r.payment_link_id,
  companyId: r.company_id ?? "",
  addOnPlanId: r.add_on_plan_id,
  creditAmount: r.credit_amount?.toString() ?? null,
  memo: r.memo,
  txHash: r.tx_hash,
  failureReason: r.failure_reason,
  failureDetail: r.failure_detail,
  expiresAt: r.expires_at.toISOString(),
  paidAt: r.paid_at?.toISOString() ?? null,
  createdAt: r.created_at.toISOString(),
});
