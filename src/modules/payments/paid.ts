/** What a paid checkout session does besides recording its payment, in the payment's transaction. */
import type { Db } from "../../db/queries";
import type { Tenant } from "../../lib/tenant";
import type { Actor } from "../audit/repo";
import { grantCreditsInTx } from "../entitlements/credits";
import { publishCompanyChanged } from "../changes/publish";
import { emitEvent } from "../webhooks/emit";
import type { CheckoutSessionRow } from "./model";
import { addAddOnToCompany, findPaymentLink } from "./repo";
import { presentCheckoutSession, presentPaymentLink } from "./present";

/** What a paid session buys, committed with the payment: an add-on on the company, or credits. */
export async function grantPurchase(tx: Db, tenant: Tenant, actor: Actor, session: CheckoutSessionRow, now: Date): Promise<void> {
  if (session.purpose === "ADDON") {
    await addAddOnToCompany(tx, tenant, session.company_id!, session.add_on_plan_id!);
    await publishCompanyChanged(tx, tenant, session.company_id!);
  } else if (session.purpose === "CREDITS") {
    await grantCreditsInTx(
      tx,
      tenant,
      session.company_id!,
      { amount: session.credit_amount!, reason: `checkout session ${session.id}` },
      actor,
      now.getTime(),
    );
  }
}

/** Webhooks of a payment, in its transaction: the session paid, and the payment link it was opened from paid. */
export async function emitPaid(tx: Db, tenant: Tenant, session: CheckoutSessionRow, now: Date): Promise<void> {
  const checkoutSession = presentCheckoutSession(session);
  await emitEvent(tx, tenant, "checkout_session.paid", checkoutSession, { at: now });
  await emitEvent(
    tx,
    tenant,
    "payment_link.paid",
    { lazy: async () => ({ paymentLink: presentPaymentLink((await findPaymentLink(tx, tenant, session.payment_link_id))!), checkoutSession }) },
    { at: now },
  );
}
