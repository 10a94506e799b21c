/** Typed wrappers over the x402 payment queries: the claim that comes before the chain, and its outcome. */
import { queries, run, runOne, type Db } from "../../db/queries";
import type { Tenant } from "../../lib/tenant";
import type { X402PaymentRow } from "./rows";

const Q = queries([
  "x402_payment_claim",
  "x402_payment_find",
  "x402_payment_settle",
  "x402_payment_fail",
  "x402_payment_relet",
  "x402_payment_list_page",
  "x402_payment_release",
  "x402_payment_claim_stale",
]);

/** An authorization's key across every team: network id, token contract, payer and nonce (lowercase hex). */
export interface AuthorizationKey {
  network: string;
  asset: string;
  payer: string;
  nonce: string;
}

export interface ClaimFields extends AuthorizationKey {
  companyId: string;
  packId: string;
  payTo: string;
  amount: string;
  validBefore: string;
  credits: bigint;
  requestFingerprint: string;
  version: 1 | 2;
}

/** Claims the authorization for this request; null when it was claimed before (by anyone). */
export const claimPayment = (db: Db, t: Tenant, c: { id: string; fields: ClaimFields; now: Date }) =>
  runOne<X402PaymentRow>(db, Q.x402_payment_claim, [
    c.id,
    t.teamId,
    t.environment,
    c.now,
    {
      company_id: c.fields.companyId,
      pack_id: c.fields.packId,
      network: c.fields.network,
      asset: c.fields.asset,
      payer: c.fields.payer,
      nonce: c.fields.nonce,
      pay_to: c.fields.payTo,
      amount: c.fields.amount,
      valid_before: c.fields.validBefore,
      credits: c.fields.credits.toString(),
      request_fingerprint: c.fields.requestFingerprint,
      x402_version: c.fields.version,
    },
  ]);

/** Every claim of the authorization `from` signed with `nonce` (lowercase hex), on any network and token, by any team. */
export const findPayments = (db: Db, a: { payer: string; nonce: string }) => run<X402PaymentRow>(db, Q.x402_payment_find, [a.payer, a.nonce]);

export const markSettled = (db: Db, t: Tenant, s: { id: string; txHash: string; logIndex: number; creditGrantId: string; now: Date }) =>
  runOne<X402PaymentRow>(db, Q.x402_payment_settle, [t.teamId, t.environment, s.id, s.txHash, s.creditGrantId, s.now, s.logIndex]);

export const markFailed = (db: Db, t: Tenant, id: string, reason: string) => runOne(db, Q.x402_payment_fail, [t.teamId, t.environment, id, reason]);

/** Takes over a claim made at or before `cutoff` whose outcome is unknown; null when another retry took it, or it ended. */
export const reletClaim = (db: Db, t: Tenant, r: { id: string; cutoff: Date; now: Date }) =>
  runOne<{ id: string }>(db, Q.x402_payment_relet, [t.teamId, t.environment, r.id, r.cutoff, r.now]);

/** A page of the tenant's payments, newest first, before `page.beforeSeq` (one status, or any). */
export const listPaymentRows = (db: Db, t: Tenant, page: { beforeSeq: bigint | null; fetch: number; status: string | null }) =>
  run<X402PaymentRow>(db, Q.x402_payment_list_page, [t.teamId, t.environment, page.beforeSeq, page.fetch, page.status]);

/** Drops a claim whose settlement sent nothing for a reason of ours, so the payer may present it again. */
export const releaseClaim = (db: Db, t: Tenant, id: string) => runOne(db, Q.x402_payment_release, [t.teamId, t.environment, id]);

/** Claims unfinished at `cutoff`, re-leased to `now` for the reconciliation job (oldest first, at most `limit`). */
export const claimStalePayments = (db: Db, s: { cutoff: Date; now: Date; limit: number }) =>
  run<X402PaymentRow>(db, Q.x402_payment_claim_stale, [s.cutoff, s.now, s.limit]);
