/** Request and response schemas of the subscription and mandate routes (the spec's fields, binding). */
import { t } from "elysia";
import { errorResponses } from "../../http/error-schemas";
import { CompanyRef } from "../customers/schemas";
import { NonBlankText } from "../../http/non-blank-text";
import { ResourceIdParams } from "../../http/resource-id";

const EVM_ONLY = "EVM networks only: ";
const MESSAGE_ONLY = "Solana and Stellar networks only: ";

/** The payer's signed consent to this subscription (activation/payer-consent.ts, activation/evm-consent.ts): required on every network. */
export const PayerConsent = t.Object(
  {
    signature: t.String({
      minLength: 1,
      maxLength: 4096,
      description:
        "Solana and Stellar: base64 of the payer's 64-byte ed25519 signature of the consent text (Solana: signMessage; Stellar: SEP-53). EVM: 0x hex of the payer's EIP-712 signature of the Consent typed data (65 bytes for an externally owned account; whatever the account's ERC-1271 isValidSignature accepts for a smart account)",
    }),
    issuedAt: t.Optional(
      t.String({
        pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d{1,3})?Z$",
        description: `${MESSAGE_ONLY}when the payer signed: the text's Issued At line as written there (ISO 8601, UTC); within the last 10 minutes`,
      }),
    ),
    nonce: t.Optional(
      t.String({
        minLength: 1,
        maxLength: 64,
        description: `${MESSAGE_ONLY}the text's Nonce line as written there: a new value for each consent, 16 to 64 characters A-Z a-z 0-9 _ -`,
      }),
    ),
    salt: t.Optional(
      t.String({
        minLength: 1,
        maxLength: 66,
        description: `${EVM_ONLY}the typed data's salt (bytes32, 0x and 64 hex digits): new for each consent`,
      }),
    ),
    periodAllowance: t.Optional(
      t.String({
        minLength: 1,
        maxLength: 78,
        description: `${EVM_ONLY}the typed data's periodAllowance: token units the subscription may pull per window (integer string)`,
      }),
    ),
    periodSeconds: t.Optional(
      t.Integer({
        minimum: 1,
        description: `${EVM_ONLY}the typed data's periodSeconds: the window length, at most the plan's shortest period (monthly 2419200, yearly 31536000)`,
      }),
    ),
    cap: t.Optional(
      t.String({
        minLength: 1,
        maxLength: 78,
        description: `${EVM_ONLY}the typed data's cap: token units the subscription may pull in total (integer string)`,
      }),
    ),
    end: t.Optional(t.Integer({ minimum: 0, description: `${EVM_ONLY}the typed data's end: unix seconds after which nothing may be pulled` })),
  },
  {
    description:
      "The payer's signature of its consent to this one subscription, naming the team's settlement wallet, the plan's terms and the company paid for; used once. Required on every network; see the operation's description for what is signed on each family",
  },
);

/**
 * A Solana activation. Its consent is a real signature by the payer's key (the ed25519 seed of 32 bytes 0x07) of the
 * text for the payee 3eSdHG44thnPEP7QETrxKDLpMbecvTA2HVeXFJJiAd2Q (the team's settlement wallet) on the network
 * "solana", plan "pro" at 10 USDC a month, company "acme" (test/subscriptions/payer-consent.test.ts checks it).
 */
export const ACTIVATE_EXAMPLE = {
  planId: "pro",
  paymentAccount: "GmaDrppBC7P5ARKV8g3djiwP89vz1jLK23V2GBjuAEGB",
  company: { id: "acme", name: "Acme Inc.", email: "billing@acme.example" },
  subscriberEmail: "billing@acme.example",
  payerConsent: {
    issuedAt: "2026-01-15T09:30:00.000Z",
    nonce: "k3JfQ9x2LmPa7sVd4RwT",
    signature: "LEIdYD0hKxpwpksEujsq5O97Mr/eSRBOKPCffK8PK/7IrQn9HN4mvpbQNoXJ0GTQvKeLFTsdKXReMez/Dh7vBg==",
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
  data: t.Object({
    tokenId: t.String(),
    txHash: t.String(),
    companyId: t.String(),
    planId: t.String(),
    paymentAccount: t.String(),
    mandateId: t.String({ description: "The subscription's mandate (mnd_…): GET /mandates/{id}/status reads it, POST /mandates/revoke ends it" }),
  }),
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
  "quote_not_found",
  "quote_expired",
  "quote_used",
  "quote_stale",
  "consent_used",
  "consent_invalid",
  "payment_account_in_use",
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
