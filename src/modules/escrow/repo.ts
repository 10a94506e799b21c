/** Typed access to escrow reservations (sql/queries/escrow_reservation_*). */
import { queries, run, runOne, type Db } from "../../db/queries";
import type { PageWindow } from "../../http/pagination";
import type { Tenant } from "../../lib/tenant";
import type { EscrowReservationRow, EscrowStatus, PendingAction } from "./rows";

const Q = queries([
  "escrow_reservation_insert",
  "escrow_reservation_find",
  "escrow_reservation_find_by_nonce",
  "escrow_reservation_find_for_dispute",
  "escrow_reservation_find_for_proof",
  "escrow_reservation_list_page",
  "escrow_reservation_claim",
  "escrow_reservation_claim_due",
  "escrow_reservation_claim_stale",
  "escrow_reservation_take_over_reserve",
  "escrow_reservation_record",
  "escrow_reservation_release",
  "escrow_reservation_delete_pending",
  "company_id_find_by_ref",
]);

/** What a new reservation stores. */
export interface NewReservation {
  id: string;
  team_id: string;
  environment: string;
  company_id: string | null;
  network: string;
  contract: string;
  request_nonce: string;
  payer: string;
  payee: string;
  token: string;
  token_symbol: string;
  amount: string;
  window_ends_at: string;
  consent_deadline: string;
  delivery_provider: string | null;
  consent_signature: string;
  created_at: string;
}

/** What the chain says of a reservation, as recorded. */
export interface RecordedChange {
  status: EscrowStatus;
  tx: string | null;
  at: Date;
  captured_early?: boolean;
  capture_proof_id?: string;
  dispute_reason?: string;
  disputed_via?: "signature" | "embed_token" | "chain";
}

/** Inserts a pending reservation; null when its nonce is taken on the network's contract. */
export const insertReservation = (db: Db, r: NewReservation) =>
  runOne<EscrowReservationRow>(db, Q.escrow_reservation_insert, [r as unknown as Record<string, unknown>]);

export const findReservation = (db: Db, t: Tenant, id: string) =>
  runOne<EscrowReservationRow>(db, Q.escrow_reservation_find, [t.teamId, t.environment, id]);

export const findReservationByNonce = (db: Db, at: { network: string; contract: string; payee: string }, nonce: string) =>
  runOne<EscrowReservationRow>(db, Q.escrow_reservation_find_by_nonce, [at.network, at.contract, at.payee, nonce]);

/**
 * The reservations a company's embed token may dispute under a nonce, on the current contracts (`contracts`: network id
 * to its escrow contract, lowercase); at most two: more than one is ambiguous.
 */
export const findForDispute = (
  db: Db,
  nonce: string,
  scope: { network: string | null; payee: string | null; tenant: Tenant; companyId: string; contracts: Map<string, string> },
) =>
  run<EscrowReservationRow>(db, Q.escrow_reservation_find_for_dispute, [
    nonce,
    scope.network,
    scope.tenant.teamId,
    scope.tenant.environment,
    [...scope.contracts].map(([network, contract]) => `${network}:${contract}`),
    scope.companyId,
    scope.payee,
  ]);

/** The reservation a proof may capture early: its provider is the consent's delivery provider, its company the same. */
export const findForProof = (db: Db, t: Tenant, proof: { requestNonce: string; provider: string; companyId: string | null }) =>
  runOne<EscrowReservationRow>(db, Q.escrow_reservation_find_for_proof, [
    t.teamId,
    t.environment,
    proof.requestNonce,
    proof.provider,
    proof.companyId,
  ]);

export const listReservationPage = (db: Db, t: Tenant, page: PageWindow, filters: { status: string | null; companyId: string | null }) =>
  run<EscrowReservationRow>(db, Q.escrow_reservation_list_page, [
    t.teamId,
    t.environment,
    page.beforeSeq,
    page.fetch,
    filters.status,
    filters.companyId,
  ]);

/** A reservation named by its id and tenant: every change by id also names the tenant the row was read under. */
type RowKey = Pick<EscrowReservationRow, "id" | "team_id" | "environment">;

/** What a call notes with its claim, recorded with the status it reaches (and cleared if it never does). */
type ClaimNotes = Pick<RecordedChange, "dispute_reason" | "disputed_via" | "capture_proof_id">;

/** Claims the reservation for one operator call; null when another call holds it or it left `from`. */
export const claimReservation = (db: Db, row: RowKey, claim: { action: PendingAction; from: EscrowStatus; now: Date; notes?: ClaimNotes }) =>
  runOne<EscrowReservationRow>(db, Q.escrow_reservation_claim, [
    row.id,
    claim.action,
    claim.from,
    claim.now,
    { ...claim.notes },
    row.team_id,
    row.environment,
  ]);

export const claimDue = (db: Db, now: Date, limit: number) => run<EscrowReservationRow>(db, Q.escrow_reservation_claim_due, [now, limit]);

export const claimStale = (db: Db, sentBefore: Date, now: Date, limit: number) =>
  run<EscrowReservationRow>(db, Q.escrow_reservation_claim_stale, [sentBefore, now, limit]);

/**
 * Takes over a pending reserve sent before `sentBefore` whose answer was lost (a client's retry of its consent); null when
 * it is younger (still in flight), recorded, dropped, or another retry or the reconcile job took it first.
 */
export const takeOverReserve = (db: Db, row: RowKey, sentBefore: Date, now: Date) =>
  runOne<EscrowReservationRow>(db, Q.escrow_reservation_take_over_reserve, [row.id, sentBefore, now, row.team_id, row.environment]);

/** Records the chain's word; null when the row left `from` meanwhile. */
export const recordChange = (db: Db, row: RowKey, from: EscrowStatus, change: RecordedChange) =>
  runOne<EscrowReservationRow>(db, Q.escrow_reservation_record, [
    row.id,
    { ...change, at: change.at.toISOString() },
    from,
    row.team_id,
    row.environment,
  ]);

export const releaseClaim = (db: Db, row: RowKey, now: Date) => run(db, Q.escrow_reservation_release, [row.id, now, row.team_id, row.environment]);

export const deletePending = (db: Db, row: RowKey) => run(db, Q.escrow_reservation_delete_pending, [row.id, row.team_id, row.environment]);

/** Our comp_ id of the tenant's company named by our id or the integrator's; null when there is none. */
export const findCompanyId = async (db: Db, t: Tenant, ref: string): Promise<string | null> =>
  (await runOne<{ id: string }>(db, Q.company_id_find_by_ref, [t.teamId, t.environment, ref]))?.id ?? null;
