/**
 * The one place that turns failures into the spec's three error shapes:
 *   {error}            general (404, 409, 413, 500, ...)
 *   {error, code}      authorisation failures (401, 403) and billing failures (invoices, plan changes)
 *   {error, details}   validation-style failures (400)
 * `code` values come only from this closed list, documented in README.md.
 */
export const ERROR_CODES = [
  "missing_credentials",
  "invalid_credentials",
  "expired_credentials",
  "revoked_credentials",
  "wrong_credential_kind",
  "missing_permission",
  "wrong_company",
  "insufficient_credits",
  "limit_reached",
  "feature_not_enabled",
  // Checkout: the session can no longer be paid; the transaction already paid for a session.
  "checkout_session_closed",
  "payment_replayed",
  // Checkout: the submitted transaction does not prove the payment (the session is FAILED with it).
  "transaction_failed",
  "wrong_token",
  "wrong_recipient",
  "amount_too_low",
  "memo_mismatch",
  "invalid_transaction",
  "wrong_payer",
  // Idempotency-Key header: the key is held by a request still running; the key was used for another request.
  "idempotency_key_in_use",
  "idempotency_key_reused",
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export type ErrorBody = { error: string } | { error: string; code: ErrorCode } | { error: string; details: Record<string, unknown> };

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: ErrorCode,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }

  body(): ErrorBody {
    if (this.details) return { error: this.message, details: this.details };
    if (this.code) return { error: this.message, code: this.code };
    return { error: this.message };
  }
}

export const badRequest = (message: string, details: Record<string, unknown>) => new ApiError(400, message, undefined, details);
export const unauthorized = (message: string, code: ErrorCode) => new ApiError(401, message, code);
export const forbidden = (message: string, code: ErrorCode) => new ApiError(403, message, code);
export const notFound = (message = "Not found") => new ApiError(404, message);
export const conflict = (message: string) => new ApiError(409, message);
