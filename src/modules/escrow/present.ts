/** An escrow reservation as the API shows it (and as webhooks carry it). */
import { explorerTxUrl, type ChainRegistry } from "../../lib/networks";
import type { EscrowReservationRow } from "./rows";
import type { EscrowReservation } from "./schemas";

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** `chains`: the registry the transactions' explorer links come from. */
export const presentReservation = (chains: ChainRegistry, r: EscrowReservationRow): EscrowReservation => ({
  id: r.id,
  requestNonce: r.request_nonce,
  status: r.status,
  pendingAction: r.pending_action,
  network: r.network,
  contract: r.contract,
  companyId: r.company_id,
  payer: r.payer,
  payee: r.payee,
  token: { symbol: r.token_symbol, contract: r.token },
  amount: r.amount,
  windowEndsAt: r.window_ends_at.toISOString(),
  consentDeadline: r.consent_deadline.toISOString(),
  deliveryProvider: r.delivery_provider,
  capturedEarly: r.captured_early,
  captureProofId: r.capture_proof_id,
  disputeReason: r.dispute_reason,
  disputedVia: r.disputed_via,
  transactions: { authorize: r.authorize_tx, capture: r.capture_tx, dispute: r.dispute_tx, refund: r.refund_tx },
  explorerUrls: explorerUrls(chains, r),
  createdAt: r.created_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
  authorizedAt: iso(r.authorized_at),
  capturedAt: iso(r.captured_at),
  disputedAt: iso(r.disputed_at),
  refundedAt: iso(r.refunded_at),
});

const explorerUrls = (chains: ChainRegistry, r: EscrowReservationRow) => {
  const network = chains.get(r.network);
  return {
    authorize: explorerTxUrl(network, r.authorize_tx),
    capture: explorerTxUrl(network, r.capture_tx),
    dispute: explorerTxUrl(network, r.dispute_tx),
    refund: explorerTxUrl(network, r.refund_tx),
  };
};
