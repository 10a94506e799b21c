/**
 * Backfill: the PAID invoice of every paid checkout session that has none (sessions paid before invoices
 * existed), made by the same function as a live settlement (payments/checkout.ts). Batches of BATCH_SIZE sessions,
 * each in its own transaction, so a long backfill never holds many locks or one huge transaction; each
 * session in a savepoint of its own, so one that cannot be invoiced (its network since removed from the
 * registry, say) is reported and skipped without undoing the rest of its batch.
 *
 * Idempotent: a session's invoice is unique (the invoices' source index), and its payment is locked and
 * checked for an invoice first, so a second run, or two runs at once, make nothing twice.
 * Dates: the invoice is issued now (numbers keep following issue order, as a gapless series must) and its
 * payment is applied at the session's paid time, so `paidAt` says when the money arrived; metadata carries
 * `backfilled: true`. Its `invoice.issued` and `invoice.paid` webhooks are sent like any other's.
 */
import type { Sql } from "../../../db/client";
import type { ChainRegistry } from "../../../lib/networks";
import type { Db } from "../../../db/queries";
import { ApiError } from "../../../lib/errors";
import type { Tenant } from "../../../lib/tenant";
import type { Actor } from "../../audit/repo";
import { invoiceCheckoutSession } from "./checkout";
import { listUninvoiced, listUninvoicedTenants, lockPaymentInvoice, type Uninvoiced } from "./repo";

/**
 * Small, because a batch holds its tenant's locks until it commits: the invoice number counter (taken by the
 * first invoice it issues) and the audit chain's lock. A live checkout settlement of the same tenant waits
 * for both, so it waits for the whole batch: 20 sessions (tens of milliseconds) rather than 100 (a few hundred).
 */
export const BATCH_SIZE = 20;

export interface BackfillResult {
  teamId: string;
  environment: Tenant["environment"];
  /** invoices made */
  created: number;
  batches: number;
  /** sessions that could not be invoiced, with why (they stay without one; a later run tries again) */
  skipped: { checkoutSessionId: string; error: string }[];
}

export interface BackfillDeps {
  sql: Sql;
  chains: ChainRegistry;
  actor: Actor;
  now: () => Date;
}

/** The tenants with paid sessions lacking an invoice, across every team. */
export const tenantsToBackfill = async (sql: Sql): Promise<Tenant[]> =>
  (await listUninvoicedTenants(sql)).map((r) => ({
    teamId: r.team_id,
    environment: r.environment,
  }));

/** Backfills one tenant, a batch per transaction. */
export async function backfillCheckoutInvoices(deps: BackfillDeps, tenant: Tenant, batchSize = BATCH_SIZE): Promise<BackfillResult> {
  const result: BackfillResult = { ...tenant, created: 0, batches: 0, skipped: [] };
  let after = 0n;
  for (;;) {
    const batch = await listUninvoiced(deps.sql, tenant, after, batchSize);
    if (batch.length === 0) return result;
    result.batches++;
    await deps.sql.begin(async (tx) => {
      for (const row of batch) {
        try {
          const made = await tx.savepoint((sp) => invoiceOne({ ...deps, tx: sp }, tenant, row));
          if (made) result.created++;
        } catch (error) {
          result.skipped.push({ checkoutSessionId: row.id, error: describe(error) });
        }
      }
    });
    after = batch[batch.length - 1]!.seq;
    if (batch.length < batchSize) return result;
  }
}

/** Why a session was skipped: the error's message, and for a 400 what each field expected. */
function describe(error: unknown): string {
  if (error instanceof ApiError && Object.keys(error.details).length)
    return `${error.message}: ${Object.entries(error.details)
      .map(([field, expected]) => `${field}: ${expected}`)
      .join("; ")}`;
  return error instanceof Error ? error.message : String(error);
}

/** Invoices one session unless its payment already has an invoice; true when an invoice was made. */
async function invoiceOne(d: BackfillDeps & { tx: Db }, tenant: Tenant, row: Uninvoiced): Promise<boolean> {
  const payment = await lockPaymentInvoice(d.tx, tenant, row.payment_id);
  if (!payment || payment.invoice_id) return false;
  await invoiceCheckoutSession(
    // No receipt emails for payments made before invoices existed: the customer was never told to expect one.
    { tx: d.tx, tenant, actor: d.actor, chains: d.chains, now: d.now(), emailEnabled: false },
    row,
    { id: row.payment_id, amount: BigInt(row.payment_amount), payer: row.payment_payer },
    { backfill: { paidAt: row.paid_at ?? d.now() } },
  );
  return true;
}
