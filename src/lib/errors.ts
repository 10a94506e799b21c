/**
 * The one error vocabulary: every error the service answers has a `code` in ERRORS, and ERRORS alone
 * says its HTTP status and which of the spec's three body shapes it is written in:
 *   "error"    {error}
 *   "code"     {error, code}     (the only shape whose body carries the code)
 *   "details"  {error, details}  (details: field path -> what is wrong)
 * Throw sites raise a code (`throw apiError("limit_reached", "Limit reached")`), never a status.
 * docs/api/errors.md#error-codes and the OpenAPI document list this table; a test keeps them equal.
 */
export type ErrorShape = "error" | "code" | "details";

interface ErrorKind {
  status: number;
  shape: ErrorShape;
  description: string;
}

export const ERRORS = {
  validation_failed: { status: 400, shape: "details", description: "Invalid input: a field, query parameter or path segment" },
  malformed_json: {
    status: 400,
    shape: "details",
    description: "The body is not a valid JSON document in UTF-8 (whatever its charset parameter says)",
  },
  proof_refused: {
    status: 400,
    shape: "details",
    description:
      "zkTLS proofs: the proof does not verify; details.reason is identifier_mismatch, stale, unknown_attestor, too_few_signatures, bad_signature or no_attestors",
  },
  escrow_consent_refused: {
    status: 400,
    shape: "details",
    description:
      "Escrow: the payer's consent does not hold; details.reason is bad_signature, consent_expired, window_invalid or unknown_token (docs/escrow.md)",
  },
  missing_credentials: { status: 401, shape: "code", description: "No credential in the Authorization header" },
  invalid_credentials: { status: 401, shape: "code", description: "The credential is malformed or unknown" },
  expired_credentials: { status: 401, shape: "code", description: "The credential has expired" },
  revoked_credentials: { status: 401, shape: "code", description: "The credential has been revoked" },
  sign_in_failed: {
    status: 401,
    shape: "code",
    description: "Dashboard sign-in: unknown email, wrong password, or a link that is unknown, used or expired",
  },
  insufficient_credits: { status: 402, shape: "code", description: "Track on a metered feature without enough credits" },
  escrow_payment_refused: {
    status: 402,
    shape: "details",
    description:
      "Escrow: the payer's balance or its approval of the escrow contract does not cover the amount (details.reason insufficient_balance or insufficient_allowance); nothing moved",
  },
  // Subscriptions: the payer's side of a pull; nothing is recorded as active or paid.
  autopay_not_installed: {
    status: 402,
    shape: "code",
    description:
      "Subscriptions: the payment account has no autopay for the team's settlement wallet (EVM authorization and ERC-20 approval, SPL delegate, Stellar allowance)",
  },
  autopay_expired: { status: 402, shape: "code", description: "Subscriptions: the payment account's autopay has expired" },
  insufficient_allowance: { status: 402, shape: "code", description: "Subscriptions: the autopay allowance left does not cover the charge" },
  insufficient_balance: { status: 402, shape: "code", description: "Subscriptions: the payment account's token balance does not cover the charge" },
  charge_failed: {
    status: 402,
    shape: "code",
    description: "Subscriptions: the chain refused the charge (the transaction reverted or autopay was revoked)",
  },
  consent_invalid: {
    status: 402,
    shape: "code",
    description:
      "Subscriptions: the chain refused the payer's consent when the pull was sent (the payer's smart account no longer accepts its signature, or its terms cannot be installed); nothing charged",
  },
  wrong_credential_kind: { status: 403, shape: "code", description: "A credential of a kind this route does not accept" },
  missing_permission: { status: 403, shape: "code", description: "The credential lacks the route's permission or dashboard role" },
  csrf_failed: {
    status: 403,
    shape: "code",
    description: "A write authenticated by the be_session cookie without the session's X-CSRF-Token header (or with another)",
  },
  document_link_invalid: {
    status: 403,
    shape: "code",
    description: "Invoice document link: the signature does not match (altered or not ours); the link is the only credential",
  },
  escrow_not_payer: {
    status: 403,
    shape: "details",
    description:
      "Escrow dispute: the caller did not prove to be the payer of a reservation with this nonce (details.reason not_payer; an unknown nonce answers the same)",
  },
  wrong_company: { status: 403, shape: "code", description: "An embed token used for another company" },
  not_found: { status: 404, shape: "error", description: "Unknown route or resource" },
  mandate_not_found: {
    status: 404,
    shape: "details",
    description: "POST /mandates/revoke: no mandate with this id in the credential's team and environment",
  },
  quote_not_found: { status: 404, shape: "code", description: "Plan change: no quote with this id for this company" },
  plan_not_found: {
    status: 404,
    shape: "code",
    description: "Subscription activation: no plan has this on-chain id on a network of the credential's environment",
  },
  coupon_not_found: { status: 404, shape: "code", description: "Coupon redemption: no coupon with this code" },
  conflict: { status: 409, shape: "error", description: "A unique value already taken, or a change the current state forbids" },
  last_owner: { status: 409, shape: "code", description: "Dashboard members: the team's last owner cannot be removed or lose the owner role" },
  checkout_session_closed: { status: 409, shape: "code", description: "The checkout session can no longer be paid" },
  payment_replayed: {
    status: 409,
    shape: "code",
    description: "On-chain proof: the transaction already proved a payment (of a checkout session or an invoice) or a refund",
  },
  proof_replayed: {
    status: 409,
    shape: "code",
    description: "zkTLS proofs: a proof with this claim identifier was stored before (by any team)",
  },
  idempotency_key_in_use: { status: 409, shape: "code", description: "Idempotency-Key header: a request with this key is still running" },
  invoice_not_draft: { status: 409, shape: "code", description: "Invoices: only a draft can be edited or issued" },
  invoice_empty: { status: 409, shape: "code", description: "Invoices: a draft without line items cannot be issued" },
  invoice_not_voidable: {
    status: 409,
    shape: "code",
    description: "Invoices: only a draft, issued or overdue invoice with nothing paid can be voided (correct a paid one with a credit note)",
  },
  invoice_not_payable: {
    status: 409,
    shape: "code",
    description: "Invoices: a draft or void invoice cannot take a payment, and a submitted proof needs an issued or overdue one",
  },
  invoice_not_creditable: { status: 409, shape: "code", description: "Invoices: credit notes and refunds need an issued, overdue or paid invoice" },
  credit_exceeds_total: {
    status: 409,
    shape: "code",
    description: "Invoices: credit notes and refunds together would exceed the invoice total",
  },
  refund_exceeds_paid: {
    status: 409,
    shape: "code",
    description: "Invoices: refunds would exceed what was paid (less what was already refunded or credited)",
  },
  invoice_not_refundable: {
    status: 409,
    shape: "code",
    description: "Refunds: the invoice has no payment to refund, or no settlement wallet on its network to send refunds from",
  },
  refund_replayed: { status: 409, shape: "code", description: "Refunds: the transaction already proved a refund or a payment" },
  // Refunds: a refund proof that time may still make valid; nothing is recorded and the answer is not kept under an Idempotency-Key.
  refund_not_final: {
    status: 409,
    shape: "code",
    description:
      "Refunds: the transaction is not final yet, not seen yet, or the chain could not be asked; nothing recorded, retry after Retry-After",
  },
  payment_not_final: {
    status: 409,
    shape: "code",
    description:
      "Plan change paid by txHash: the transfer is not final yet, not seen yet, or the chain could not be asked; nothing changed, retry after Retry-After",
  },
  credit_exceeds_outstanding: {
    status: 409,
    shape: "code",
    description: "Invoices: a credit past the outstanding amount needs a company to hold the credit balance",
  },
  // Invoice deliveries: sending an invoice again, by email or webhook
  invoice_not_sendable: { status: 409, shape: "code", description: "Invoice deliveries: only an issued, overdue or paid invoice can be sent" },
  delivery_channel_unavailable: {
    status: 409,
    shape: "code",
    description: "Invoice deliveries: email needs SMTP_URL on the service; webhook needs an enabled endpoint subscribed to invoice.issued",
  },
  // Invoice payments: settlement wallets and payment proofs
  settlement_wallet_missing: {
    status: 409,
    shape: "code",
    description: "Invoice payment proof: the team has no settlement wallet taking the invoice's currency on that network",
  },
  payload_too_large: { status: 413, shape: "error", description: "The body exceeds BODY_LIMIT_BYTES" },
  unsupported_media_type: { status: 415, shape: "error", description: "A body that is not application/json" },
  document_link_expired: {
    status: 410,
    shape: "code",
    description: "Invoice document link: past its expiry; GET /invoices/{id} hands out a new one",
  },
  invitation_invalid: { status: 410, shape: "code", description: "Dashboard invitation: unknown, already accepted, or expired" },
  idempotency_key_reused: { status: 422, shape: "code", description: "Idempotency-Key header: the key was used for another method, path or body" },
  idempotency_key_mismatch: { status: 422, shape: "details", description: "POST /events: idempotencyKey already used for a different request" },
  transaction_failed: { status: 422, shape: "code", description: "On-chain proof: the transaction failed on chain" },
  wrong_token: { status: 422, shape: "code", description: "On-chain proof: the transaction moved another token" },
  wrong_recipient: {
    status: 422,
    shape: "code",
    description:
      "On-chain proof: the transaction paid another wallet than the one due (a session's recipient, the settlement wallet, a refund's recipientWallet)",
  },
  amount_too_low: {
    status: 422,
    shape: "code",
    description:
      "On-chain proof: the transaction moved less than the amount due (a session's amount, an invoice's outstanding amount, a refund's amount); a native EVM coin (ETH) must move exactly the amount, so more is refused too",
  },
  memo_mismatch: { status: 422, shape: "code", description: "On-chain proof: the transaction's memo is not the session's" },
  invalid_transaction: { status: 422, shape: "code", description: "On-chain proof: the transaction does not prove the payment or refund" },
  wrong_payer: { status: 422, shape: "code", description: "On-chain proof: the transaction was sent by another wallet" },
  wrong_sender: {
    status: 422,
    shape: "code",
    description: "Refunds: the transfer was not paid out of the own balance of the team's settlement wallet on the invoice's network",
  },
  coupon_archived: { status: 422, shape: "code", description: "Coupon redemption: the coupon was archived" },
  coupon_expired: { status: 422, shape: "code", description: "Coupon redemption: the coupon's expiry has passed" },
  coupon_exhausted: { status: 422, shape: "code", description: "Coupon redemption: the coupon reached its maximum redemptions" },
  coupon_not_applicable: { status: 422, shape: "code", description: "Coupon redemption: the coupon does not apply to this plan or currency" },
  subscription_exists: {
    status: 409,
    shape: "code",
    description: "Subscriptions: the company already has a live subscription (activating, trialing, active or past due)",
  },
  consent_used: {
    status: 409,
    shape: "code",
    description:
      "Subscription activation: the payer's consent was already used (each consent activates one subscription) or cancelled by the payer; sign a new one",
  },
  payment_account_in_use: {
    status: 409,
    shape: "code",
    description:
      "Subscription activation (Solana, Stellar): the payment account's token account already pays a live subscription through the service; one account pays one subscription per network and token. Also registering an auto-topup funding wallet on Solana whose token account pays a live subscription (one SPL delegate and amount per account)",
  },
  plan_not_subscribable: {
    status: 409,
    shape: "code",
    description: "Subscription activation: the plan is archived, has no monthly or yearly price, or its price cannot be paid in the network's token",
  },
  activation_failed: {
    status: 409,
    shape: "code",
    description: "Subscription activation: the activation made under this Idempotency-Key failed and charged nothing; send a new key",
  },
  subscription_not_live: { status: 409, shape: "code", description: "Subscriptions: the subscription is canceled or was never activated" },
  plan_change_not_allowed: {
    status: 409,
    shape: "code",
    description: "Plan change: the company has no live subscription, or the change is not possible now",
  },
  quote_expired: {
    status: 409,
    shape: "code",
    description: "Plan change: the quote (quoteId) is past its expiresAt; preview the change again",
  },
  quote_used: { status: 409, shape: "code", description: "Plan change: the quote (quoteId) was already used by a change" },
  quote_stale: {
    status: 409,
    shape: "code",
    description:
      "Plan change: the subscription, the credit balance or the tax rate moved since the quote, so it would no longer charge what it says; preview again",
  },
  escrow_nonce_used: {
    status: 409,
    shape: "details",
    description: "Escrow: the request nonce already holds a reservation on this network's escrow contract (details.reason nonce_used)",
  },
  escrow_refused: {
    status: 409,
    shape: "details",
    description:
      "Escrow: the reservation's state forbids it; details.reason is window_closed, not_disputable, not_disputed, window_open, operation_in_progress or ambiguous_nonce (details.status the reservation's status)",
  },
  escrow_not_configured: {
    status: 409,
    shape: "details",
    description:
      "Escrow: the network has no escrow contract or operator key, the operator cannot pay for gas, or the team has no settlement wallet on it (details.reason)",
  },
  mandate_not_active: {
    status: 409,
    shape: "details",
    description: "Mandates: the mandate is already revoked or expired (details.status says which)",
  },
  subscriptions_not_configured: {
    status: 409,
    shape: "code",
    description:
      "Subscriptions: the network has no operator key or contract configured, its operator account cannot pay for gas, or the team has no settlement wallet on it",
  },
  operation_in_progress: {
    status: 409,
    shape: "code",
    description: "Subscriptions: another chain operation of this subscription is in flight; Retry-After says when to try again",
  },
  limit_reached: { status: 429, shape: "code", description: "Track on a metered feature beyond its quota" },
  feature_not_enabled: { status: 429, shape: "code", description: "Track on a boolean feature the company does not have" },
  sign_in_throttled: {
    status: 429,
    shape: "code",
    description: "Dashboard sign-in: too many failures for this account or client address; Retry-After says when to try again",
  },
  rate_limited: { status: 429, shape: "error", description: 'Request rate limit exceeded; exactly {error: "Rate limit exceeded"}, with Retry-After' },
  internal_error: { status: 500, shape: "error", description: "Anything unexpected; reveals nothing, logged with the request id" },
  database_unavailable: {
    status: 503,
    shape: "code",
    description:
      "The database could not be reached (a restart or failover); retry after Retry-After, with the same Idempotency-Key for a write (a connection lost during its commit leaves its outcome unknown)",
  },
  chain_outcome_unknown: {
    status: 503,
    shape: "code",
    description:
      "Subscriptions and escrow: the chain did not answer in time; the operation is completed from the chain (subscriptions by its reference, escrow by the reservation's state; retry with the same Idempotency-Key)",
  },
  chain_unavailable: {
    status: 503,
    shape: "code",
    description: "Auto-topup: the network's RPC endpoint did not answer the funding read; nothing was recorded, try again",
  },
} as const satisfies Record<string, ErrorKind>;

