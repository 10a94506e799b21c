/**
 * Every change of a reservation's status goes through here, chain first (docs/escrow.md#consistency):
 *  1. the caller claims the reservation for one call (`pending_action`, its own commit), so no second call starts;
 *  2. the call is sent through the chain worker;
 *  3. landed: one transaction records the chain's status and the transaction, emits the status's webhook and, for an
 *     operator's action, writes the audit entry; a definite refusal releases the claim (or drops a reservation the
 *     chain never took), after taking over whatever the chain says now; an unknown outcome keeps the claim for the
 *     reconcile job (jobs.ts), which completes it from the chain.
 */
import { ESCROW_OUTCOME_UNKNOWN, type EscrowAction, type EscrowReadResult, type EscrowRefusal } from "../../chains/escrow-types";
import type { NetworkConfig } from "../../chains/types";
import { apiError, type ApiError } from "../../lib/errors";
import { tenantOf } from "../../lib/tenant";
import { recordAudit } from "../audit/repo";
import { emitEvent } from "../webhooks/emit";
import { escrowChainError } from "./chain-errors";
import { eventOf, statusOfChain } from "./compute";
import type { EscrowStep } from "./context";
import { presentReservation } from "./present";
import { deletePending, findReservation, recordChange, releaseClaim, type RecordedChange } from "./repo";
import type { EscrowReservationRow, EscrowStatus } from "./rows";

/** The chain request of a row: its own contract, payee and nonce (never the registry's current contract). */
const requestOf = (network: NetworkConfig, row: EscrowReservationRow) => ({
  network,
  contract: row.contract,
  payee: row.payee,
  requestNonce: row.request_nonce,
});

/** Reads the row's reservation on its own contract; null when its network left the registry. */
export async function readChain(step: EscrowStep, row: EscrowReservationRow): Promise<EscrowReadResult | null> {
  const network = step.deps.chains.get(row.network);
  return network ? step.deps.pool.escrow({ op: "read", request: requestOf(network, row) }) : null;
}

/**
 * A row past `pending` is a reservation the chain took: a chain that now says it holds none under the key (a wrong
 * endpoint, a reset test chain, a contract address changed under the row) is never written over it. Reported; the
 * row is kept.
 */
export function contradicts(step: EscrowStep, row: EscrowReservationRow, status: EscrowStatus): boolean {
  if (status !== "pending" || row.status === "pending") return false;
  step.deps.logger?.error("escrow chain holds no reservation for a recorded one; row kept", {
    reservationId: row.id,
    network: row.network,
    contract: row.contract,
    status: row.status,
  });
  return true;
}

/** What the transition records besides the status, and the operator's audit entry if it is one. */
interface TransitionExtras {
  change?: Omit<RecordedChange, "status" | "tx" | "at">;
  audit?: { action: string; details: Record<string, unknown> };
}

/** Records what the chain says of a claimed row; null when the row moved meanwhile (another recorder was first). */
export async function recordChain(
  step: EscrowStep,
  row: EscrowReservationRow,
  chain: { status: EscrowReservationRow["status"]; txHash: string | null },
  extras: TransitionExtras = {},
): Promise<EscrowReservationRow | null> {
  const tenant = tenantOf(row);
  return step.deps.sql.begin(async (tx) => {
    const updated = await recordChange(tx, row, row.status, { ...extras.change, status: chain.status, tx: chain.txHash, at: step.now });
    if (!updated) return null;
    const type = updated.status !== row.status ? eventOf(updated.status) : null;
    if (type) await emitEvent({ tx, tenant }, type, presentReservation(step.deps.chains, updated), { at: step.now });
    if (extras.audit)
      await recordAudit(tx, {
        ...tenant,
        actor: step.actor,
        action: extras.audit.action,
        resourceType: "escrow_reservation",
        resourceId: row.id,
        details: extras.audit.details,
      });
    return updated;
  });
}

/**
 * After a definite refusal: a reservation the chain never took is dropped; otherwise the chain's status is taken over
 * when it moved (the payer disputed on the contract, a capture by someone else), else the claim is released.
 */
async function afterRefusal(step: EscrowStep, row: EscrowReservationRow): Promise<void> {
  // A refused reserve never took over a reservation the chain holds under the nonce: the chain checked its terms,
  // and one that matched would have been an answer, not a refusal. What the nonce holds there is not this row's.
  if (row.status === "pending") {
    await deletePending(step.deps.sql, row);
    return;
  }
  const read = await readChain(step, row);
  const status = read?.ok ? statusOfChain(read.reservation.status) : row.status;
  if (read?.ok && status !== row.status && !contradicts(step, row, status)) {
    await recordChain(step, row, { status, txHash: read.txHash }, status === "disputed" ? { change: { disputed_via: "chain" } } : {});
    return;
  }
  await releaseClaim(step.deps.sql, row, step.now);
}

/**
 * Sends `action` for the claimed `row` and records the outcome. Throws the API's error for a refusal (`stateReason`:
 * what a wrong status means for this call) and chain_outcome_unknown when the answer was lost (the claim stays).
 */
export async function sendAndRecord(
  step: EscrowStep,
  row: EscrowReservationRow,
  action: EscrowAction,
  extras: TransitionExtras & { stateReason?: string } = {},
): Promise<EscrowReservationRow> {
  const network = step.deps.chains.get(row.network);
  if (!network) {
    await afterRefusal(step, row);
    throw apiError("escrow_not_configured", "Escrow is not available on this network", { reason: "unknown_network", "body.network": row.network });
  }
  const result = await step.deps.pool.escrow({ op: "send", request: { ...requestOf(network, row), ...action } });
  if (!result.ok) throw await refused(step, row, result, extras.stateReason);
  const recorded = await recordChain(step, row, { status: statusOfChain(result.reservation.status), txHash: result.txHash }, extras);
  // Recorded meanwhile by another path (the reconcile job read the chain first): the row as it is now.
  return recorded ?? (await findReservation(step.deps.sql, tenantOf(row), row.id)) ?? row;
}

async function refused(step: EscrowStep, row: EscrowReservationRow, r: EscrowRefusal, stateReason?: string): Promise<ApiError> {
  if (!ESCROW_OUTCOME_UNKNOWN.has(r.reason)) await afterRefusal(step, row);
  return escrowChainError(r, stateReason);
}
