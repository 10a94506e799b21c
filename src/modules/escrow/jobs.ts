/**
 * The escrow's jobs (docs/operations/jobs.md):
 *  - escrow.capture_due (each minute): claims authorized reservations whose window ended, a batch at a time (claims
 *    skip rows another worker holds: one capture per reservation), and captures each on chain;
 *  - escrow.capture_on_proof (queued with a verified zkTLS proof that names a request nonce): captures that
 *    reservation of the proof's tenant early, within its window, when the payer's consent named the proof's provider;
 *  - escrow.reconcile (each minute): completes calls whose answer was lost, from the chain (a reserve that never
 *    landed is sent again while its consent holds by the chain's clock, and dropped after).
 */
import { getAddress } from "viem";
import { deliveryProviderHash, type EscrowConsent } from "../../chains/evm/escrow-consent";
import type { Logger } from "../../lib/logger";
import type { Tenant } from "../../lib/tenant";
import { CALL_STALE_AFTER_MS, statusOfChain } from "./compute";
import type { EscrowDeps, EscrowStep } from "./context";
import { claimDue, claimReservation, claimStale, deletePending, findForProof, releaseClaim } from "./repo";
import type { EscrowReservationRow } from "./rows";
import { contradicts, readChain, recordChain, sendAndRecord } from "./transition";

const CAPTURE_BATCH = 50;
/**
 * A pending reserve is dropped only once the chain's latest block is this far past the consent's deadline: a node a
 * little behind (or a reorg) could still show a reserve mined before the deadline; the server's clock never decides.
 */
const DEADLINE_MARGIN_S = 300;
const SYSTEM = (id: string) => ({ kind: "system", id, requestId: null });
const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Captures every authorized reservation whose window ended by `now`; resolves to how many were captured. */
export async function captureDue(deps: EscrowDeps, now: Date, logger: Logger): Promise<{ captured: number; failed: number }> {
  const step: EscrowStep = { deps: { ...deps, logger }, actor: SYSTEM("escrow.capture_due"), now };
  const counts = { captured: 0, failed: 0 };
  for (;;) {
    const due = await claimDue(deps.sql, now, CAPTURE_BATCH);
    for (const row of due) {
      try {
        const done = await sendAndRecord(step, row, { action: "capture" });
        if (done.status === "captured") counts.captured++;
      } catch (error) {
        // Refused (the chain's clock behind ours: window_open) or unknown: released or left to the reconcile job.
        counts.failed++;
        logger.warn("escrow capture not done", { reservationId: row.id, error: message(error) });
      }
    }
    if (due.length < CAPTURE_BATCH || counts.failed > 0) return counts;
  }
}

/**
 * Captures the reservation a verified proof names, early. Only the proof's own tenant's reservation whose payer named
 * the proof's provider as what counts as delivery (docs/escrow.md#early-capture-on-a-proof-of-delivery), and for a
 * reservation made for a company, only a proof naming that company; a reservation not authorized (pending, settled,
 * disputed) is left alone.
 */
export async function captureOnProof(
  deps: EscrowDeps,
  proof: { tenant: Tenant; proofId: string; identifier: string; companyId: string | null; requestNonce: string; provider: string },
  now: Date,
): Promise<EscrowReservationRow | null> {
  const row = await findForProof(deps.sql, proof.tenant, proof);
  if (!row) return null;
  const notes = { capture_proof_id: proof.proofId };
  const claimed = await claimReservation(deps.sql, row, { action: "capture_early", from: "authorized", now, notes });
  if (!claimed) return null;
  const step: EscrowStep = { deps, actor: SYSTEM("escrow.capture_on_proof"), now };
  return sendAndRecord(step, claimed, { action: "captureEarly", proof: proof.identifier }, { change: { captured_early: now < row.window_ends_at } });
}

/** What a lost call records beside the status the chain shows: an early capture, or a dispute the payer made on chain. */
function lostCallChange(row: EscrowReservationRow, status: EscrowReservationRow["status"]) {
  if (status === "captured" && row.pending_action === "capture_early") return { captured_early: row.pending_since! < row.window_ends_at };
  if (status === "disputed" && row.pending_action !== "dispute") return { disputed_via: "chain" as const };
  return {};
}

/** The consent a pending row was created from, as the contract takes it. */
const consentOfRow = (row: EscrowReservationRow): EscrowConsent => ({
  payer: getAddress(row.payer),
  payee: getAddress(row.payee),
  token: getAddress(row.token),
  amount: BigInt(row.amount),
  requestNonce: row.request_nonce,
  windowEnd: row.window_ends_at.getTime() / 1000,
  deadline: row.consent_deadline.getTime() / 1000,
  deliveryProvider: deliveryProviderHash(row.delivery_provider),
});

/** Completes calls whose answer was lost: the chain's status is recorded, or the call released (sent again for a reserve). */
export async function reconcileEscrow(deps: EscrowDeps, now: Date, logger: Logger): Promise<{ recorded: number; released: number }> {
  const step: EscrowStep = { deps: { ...deps, logger }, actor: SYSTEM("escrow.reconcile"), now };
  const counts = { recorded: 0, released: 0 };
  for (const row of await claimStale(deps.sql, new Date(now.getTime() - CALL_STALE_AFTER_MS), now, 100)) {
    const read = await readChain(step, row);
    if (!read?.ok) continue; // the network left the registry, or the chain is still out of reach: next tick
    const status = statusOfChain(read.reservation.status);
    if (row.status === "pending") {
      const expired = row.consent_deadline.getTime() / 1000 + DEADLINE_MARGIN_S < read.chainNow;
      if (status === "pending" && expired) {
        await deletePending(deps.sql, row); // never landed, and its consent can no longer be used
        counts.released++;
        continue;
      }
      // Sent again (the chain is read first: a reservation with this consent's terms is the answer, another one
      // under the nonce is not ours and drops the row).
      try {
        await sendAndRecord(step, row, { action: "reserve", consent: consentOfRow(row), signature: row.consent_signature });
        counts.recorded++;
      } catch (error) {
        logger.warn("escrow reserve not completed", { reservationId: row.id, error: message(error) });
      }
    } else if (status !== row.status && !contradicts(step, row, status)) {
      await recordChain(step, row, { status, txHash: read.txHash }, { change: lostCallChange(row, status) });
      counts.recorded++;
    } else {
      await releaseClaim(deps.sql, row, now);
      counts.released++;
    }
  }
  return counts;
}