export type ErrorCode = keyof typeof ERRORS;
export const ERROR_CODES = Object.keys(ERRORS) as ErrorCode[];

/** The codes whose body carries `code`, i.e. the values a client can read in a `{error, code}` body. */
export type CodedErrorCode = { [C in ErrorCode]: (typeof ERRORS)[C]["shape"] extends "code" ? C : never }[ErrorCode];
export const CODED_ERROR_CODES = ERROR_CODES.filter((code): code is CodedErrorCode => ERRORS[code].shape === "code");

export type ErrorBody = { error: string } | { error: string; code: CodedErrorCode } | { error: string; details: Record<string, unknown> };

export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
    /** Extra response headers, such as the rate limit's Retry-After. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  get status(): number {
    return ERRORS[this.code].status;
  }

  body(): ErrorBody {
    switch (ERRORS[this.code].shape) {
      case "details":
        return { error: this.message, details: this.details };
      case "code":
        return { error: this.message, code: this.code as CodedErrorCode };
      case "error":
        return { error: this.message };
    }
  }
}

/** The one way to raise an error: its code (status and shape follow from ERRORS), its message, and details for the "details" shape. */
export const apiError = (code: ErrorCode, message: string, details?: Record<string, unknown>, headers?: Record<string, string>) =>
  new ApiError(code, message, details, headers);
