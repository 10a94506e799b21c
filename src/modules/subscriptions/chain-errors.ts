/** How a chain operation's refusal reads over the API (src/lib/errors.ts): the one mapping. */
import { OUTCOME_UNKNOWN, type SubscriptionRefusal } from "../../chains/subscription-types";
import { apiError, type ApiError, type ErrorCode } from "../../lib/errors";

const CODE: Record<SubscriptionRefusal["reason"], ErrorCode> = {
  autopay_not_installed: "autopay_not_installed",
  autopay_expired: "autopay_expired",
  insufficient_allowance: "insufficient_allowance",
  insufficient_balance: "insufficient_balance",
  consent_invalid: "consent_invalid",
  consent_used: "consent_used",
  revoked: "charge_failed",
  reverted: "charge_failed",
  not_configured: "subscriptions_not_configured",
  rpc_unavailable: "chain_outcome_unknown",
  timeout: "chain_outcome_unknown",
  worker_crashed: "chain_outcome_unknown",
};

/** Seconds a client waits before retrying an operation whose outcome is unknown (the reconciliation job runs each minute). */
export const UNKNOWN_RETRY_AFTER_S = 30;

export function chainError(refusal: SubscriptionRefusal): ApiError {
  if (OUTCOME_UNKNOWN.has(refusal.reason))
    return apiError("chain_outcome_unknown", `${refusal.detail}. Nothing is charged twice: retry with the same Idempotency-Key`, undefined, {
      "Retry-After": String(UNKNOWN_RETRY_AFTER_S),
    });
  return apiError(CODE[refusal.reason], refusal.detail);
}
