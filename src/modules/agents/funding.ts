/**
 * Funding mandates (docs/agents.md#funding-mandate): the wallet a team's top-ups on a network are drawn from. The
 * funder consents on chain first (EVM: ERC-20 `approve(operator, amount)`; Solana: SPL `approve` delegating to the
 * operator for an amount); registering reads that consent back through the chain workers and records it as the
 * mandate's authorized and remaining amount (never above the total the funder signed for), with the team's daily cap. Nothing is recorded without the funding
 * wallet's signed consent to this team's top-ups (consent.ts: the approval names only the operator every team
 * shares) and an approval on chain: a top-up never draws more than the funder allowed, and the chain enforces it
 * again on every send.
 */
import { apiError } from "../../lib/errors";
import { newId } from "../../lib/ids";
import type { ChainPool } from "../../chains/pool";
import { checkBody } from "../../http/schema-errors";
import type { Tenant } from "../../lib/tenant";
import type { Sql } from "../../db/client";
import { recordAudit } from "../audit/repo";
import type { OperationContext } from "../operation-context";
import type { AgentDeps } from "./configure";
import { assertFundingConsent } from "./consent";
import { listFundingMandates, revokeFundingMandate, upsertFundingMandate, walletBacksSubscription } from "./repo";
import type { FundingMandateRow } from "./rows";
import { FundingMandatePut } from "./schemas";
import { canonicalWallet, checkAmountRange, topupNetwork, topupToken } from "./targets";

export type FundingDeps = AgentDeps & { pool: ChainPool };

export const listFunding = (sql: Sql, tenant: Tenant) => listFundingMandates(sql, tenant);

export async function registerFunding(
  deps: FundingDeps,
  c: Omit<OperationContext, "tx">,
  networkId: string,
  body: FundingMandatePut,
): Promise<FundingMandateRow> {
  checkBody(FundingMandatePut, body as Record<string, unknown>);
  const details: Record<string, string> = {};
  const network = topupNetwork(deps.chains, c.tenant, { network: networkId, field: "path.network" }, details);
  const token = network && topupToken(network, body.token, details);
  const wallet = network && canonicalWallet(network, body.fundingWallet, "body.fundingWallet", details);
  if (network) checkAmountRange(network, { "body.dailyCap": body.dailyCap, "body.total": body.total }, details);
  if (!network || !token || !wallet || Object.keys(details).length) throw apiError("validation_failed", "Validation failed", details);
  const dailyCap = BigInt(body.dailyCap);
  const total = BigInt(body.total);
  await assertFundingConsent({ tenant: c.tenant, network, token, wallet, dailyCap, total }, body.consent, c.now);
  // A token account has one delegate and one delegated amount: one that backs a subscription cannot fund top-ups
  // (each draw would eat the subscription's allowance, and the subscription's the mandate's).
  if (network.family === "solana" && (await walletBacksSubscription(deps.sql, network.id, token.symbol, wallet)))
    throw apiError(
      "payment_account_in_use",
      `The funding wallet's ${token.symbol} token account backs a live subscription: its one SPL delegation to the service's operator is that subscription's allowance. Fund top-ups from another wallet`,
    );

  const funding = await deps.pool.topup({ op: "readFunding", request: { network, token, funder: wallet } });
  if (!funding.ok) {
    if (funding.reason === "not_configured") throw apiError("conflict", `Auto-topup cannot run on ${network.id}: ${funding.detail}`);
    throw apiError("chain_unavailable", `The network did not answer: ${funding.detail}`);
  }
  if (funding.allowance === 0n)
    throw apiError("validation_failed", "Validation failed", {
      "body.fundingWallet": `The wallet has not approved the service's operator ${funding.operator} on ${token.symbol}: approve it for the total top-ups may draw, then register again`,
    });
  return deps.sql.begin(async (tx) => {
    const row = await upsertFundingMandate(
      tx,
      c.tenant,
      {
        id: newId("fmd"),
        network: network.id,
        token: token.symbol,
        wallet,
        operator: funding.operator,
        // The signed total caps the mandate whatever the chain allows the operator, which every team shares.
        authorized: funding.allowance < total ? funding.allowance : total,
        dailyCap,
        consent: { ...body.consent, total: total.toString() },
      },
      c.now,
    );
    await recordAudit(tx, {
      ...c.tenant,
      actor: c.actor,
      action: "agent_funding.register",
      resourceType: "agent_funding_mandate",
      resourceId: row.id,
      details: { network: network.id, fundingWallet: wallet, authorizedAmount: row.authorized_amount, dailyCap: row.daily_cap },
    });
    return row;
  });
}

/** Stops every top-up of the network drawing on the mandate (the funder may also revoke its approval on chain). */
export async function revokeFunding(sql: Sql, c: Omit<OperationContext, "tx">, networkId: string): Promise<FundingMandateRow> {
  return sql.begin(async (tx) => {
    const row = await revokeFundingMandate(tx, c.tenant, networkId, c.now);
    if (!row) throw apiError("not_found", `No funding mandate on ${networkId}`);
    await recordAudit(tx, { ...c.tenant, actor: c.actor, action: "agent_funding.revoke", resourceType: "agent_funding_mandate", resourceId: row.id });
    return row;
  });
}
