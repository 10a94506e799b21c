/** Typed access to what invoice payments read and write of payments and checkout sessions (payment_attach_invoice, checkout_session_*uninvoiced*). */
import { queries, run, runOne, type Db } from "../../../db/queries";
import type { Tenant } from "../../../lib/tenant";
import type { CheckoutSessionRow } from "../../payments/rows";

const Q = queries(["payment_attach_invoice", "checkout_session_list_uninvoiced", "checkout_session_uninvoiced_tenants", "payment_lock_by_id"]);

/** A paid checkout session without its invoice, with its payment. */
export type Uninvoiced = CheckoutSessionRow & { seq: bigint; payment_id: string; payment_amount: string; payment_payer: string };

export const attachPayment = (db: Db, t: Tenant, a: { paymentId: string; invoiceId: string; applied: bigint; excess: bigint }, now: Date) =>
  run(db, Q.payment_attach_invoice, [t.teamId, t.environment, a.paymentId, a.invoiceId, a.applied, a.excess, now]);

export const listUninvoicedTenants = (db: Db) =>
  run<{ team_id: string; environment: Tenant["environment"] }>(db, Q.checkout_session_uninvoiced_tenants);

export const listUninvoiced = (db: Db, t: Tenant, after: bigint, limit: number) =>
  run<Uninvoiced>(db, Q.checkout_session_list_uninvoiced, [t.teamId, t.environment, after, limit]);

export const lockPaymentInvoice = (db: Db, t: Tenant, paymentId: string) =>
  runOne<{ invoice_id: string | null }>(db, Q.payment_lock_by_id, [t.teamId, t.environment, paymentId]);
