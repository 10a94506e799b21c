/**
 * The payer's dispute (POST /public/escrow/dispute; docs/escrow.md#disputes). Public: the caller proves to be the
 * payer either with its wallet's EIP-191 signature of the dispute text (compute.ts disputeText: network, chain id,
 * contract, payee, nonce, reason) or with an embed token of the company the reservation was made for. Only
 * reservations of a network's current escrow contract are found. A nonce unknown and a nonce of someone else answer
 * the same (escrow_not_payer), so the route tells nobody whose reservations exist. Within the window and from
 * `authorized` only; the operator's dispute call goes to the chain first, then the row (transition.ts).
 */
import { getAddress, keccak256, recoverMessageAddress, stringToBytes, type Hex } from "viem";
import type { Principal } from "../../auth/kinds";
import { apiError } from "../../lib/errors";
import type { ChainRegistry } from "../../lib/networks";
import { disputeRefusal, disputeText } from "./compute";
import type { EscrowStep } from "./context";
import { claimReservation, findForDispute, findReservationByNonce } from "./repo";
import type { EscrowReservationRow } from "./rows";
import type { DisputeRequest } from "./schemas";
import { sendAndRecord } from "./transition";

const notPayer = () =>
  apiError("escrow_not_payer", "Not the payer of a reservation with this nonce", {
    reason: "not_payer",
    "body.requestNonce": "No reservation with this nonce whose payer signed this dispute or whose company this token is for",
  });

const ambiguous = () =>
  apiError("escrow_refused", "This nonce holds more than one of your reservations: name the network and payee", {
    reason: "ambiguous_nonce",
    "body.network": "Required: the nonce holds a reservation of this company on more than one network or for more than one payee",
  });

/** How the caller proves to be the payer: a wallet signature, or an embed token's principal. */
export type PayerProof = { kind: "signature"; signature: string } | { kind: "embed_token"; principal: Principal };

/** Each EVM network's current escrow contract (lowercase), by network id. */
function currentContracts(chains: ChainRegistry): Map<string, string> {
  const contracts = new Map<string, string>();
  for (const n of chains.list()) if (n.family === "evm" && n.escrowContract) contracts.set(n.id, n.escrowContract.toLowerCase());
  return contracts;
}

/** The reservation the payer's signature names (network, payee and nonce are its key on the current contract). */
async function signedReservation(step: EscrowStep, body: DisputeRequest, signature: string): Promise<EscrowReservationRow> {
  const missing: Record<string, string> = {};
  if (!body.network) missing["body.network"] = "Required with `signature`: the signed text names it";
  if (!body.payee) missing["body.payee"] = "Required with `signature`: the signed text names it";
  if (!body.network || !body.payee) throw apiError("validation_failed", "Validation failed", missing);
  const network = step.deps.chains.get(body.network);
  // An unknown network or one without escrow holds no reservation: the same answer as an unknown nonce.
  if (!network || network.family !== "evm" || network.chainId === null || !network.escrowContract) throw notPayer();
  const contract = network.escrowContract.toLowerCase();
  const row = await findReservationByNonce(step.deps.sql, { network: network.id, contract, payee: body.payee.toLowerCase() }, body.requestNonce);
  const text = disputeText({
    network: network.id,
    chainId: network.chainId,
    contract: getAddress(contract),
    payee: getAddress(body.payee),
    requestNonce: body.requestNonce,
    failureReason: body.failureReason,
  });
  const signer = await recoverMessageAddress({ message: text, signature: signature as Hex }).catch(() => null);
  if (!row || !signer || row.payer !== signer.toLowerCase()) throw notPayer();
  return row;
}

/** The one reservation the caller may dispute under this nonce, or the refusal. */
async function reservationOf(step: EscrowStep, body: DisputeRequest, proof: PayerProof): Promise<EscrowReservationRow> {
  if (proof.kind === "signature") return signedReservation(step, body, proof.signature);
  const { principal } = proof;
  if (!principal.companyId) throw notPayer();
  const tenant = { teamId: principal.teamId, environment: principal.environment };
  const scope = {
    network: body.network ?? null,
    payee: body.payee?.toLowerCase() ?? null,
    tenant,
    companyId: principal.companyId,
    contracts: currentContracts(step.deps.chains),
  };
  const rows = await findForDispute(step.deps.sql, body.requestNonce, scope);
  if (rows.length === 0) throw notPayer();
  // One payee per team and network at a time: two rows are two networks, or a settlement wallet replaced meanwhile.
  if (rows.length > 1) throw ambiguous();
  return rows[0]!;
}

export async function disputeReservation(step: EscrowStep, body: DisputeRequest, proof: PayerProof): Promise<EscrowReservationRow> {
  const row = await reservationOf(step, body, proof);
  const refusal = disputeRefusal(row, step.now);
  if (refusal) throw apiError("escrow_refused", `The reservation cannot be disputed (${refusal})`, { reason: refusal, status: row.status });
  const notes = { dispute_reason: body.failureReason, disputed_via: proof.kind };
  const claimed = await claimReservation(step.deps.sql, row, { action: "dispute", from: "authorized", now: step.now, notes });
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
