/**
 * The payer's dispute (POST /public/escrow/dispute; docs/escrow.md#disputes). Public: the caller proves to be the
 * payer either with its wallet's EIP-191 signature of the dispute text (compute.ts disputeText: network, nonce,
 * reason) or with an embed token of the company the reservation was made for. A nonce unknown and a nonce of someone
 * else answer the same (escrow_not_payer), so the route tells nobody whose reservations exist. Within the window and
 * from `authorized` only; the operator's dispute call goes to the chain first, then the row (transition.ts).
 */
import { keccak256, recoverMessageAddress, stringToBytes, type Hex } from "viem";
import type { Principal } from "../../auth/kinds";
import { apiError } from "../../lib/errors";
import { disputeRefusal, disputeText } from "./compute";
import type { EscrowStep } from "./context";
import { claimReservation, findForDispute } from "./repo";
import type { EscrowReservationRow } from "./rows";
import type { DisputeRequest } from "./schemas";
import { sendAndRecord } from "./transition";

const notPayer = () =>
  apiError("escrow_not_payer", "Not the payer of a reservation with this nonce", {
    reason: "not_payer",
    "body.requestNonce": "No reservation with this nonce whose payer signed this dispute or whose company this token is for",
  });

const ambiguous = () =>
  apiError("escrow_refused", "This nonce holds more than one of your reservations: name the network", {
    reason: "ambiguous_nonce",
    "body.network": "Required: the nonce holds a reservation on more than one network or contract",
  });

/** How the caller proves to be the payer: a wallet signature, or an embed token's principal. */
export type PayerProof = { kind: "signature"; signature: string } | { kind: "embed_token"; principal: Principal };

/** The one reservation the caller may dispute under this nonce, or the refusal. */
async function reservationOf(step: EscrowStep, body: DisputeRequest, proof: PayerProof): Promise<EscrowReservationRow> {
  if (proof.kind === "signature") {
    if (!body.network)
      throw apiError("validation_failed", "Validation failed", { "body.network": "Required with `signature`: the signed text names it" });
    const rows = await findForDispute(step.deps.sql, body.requestNonce, { network: body.network, tenant: null });
    const signer = await recoverMessageAddress({ message: disputeText({ ...body, network: body.network }), signature: proof.signature as Hex }).catch(
      () => null,
    );
    // One nonce per network's contract; two rows only after the network's contract was replaced: the signer's.
    const mine = signer ? rows.filter((r) => r.payer === signer.toLowerCase()) : [];
    if (mine.length === 0) throw notPayer();
    if (mine.length > 1) throw ambiguous();
    return mine[0]!;
  }
  const { principal } = proof;
  const tenant = { teamId: principal.teamId, environment: principal.environment };
  const rows = await findForDispute(step.deps.sql, body.requestNonce, { network: body.network ?? null, tenant });
  const mine = rows.filter((r) => r.company_id !== null && r.company_id === principal.companyId);
  if (mine.length === 0) throw notPayer();
  if (mine.length > 1) throw ambiguous();
  return mine[0]!;
}

export async function disputeReservation(step: EscrowStep, body: DisputeRequest, proof: PayerProof): Promise<EscrowReservationRow> {
  const row = await reservationOf(step, body, proof);
  const refusal = disputeRefusal(row, step.now);
  if (refusal) throw apiError("escrow_refused", `The reservation cannot be disputed (${refusal})`, { reason: refusal, status: row.status });
  const notes = { dispute_reason: body.failureReason, disputed_via: proof.kind };
  const claimed = await claimReservation(step.deps.sql, row.id, { action: "dispute", from: "authorized", now: step.now, notes });
  if (!claimed)
    throw apiError("escrow_refused", "The reservation cannot be disputed (operation_in_progress)", {
      reason: "operation_in_progress",
      status: row.status,
    });
  // The audit log names who disputed: the payer's wallet, or the embed token the route's actor already is.
  const by = proof.kind === "signature" ? { ...step, actor: { kind: "payer_wallet", id: row.payer, requestId: step.actor.requestId } } : step;
  return sendAndRecord(
    by,
    claimed,
    { action: "dispute", reasonHash: keccak256(stringToBytes(body.failureReason)) },
    {
      stateReason: "not_disputable",
      audit: { action: "escrow.dispute", details: { requestNonce: row.request_nonce, via: proof.kind } },
    },
  );
}
