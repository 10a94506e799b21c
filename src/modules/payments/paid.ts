/** What a paid checkout session does besides recording its payment, in the payment's transaction. */
import type { TransactionSql } from "../../db/client";
import type { OperationContext } from "../operation-context";
import type { Db } from "../../db/queries";
import type { Tenant } from "../../lib/tenant";
import type { Actor } from "../audit/repo";
import { grantCreditsInTx, lockCompanyGrants } from "../entitlements/credits";
import { publishCompanyChanged } from "../changes/publish";
import { emitEvent } from "../webhooks/emit";
import type { CheckoutSessionRow, RecordedPayment } from "./rows";
import { addAddOnToCompany, findPaymentLink } from "./repo";
import { presentCheckoutSession, presentPaymentLink } from "./present";

/**
 * The rows what a paid session buys will write, locked before its invoice is made: the invoice writes audit
 * entries (the audit chain's lock, held to commit), and a plain credit grant takes the company's grants, then
 * the audit chain; taking them in the same order here means neither waits on the other in a cycle.
 */
export async function lockPurchase(tx: Db, tenant: Tenant, session: CheckoutSessionRow, now: Date): Promise<void> {
  if (session.purpose === "CREDITS") await lockCompanyGrants(tx, tenant, session.company_id!, now.getTime());
}

/** What a paid session buys, committed with the payment: an add-on on the company, or credits. */
export async function grantPurchase({ tx, tenant, actor, now }: OperationContext, session: CheckoutSessionRow): Promise<void> {
  if (session.purpose === "ADDON") {
    await addAddOnToCompany(tx, tenant, session.company_id!, session.add_on_plan_id!);
    await publishCompanyChanged(tx, tenant, session.company_id!);
  } else if (session.purpose === "CREDITS") {
    await grantCreditsInTx({ tx, tenant, actor, now }, session.company_id!, {
      amount: session.credit_amount!,
      reason: `checkout session ${session.id}`,
    });
  }
}

/** Webhooks of a payment, in its transaction: the session paid, and the payment link it was opened from paid. */
export async function emitPaid(tx: Db, tenant: Tenant, session: CheckoutSessionRow, now: Date): Promise<void> {
  const checkoutSession = presentCheckoutSession(session);
  await emitEvent({ tx, tenant }, "checkout_session.paid", checkoutSession, { at: now });
  await emitEvent(
    { tx, tenant },
    "payment_link.paid",
    { lazy: async () => ({ paymentLink: presentPaymentLink((await findPaymentLink(tx, tenant, session.payment_link_id))!), checkoutSession }) },
    { at: now },
  );
}

/** Makes the paid session's invoice (src/modules/invoices/payments/checkout.ts, wired in app-deps: invoices build on payments). */
export type InvoiceSession = (
  tx: Db,
  tenant: Tenant,
  actor: Actor,
  session: CheckoutSessionRow,
  payment: RecordedPayment,
  now: Date,
) => Promise<unknown>;

/**
 * The paid session's invoice, in a savepoint: the money has moved and the chain proved it, so an invoice that
 * cannot be made (an amount past the invoice range, a token since dropped from the registry) must not undo the
 * payment. It is left, with its reason in the audit entry, to `invoice backfill-checkouts`, which looks for
 * exactly this: a paid session whose payment has no invoice. Null when the invoice was made.
 */
export async function invoiceOrLeave(
  invoiceSession: InvoiceSession,
  { tx, tenant, actor, now }: Omit<OperationContext, "tx"> & { tx: TransactionSql },
  paid: CheckoutSessionRow,
  payment: RecordedPayment,
): Promise<string | null> {
  try {
    await tx.savepoint((sp) => invoiceSession(sp, tenant, actor, paid, payment, now));
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}
