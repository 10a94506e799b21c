/** The API's shapes of subscriptions and mandates (the spec's Mandate fields; amounts as token-unit strings). */
import { formatMicro } from "../../lib/money";
import type { MandateRow, SubscriptionRow } from "./rows";

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function presentMandate(m: MandateRow) {
  return {
    id: m.id,
    status: m.status,
    authorizedAmount: m.authorized_amount,
    remainingAmount: m.remaining_amount,
    payerWallet: m.payer_wallet,
    recipientWallet: m.recipient_wallet,
    expiresAt: iso(m.expires_at),
    subscriptionId: m.subscription_id,
    companyId: m.company_id,
    network: m.network,
    tokenSymbol: m.token_symbol,
    revokedAt: iso(m.revoked_at),
    revokedBy: m.revoked_by,
    revokeReason: m.revoke_reason,
    expiredAt: iso(m.expired_at),
    expiryReason: m.expiry_reason,
    createdAt: m.created_at.toISOString(),
  };
}

export function presentSubscription(s: SubscriptionRow, mandate: MandateRow | null = null) {
  return {
    id: s.id,
    status: s.status,
    companyId: s.company_id,
    planId: s.plan_id,
    billingPeriod: s.billing_period,
    price: formatMicro(s.price_amount),
    currency: s.currency,
    network: s.network,
    tokenSymbol: s.token_symbol,
    paymentAccount: s.payment_account,
    recipientWallet: s.payee_wallet,
    subscriberEmail: s.subscriber_email,
    couponId: s.coupon_id,
    tokenId: s.token_id,
    activationTxHash: s.activation_tx_hash,
    currentPeriodStart: s.current_period_start.toISOString(),
    currentPeriodEnd: s.current_period_end.toISOString(),
    trialEnd: iso(s.trial_end),
    cancelAtPeriodEnd: s.cancel_at_period_end,
    canceledAt: iso(s.canceled_at),
    cancelReason: s.cancel_reason,
    scheduledPlanId: s.scheduled_plan_id,
    scheduledBillingPeriod: s.scheduled_billing_period,
    dunningAttempts: s.dunning_attempts,
    nextAttemptAt: iso(s.next_attempt_at),
    mandateId: mandate?.id ?? null,
    createdAt: s.created_at.toISOString(),
  };
}
