/**
 * What the subscription pages read from the API, as it answers (docs/subscriptions.md#operating-subscriptions-dashboard-and-cli):
 * the fields printed, not re-typed rules. Amounts stay the API's strings (list prices with six fractional digits,
 * mandate and chain amounts in integer token units).
 */

export const SUBSCRIPTION_STATUSES: readonly string[] = ["INCOMPLETE", "INCOMPLETE_EXPIRED", "TRIALING", "ACTIVE", "PAST_DUE", "CANCELED"];
export const PATH = "/dashboard/subscriptions";

export interface SubscriptionView {
  id: string;
  status: string;
  companyId: string;
  companyName: string | null;
  companyExternalId: string | null;
  planId: string;
  planName: string | null;
  billingPeriod: string;
  price: string;
  currency: string;
  network: string;
  tokenSymbol: string;
  paymentAccount: string;
  recipientWallet: string;
  subscriberEmail: string | null;
  couponId: string | null;
  tokenId: string | null;
  activationTxHash: string | null;
  currentPeriodStart: string;
  currentPeriodEnd: string;
  trialEnd: string | null;
  cancelAtPeriodEnd: boolean;
  canceledAt: string | null;
  cancelReason: string | null;
  scheduledPlanId: string | null;
  scheduledBillingPeriod: string | null;
  dunningAttempts: number;
  nextAttemptAt: string | null;
  mandateId: string | null;
  createdAt: string;
}

export interface MandateView {
  id: string;
  status: string;
  authorizedAmount: string;
  remainingAmount: string;
  payerWallet: string;
  recipientWallet: string;
  expiresAt: string | null;
  network: string;
  tokenSymbol: string;
  revokedAt: string | null;
  revokedBy: string | null;
  revokeReason: string | null;
  expiredAt: string | null;
  expiryReason: string | null;
  createdAt: string;
}

export interface OperationView {
  id: string;
  kind: string;
  status: string;
  amount: string;
  txHash: string | null;
  invoiceId: string | null;
  periodStart: string;
  attempt: number;
  failureReason: string | null;
  failureDetail: string | null;
  createdAt: string;
}

export interface SubscriptionDetailView extends SubscriptionView {
  mandate: MandateView | null;
  operations: OperationView[];
}

export interface QuoteLine {
  description: string;
  quantity: number;
  unitAmount: string;
  taxRate: string;
  lineSubtotal: string;
  lineTax: string;
  lineTotal: string;
  kind: string;
}

/** POST /dashboard/companies/{id}/plan/preview's `data`. */
export interface QuoteView {
  kind: string;
  changed: boolean;
  effective: string;
  currency: string;
  credit: string;
  charge: string;
  net: string;
  creditToBalance: string;
  invoice: { lineItems: QuoteLine[]; subtotal: string; taxTotal: string; total: string; balanceApplied: string } | null;
  planId: string;
  billingPeriod: string;
  currentPeriodStart: string;
  currentPeriodEnd: string;
  quote: { id: string; pricedAt: string; expiresAt: string };
}

export interface PlanOption {
  id: string;
  name: string;
  prices: { billingPeriod: string; amount: string; currency: string }[];
}

/** A form's values and the API's answer to it, to print again. */
export interface FormState {
  values: Record<string, string>;
  error: string | null;
  fields: Record<string, string>;
}

/** The subscription's own page. */
export const detailPath = (id: string) => `${PATH}/${encodeURIComponent(id)}`;

/** A company as an operator knows it: its name, else the integrator's id for it, else ours. */
export const companyLabel = (s: Pick<SubscriptionView, "companyName" | "companyExternalId" | "companyId">): string =>
  s.companyName ?? s.companyExternalId ?? s.companyId;
export const planLabel = (s: Pick<SubscriptionView, "planName" | "planId">): string => s.planName ?? s.planId;
