/**
 * Payment links: the terms of a payment (amount, token, network, recipient, what it buys), from which
 * checkout sessions open. Every term is checked when the link is made, so a session can never ask a
 * customer to pay on a network or into an address the service cannot verify.
 */
import type { Sql } from "../../db/client";
import { ChainRegistry, findToken, networkAllowedIn } from "../../lib/networks";
import { isValidAddress } from "../../chains/addresses";
import { apiError } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { recordAudit, type Actor } from "../audit/repo";
import { findCompanyByKeys } from "../customers/repo";
import { planChoiceProblems } from "../catalog/plans/choice";
import type { PaymentLinkCreate } from "./schemas";
import type { PaymentLinkRow } from "./rows";
import { insertPaymentLink, settlementWalletOwner } from "./repo";
import type { Tenant } from "../../lib/tenant";

const DEFAULT_TTL_SECONDS = 1800;

export async function createPaymentLink(
  { sql, registry }: { sql: Sql; registry: ChainRegistry },
  tenant: Tenant,
  actor: Actor,
  input: PaymentLinkCreate,
): Promise<PaymentLinkRow> {
  const purpose = input.purpose ?? "PAYMENT";
  const details: Record<string, string> = {};
  const network = registry.get(input.network);
  const token = network && findToken(network, input.acceptedToken);
  if (!network)
    details["body.network"] = `Unknown network; one of: ${registry
      .list()
      .map((n) => n.id)
      .join(", ")}`;
  else if (!networkAllowedIn(network, tenant.environment)) {
    details["body.network"] =
      tenant.environment === "development" ? "Test credentials settle only on test networks" : "Live credentials settle only on main networks";
  } else {
    if (!token) details["body.acceptedToken"] = `Not accepted on ${network.id}; one of: ${network.tokens.map((t) => t.symbol).join(", ")}`;
    if (!isValidAddress(network.family, input.recipientWallet)) details["body.recipientWallet"] = `Not a valid ${network.family} address`;
  }
  if (purpose === "ADDON" && !input.addOnPlanId) details["body.addOnPlanId"] = "Required when purpose is ADDON";
  if (purpose !== "ADDON" && input.addOnPlanId) details["body.addOnPlanId"] = "Only for purpose ADDON";
  if (purpose === "CREDITS" && !input.creditAmount) details["body.creditAmount"] = "Required when purpose is CREDITS";
  if (purpose !== "CREDITS" && input.creditAmount) details["body.creditAmount"] = "Only for purpose CREDITS";
  if (Object.keys(details).length) throw apiError("validation_failed", "Validation failed", details);

  return sql.begin(async (tx) => {
    // Another tenant's settlement wallet is not a recipient: a transaction proves one payment anywhere, so a link
    // paid there would take that tenant's customers' transfers (and theirs would be refused as replayed).
    const owner = await settlementWalletOwner(tx, network!, input.recipientWallet);
    if (owner && (owner.team_id !== tenant.teamId || owner.environment !== tenant.environment))
      details["body.recipientWallet"] = "This wallet receives for another team: a payment link pays a wallet of yours";
    const company = input.companyId ? await findCompanyByKeys(tx, tenant, { id: input.companyId }) : null;
    if (input.companyId && !company) details["body.companyId"] = `No company ${input.companyId}`;
    const addOn = input.addOnPlanId ? [input.addOnPlanId] : [];
    Object.assign(details, (await planChoiceProblems(tx, tenant, [{ field: "body.addOnPlanId", ids: addOn, kind: "add_on" }])).details);
    if (Object.keys(details).length) throw apiError("validation_failed", "Validation failed", details);
    const link = await insertPaymentLink(tx, {
      id: newId("plink"),
      team_id: tenant.teamId,
      environment: tenant.environment,
      network: network!.id,
      chain_id: network!.chainId,
      token_symbol: token!.symbol,
      token: token!,
      amount: input.amount,
      recipient_wallet: input.recipientWallet,
      company_id: company?.id ?? null,
      purpose,
      add_on_plan_id: input.addOnPlanId ?? null,
      credit_amount: input.creditAmount ? BigInt(input.creditAmount) : null,
      ttl_seconds: input.ttlSeconds ?? DEFAULT_TTL_SECONDS,
      description: input.description ?? null,
    });
    await recordAudit(tx, {
      ...tenant,
      actor,
      action: "payment_link.create",
      resourceType: "payment_link",
      resourceId: link.id,
      details: { amount: link.amount, network: link.network, token: link.token_symbol, purpose },
    });
    return link;
  });
}
