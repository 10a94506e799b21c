/**
 * The operator's resolution of a dispute (POST /escrow/reservations/{id}/resolve; docs/escrow.md#resolving-a-dispute):
 * a person of the team decides, in the dashboard, whether the held funds go back to the payer (refunded) or to the
 * payee (captured). Sent on chain, then recorded with the webhook and an audit entry.
 */
import { apiError } from "../../lib/errors";
import type { Tenant } from "../../lib/tenant";
import type { EscrowStep } from "./context";
import { claimReservation, findReservation } from "./repo";
import type { EscrowReservationRow } from "./rows";
import { sendAndRecord } from "./transition";

export async function resolveDispute(
  step: EscrowStep,
  tenant: Tenant,
  request: { id: string; outcome: "refunded" | "captured" },
): Promise<EscrowReservationRow> {
  const row = await findReservation(step.deps.sql, tenant, request.id);
  if (!row) throw apiError("not_found", `No escrow reservation ${request.id}`);
  if (row.status !== "disputed")
    throw apiError("escrow_refused", `Only a disputed reservation is resolved; this one is ${row.status}`, {
      reason: "not_disputed",
      status: row.status,
    });
  const refund = request.outcome === "refunded";
  const claimed = await claimReservation(step.deps.sql, row, {
    action: refund ? "resolve_refund" : "resolve_capture",
    from: "disputed",
    now: step.now,
  });
  if (!claimed)
    throw apiError("escrow_refused", "Another operation of this reservation is in flight", { reason: "operation_in_progress", status: row.status });
  return sendAndRecord(
    step,
    claimed,
    { action: "resolve", refund },
    { stateReason: "not_disputed", audit: { action: "escrow.resolve", details: { outcome: request.outcome, requestNonce: row.request_nonce } } },
  );
}
