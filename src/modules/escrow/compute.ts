/**
 * The escrow's pure rules (docs/escrow.md): what a request nonce may be, the text a payer signs to dispute, whether a
 * reservation may still be disputed, and how each chain status is told to webhooks. The clock is an input.
 */
import type { EscrowChainStatus } from "../../chains/escrow-types";
import type { EscrowReservationRow, EscrowStatus } from "./rows";

/**
 * A request nonce: 1 to 128 printable ASCII characters without spaces. Wallets show it as text in the consent, and
 * the contract keys the reservation by the payee and keccak256 of its bytes: one spelling, no Unicode look-alikes.
 */
export const REQUEST_NONCE_PATTERN = "^[\\x21-\\x7E]{1,128}$";

/**
 * An operator call unrecorded this long lost its answer (the chain job's deadline is far shorter): the reconcile job
 * completes it, and a client's retry of a create may resume its reserve. A younger one is still being sent.
 */
export const CALL_STALE_AFTER_MS = 2 * 60_000;

/** What a dispute text names: the reservation (network, chain, contract, payee, nonce) and the reason. */
export interface DisputeTerms {
  network: string;
  chainId: number;
  /** the escrow contract, checksummed (EIP-55) */
  contract: string;
  /** the reservation's payee, checksummed (EIP-55) */
  payee: string;
  requestNonce: string;
  failureReason: string;
}

/**
 * The text the payer's wallet signs (EIP-191 personal_sign) to dispute a reservation without an embed token. It names
 * the network, its chain id, the escrow contract, the payee and the nonce (the reservation's key on that contract) and
 * the reason, so a signature disputes this reservation with this reason only: never one of another deployment, another
 * contract or another payee's namespace.
 */
export const disputeText = (d: DisputeTerms) =>
  [
    "Dispute escrow reservation",
    `Network: ${d.network}`,
    `Chain id: ${d.chainId}`,
    `Escrow contract: ${d.contract}`,
    `Payee: ${d.payee}`,
    `Request nonce: ${d.requestNonce}`,
    `Reason: ${d.failureReason}`,
  ].join("\n");

/** Why a reservation cannot be disputed now (a details.reason), or null when it can. */
export function disputeRefusal(row: EscrowReservationRow, now: Date): "not_disputable" | "window_closed" | "operation_in_progress" | null {
  if (row.status !== "authorized") return "not_disputable";
  if (now.getTime() >= row.window_ends_at.getTime()) return "window_closed";
  if (row.pending_action) return "operation_in_progress";
  return null;
}

/** The database status of a chain status: `none` is a reservation the chain does not hold (yet): pending. */
export const statusOfChain = (s: EscrowChainStatus): EscrowStatus => (s === "none" ? "pending" : s);

/** The webhook event type of entering a status (pending has none). */
export const eventOf = (s: EscrowStatus) => (s === "pending" ? null : (`escrow.${s}` as const));
