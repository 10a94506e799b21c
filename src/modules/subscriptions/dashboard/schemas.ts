/**
 * The operator's view of subscriptions (the dashboard routes and the CLI): a subscription as presentSubscription
 * shows it, and its detail with its mandate and its recent chain operations. An operation shows what was asked
 * of the chain and what came of it: never the operator key that signed it, nor the RPC endpoint it went to.
 */
import { t, type Static } from "elysia";
import { PageQuery } from "../../../http/pagination";
import type { ChargeRow, SubscriptionStatus } from "../rows";
import { Mandate } from "../schemas";

const STATUSES = ["INCOMPLETE", "INCOMPLETE_EXPIRED", "TRIALING", "ACTIVE", "PAST_DUE", "CANCELED"] as const satisfies readonly SubscriptionStatus[];
export const SUBSCRIPTION_STATUSES: readonly SubscriptionStatus[] = STATUSES;

// Literals, not t.UnionEnum: Elysia fills an absent optional UnionEnum query parameter with its first value.
const Status = t.Union(
  [
    t.Literal("INCOMPLETE"),
    t.Literal("INCOMPLETE_EXPIRED"),
    t.Literal("TRIALING"),
    t.Literal("ACTIVE"),
    t.Literal("PAST_DUE"),
    t.Literal("CANCELED"),
  ],
  {
    "x-expected": `Expected one of: ${STATUSES.join(", ")} (in capitals)`,
    description:
      "INCOMPLETE: the activation's chain operation is under way; INCOMPLETE_EXPIRED: it failed, nothing was charged; TRIALING, ACTIVE, PAST_DUE: live; CANCELED: ended",
  },
);
const Period = t.Union([t.Literal("monthly"), t.Literal("yearly")]);
const Time = t.String({ format: "date-time" });
const Nullable = <S extends ReturnType<typeof t.String>>(s: S) => t.Union([s, t.Null()]);

export const Subscription = t.Object(
  {
    id: t.String({ description: "sub_…" }),
    status: Status,
    companyId: t.String(),
    companyName: Nullable(t.String({ description: "The company's name, as identified" })),
    companyExternalId: Nullable(t.String({ description: "Your id for the company (the `company.id` the activation sent)" })),
    planId: t.String(),
    planName: Nullable(t.String({ description: "The plan's name in the catalog" })),
    billingPeriod: Period,
    price: t.String({ description: "The period's list price, six fractional digits, in `currency`" }),
    currency: t.String(),
    network: t.String(),
    tokenSymbol: t.String(),
    paymentAccount: t.String({ description: "The payer's wallet" }),
    recipientWallet: t.String({ description: "The team's settlement wallet the pulls go to" }),
    subscriberEmail: Nullable(t.String()),
    couponId: Nullable(t.String()),
    tokenId: Nullable(t.String({ description: "The subscription token minted at activation" })),
    activationTxHash: Nullable(t.String()),
    currentPeriodStart: Time,
    currentPeriodEnd: Time,
    trialEnd: Nullable(Time),
    cancelAtPeriodEnd: t.Boolean({ description: "true: the renewal job cancels it at currentPeriodEnd instead of charging" }),
    canceledAt: Nullable(Time),
    cancelReason: Nullable(t.String()),
    scheduledPlanId: Nullable(t.String()),
    scheduledBillingPeriod: t.Union([Period, t.Null()]),
    dunningAttempts: t.Integer({ description: "Failed attempts at collecting the current period" }),
    nextAttemptAt: Nullable(Time),
    mandateId: Nullable(t.String()),
    createdAt: Time,
  },
  { $id: "Subscription" },
);

export const ChainOperation = t.Object(
  {
    id: t.String(),
    kind: t.Union([t.Literal("activation"), t.Literal("renewal"), t.Literal("proration")]),
    status: t.Union([t.Literal("pending"), t.Literal("succeeded"), t.Literal("failed")], {
      description: "pending: sent, the chain's answer not recorded yet",
    }),
    amount: t.String({ description: "What was pulled (or asked for), integer token units" }),
    network: t.String(),
    txHash: Nullable(t.String()),
    invoiceId: Nullable(t.String()),
    paymentId: Nullable(t.String()),
    periodStart: t.String({ format: "date-time", description: "The period paid for" }),
    attempt: t.Integer({ description: "Dunning retry (renewal) or change (proration) number, from 0" }),
    failureReason: Nullable(
      t.String({ description: "Why the chain refused it: insufficient_balance, insufficient_allowance, revoked, reverted, …" }),
    ),
    failureDetail: Nullable(t.String({ description: "The refusal in words, as the chain adapter wrote it" })),
    createdAt: Time,
    completedAt: Nullable(Time),
  },
  { $id: "SubscriptionChainOperation" },
);

// Spread, not t.Composite: Composite rebuilds the nested Mandate, and the document would hold two schemas named Mandate.
export const SubscriptionDetail = t.Object(
  {
    ...Subscription.properties,
    // Mandate's fields unnamed: the document generator rewrites a named schema inside a nullable union, and two
    // different schemas named Mandate would stop the document.
    mandate: t.Union([t.Object(Mandate.properties), t.Null()], {
      description: "The payer's mandate (GET /mandates/{id}/status); null before activation completes",
    }),
    operations: t.Array(ChainOperation, { description: "The most recent chain operations, newest first (at most 20)" }),
  },
  { $id: "SubscriptionDetail" },
);
export type SubscriptionDetailView = Static<typeof SubscriptionDetail>;

export const SubscriptionListQuery = t.Object({
  ...PageQuery,
  status: t.Optional(Status),
  companyId: t.Optional(t.String({ minLength: 1, maxLength: 200, description: "Our comp_ id or your id for the company" })),
});
export type SubscriptionListQuery = Static<typeof SubscriptionListQuery>;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export const presentChainOperation = (c: ChargeRow): Static<typeof ChainOperation> => ({
  id: c.id,
  kind: c.kind,
  status: c.status,
  amount: String(c.amount),
  network: c.network,
  txHash: c.tx_hash,
  invoiceId: c.invoice_id,
  paymentId: c.payment_id,
  periodStart: c.period_start.toISOString(),
  attempt: c.attempt,
  failureReason: c.failure_reason,
  failureDetail: c.failure_detail,
  createdAt: c.created_at.toISOString(),
  completedAt: iso(c.completed_at),
});
