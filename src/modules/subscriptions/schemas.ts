/** Request and response schemas of the subscription and mandate routes (the spec's fields, binding). */
import { t } from "elysia";
import { errorResponses } from "../../http/error-schemas";
import { CompanyRef } from "../customers/model";
import { NonBlankText } from "../../http/non-blank-text";
import { ResourceIdParams } from "../../http/resource-id";

/** The payer's signed consent naming the payee (consent.ts); required on Solana and Stellar networks. */
export const PayerConsent = t.Object(
  {
    issuedAt: t.String({
      pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,3})?Z$",
      description: "When the payer signed: the text's Issued At line as written there (ISO 8601, UTC); within the last 10 minutes",
    }),
    signature: t.String({
      pattern: "^[A-Za-z0-9+/]{86}==$",
      description: "Base64 of the payer's 64-byte ed25519 signature of the consent text (Solana: signMessage; Stellar: SEP-53)",
    }),
  },
  {
    description:
      "Solana and Stellar networks only (required there, refused on EVM): the payer's signature of the consent text naming the team's settlement wallet. See the operation's description",
  },
);

/**
 * A Solana activation. Its consent is a real signature by the payer's key of the text for the payee
 * 3eSdHG44thnPEP7QETrxKDLpMbecvTA2HVeXFJJiAd2Q (the team's settlement wallet) on the network "solana", plan
 * "pro" at 10 USDC a month (test/unit/payer-consent.test.ts checks it).
 */
export const ACTIVATE_EXAMPLE = {
  planId: "pro",
  paymentAccount: "9C6hybhQ6Aycep9jaUnP6uL9ZYvDjUp1aSkFWPUFJtpj",
  company: { id: "acme", name: "Acme Inc.", email: "billing@acme.example" },
  subscriberEmail: "billing@acme.example",
  payerConsent: {
    issuedAt: "2026-01-15T09:30:00.000Z",
    signature: "gsxfTS5HZpBFfxuBNX5DkIqQi/hieNp7dVvLg3gfkamSOlIs6pSykf3XobNpQli7OQvZP0pEU9jhDb6UNadWBw==",
  },
};

export const ActivateBody = t.Object(
  {
    planId: t.String({ minLength: 1, maxLength: 128, description: "The plan's on-chain id (dashboard plans' onchainPlanIds)" }),
    paymentAccount: t.String({
      minLength: 1,
      maxLength: 128,
      description: "The subscriber's wallet, with autopay installed for the team's settlement wallet",
    }),
    company: CompanyRef,
    subscriberEmail: t.Optional(t.String({ format: "email", maxLength: 320, description: "Where billing receipts go" })),
    couponCode: t.Optional(t.String({ minLength: 1, maxLength: 64 })),
    payerConsent: t.Optional(PayerConsent),
  },
  { examples: [ACTIVATE_EXAMPLE] },
);

export const ActivationResult = t.Object({
  data: t.Object({ tokenId: t.String(), txHash: t.String(), companyId: t.String(), planId: t.String(), paymentAccount: t.String() }),
});

export const RevokeBody = t.Object({
  mandateId: t.String({ minLength: 1, maxLength: 64 }),
  reason: t.Optional(t.String({ maxLength: 500 })),
  revokedBy: t.Optional(t.String({ maxLength: 200 })),
});

export const RevokeResult = t.Object({ revoked: t.Literal(true), mandateId: t.String(), status: t.Literal("REVOKED") });

const Nullable = <T extends ReturnType<typeof t.String>>(s: T) => t.Union([s, t.Null()]);

export const Mandate = t.Object(
  {
    id: t.String(),
    status: t.Union([t.Literal("ACTIVE"), t.Literal("EXPIRED"), t.Literal("REVOKED")]),
    authorizedAmount: t.String({ description: "Lifetime cap, integer token units" }),
    remainingAmount: t.String({ description: "What is left of it, integer token units" }),
    payerWallet: t.String(),
    recipientWallet: t.String(),
    expiresAt: Nullable(t.String({ format: "date-time" })),
    subscriptionId: t.String(),
    companyId: t.String(),
    network: t.String(),
    tokenSymbol: t.String(),
    revokedAt: Nullable(t.String({ format: "date-time" })),
    revokedBy: Nullable(t.String()),
    revokeReason: Nullable(t.String()),
    expiredAt: Nullable(t.String({ format: "date-time" })),
    expiryReason: Nullable(t.String()),
    createdAt: t.String({ format: "date-time" }),
  },
  { $id: "Mandate" },
);

export const MandateParams = ResourceIdParams("mnd", "No such mandate");
export const SubscriptionParams = ResourceIdParams("sub", "No such subscription");

export const CancelBody = t.Object({
  atPeriodEnd: t.Optional(t.Boolean({ default: true, description: "true (default): at the current period's end; false: now" })),
  reason: t.Optional(NonBlankText("Why, for the audit log and the webhook")),
});

/**
 * The error answers of the routes that ask the chain (activation, plan change), from their codes: bad input,
 * payment refusals, an unknown company (`not_found`) beside an unknown plan or coupon (coded), state,
 * a payment proof's refusals (plan change by txHash), chain unknown.
 */
export const CHAIN_OPERATION_ERRORS = errorResponses(
  "validation_failed",
  "autopay_not_installed",
  "autopay_expired",
  "insufficient_allowance",
  "insufficient_balance",
  "charge_failed",
  "not_found",
  "plan_not_found",
  "coupon_not_found",
  "subscription_exists",
  "plan_not_subscribable",
  "activation_failed",
  "conflict",
  "subscription_not_live",
  "plan_change_not_allowed",
  "payment_not_final",
  "payment_replayed",
  "subscriptions_not_configured",
  "operation_in_progress",
  "coupon_archived",
  "coupon_expired",
  "coupon_exhausted",
  "coupon_not_applicable",
  "transaction_failed",
  "wrong_token",
  "wrong_recipient",
  "amount_too_low",
  "invalid_transaction",
  "wrong_payer",
  "chain_outcome_unknown",
);
