/**
 * Opening a checkout session from a payment link. The session copies the link's terms and gets its own
 * deadline (the link's time to live from now). On Stellar the session's id is the memo the payment must
 * carry: it ties an on-chain payment to exactly one session even when the same wallet pays many.
 */
import type { Sql } from "../../db/client";
import type { ChainRegistry } from "../../lib/networks";
import { isValidAddress } from "../../chains/addresses";
import { apiError } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { recordAudit } from "../audit/repo";
import { findCompanyByKeys } from "../customers/repo";
import type { CheckoutSessionRow } from "./rows";
import { findPaymentLink, insertCheckoutSession } from "./repo";
import type { OperationContext } from "../operation-context";

export interface OpenSessionInput {
  paymentLinkId: string;
  companyId?: string;
  customerWallet?: string;
}

export async function openCheckoutSession(
  { sql, registry }: { sql: Sql; registry: ChainRegistry },
  { tenant, actor, now }: Omit<OperationContext, "tx">,
  input: OpenSessionInput,
): Promise<CheckoutSessionRow> {
  return sql.begin(async (tx) => {
    const link = await findPaymentLink(tx, tenant, input.paymentLinkId);
    if (!link) throw apiError("validation_failed", "Validation failed", { "body.paymentLinkId": `No payment link ${input.paymentLinkId}` });
    if (!link.active) throw apiError("conflict", "Payment link is not active");
    const network = registry.get(link.network);
    if (!network) throw apiError("conflict", `Network ${link.network} is no longer configured`);
    // A mistyped wallet would refuse the customer's real payment as wrong_payer: refuse it here instead.
    if (input.customerWallet !== undefined && !isValidAddress(network.family, input.customerWallet)) {
      throw apiError("validation_failed", "Validation failed", { "body.customerWallet": `Not a valid ${network.family} address` });
    }
    let companyId = link.company_id;
    if (input.companyId) {
      const company = await findCompanyByKeys(tx, tenant, { id: input.companyId });
      if (!company) throw apiError("validation_failed", "Validation failed", { "body.companyId": `No company ${input.companyId}` });
      if (link.company_id && link.company_id !== company.id)
        throw apiError("validation_failed", "Validation failed", { "body.companyId": "The payment link is for another company" });
      companyId = company.id;
    }
    if (link.purpose !== "PAYMENT" && !companyId) {
      throw apiError("validation_failed", "Validation failed", {
        "body.companyId": `Required: the link's purpose ${link.purpose} applies to a company`,
      });
    }
    const id = newId("cs");
    const session = await insertCheckoutSession(tx, {
      id,
      team_id: tenant.teamId,
      environment: tenant.environment,
      payment_link_id: link.id,
      company_id: companyId,
      customer_wallet: input.customerWallet ?? null,
      purpose: link.purpose,
      amount: link.amount,
      network: link.network,
      chain_id: link.chain_id,
      token_symbol: link.token_symbol,
      token: link.token,
      recipient_wallet: link.recipient_wallet,
      add_on_plan_id: link.add_on_plan_id,
      credit_amount: link.credit_amount,
      memo: network.family === "stellar" ? id : null, // 27 characters: within Stellar's 28-byte text memo
      expires_at: new Date(now.getTime() + link.ttl_seconds * 1000),
      created_at: now,
    });
    await recordAudit(tx, {
      ...tenant,
      actor,
      action: "checkout_session.create",
      resourceType: "checkout_session",
      resourceId: id,
      details: { paymentLinkId: link.id },
    });
    return session;
  });
}
