/** A chain refusal of an escrow call as the API's error (src/lib/errors.ts): reason and sentence in details. */
import type { EscrowRefusal } from "../../chains/escrow-types";
import { apiError, type ApiError } from "../../lib/errors";

/** `stateReason`: what a wrong status means for this call (not_disputable for a dispute, not_disputed for a resolution). */
export function escrowChainError(r: EscrowRefusal, stateReason = "wrong_status"): ApiError {
  switch (r.reason) {
    case "consent_invalid":
      return apiError("escrow_consent_refused", "The payer's consent was refused", { reason: "bad_signature", "body.signature": r.detail });
    case "consent_expired":
      return apiError("escrow_consent_refused", "The payer's consent has expired", { reason: "consent_expired", "body.deadline": r.detail });
    case "nonce_used":
      return apiError("escrow_nonce_used", "The request nonce already holds a reservation", { reason: "nonce_used", "body.requestNonce": r.detail });
    case "insufficient_balance":
    case "insufficient_allowance":
      return apiError("escrow_payment_refused", "The payer's funds do not cover the reservation", { reason: r.reason, detail: r.detail });
    case "window_open":
    case "window_closed":
      return apiError("escrow_refused", r.detail, { reason: r.reason });
    case "no_early_capture":
      return apiError("escrow_refused", r.detail, { reason: r.reason });
    case "wrong_status":
      return apiError("escrow_refused", r.detail, { reason: stateReason });
    case "not_configured":
      return apiError("escrow_not_configured", "Escrow is not available on this network", { reason: "not_configured", detail: r.detail });
    case "reverted":
      return apiError("escrow_refused", r.detail, { reason: "reverted" });
    case "rpc_unavailable":
    case "timeout":
    case "worker_crashed":
      return apiError("chain_outcome_unknown", "The chain did not answer in time; the reservation is completed from the chain");
  }
}
