/**
 * POST /agent/dispatch: creates or updates the tenant's top-up configuration of one wallet on one network. Every
 * field is checked first (one 400 naming each bad one, nothing written); then the configuration is written and
 * audited in one transaction. A second call for the same wallet and network replaces its amounts and token and
 * enables it; it re-arms only when the configuration was disabled or its terms changed (docs/agents.md#configuration).
 */
import type { Sql } from "../../db/client";
import { apiError } from "../../lib/errors";
import { newId } from "../../lib/ids";
import type { ChainRegistry } from "../../lib/networks";
import { checkBody } from "../../http/schema-errors";
import { recordAudit } from "../audit/repo";
import type { OperationContext } from "../operation-context";
import { upsertConfig } from "./repo";
import type { TopupConfigRow } from "./rows";
import { DispatchConfigBody } from "./schemas";
import { canonicalWallet, checkAmountRange, topupNetwork, topupToken } from "./targets";

export interface AgentDeps {
  sql: Sql;
  chains: ChainRegistry;
}

export async function configureTopup(
  deps: AgentDeps,
  c: Omit<OperationContext, "tx">,
  body: DispatchConfigBody,
): Promise<TopupConfigRow & { created: boolean }> {
  checkBody(DispatchConfigBody, body as Record<string, unknown>); // the route's schema again, for callers that skip the route
  const details: Record<string, string> = {};
  const network = topupNetwork(deps.chains, c.tenant, { chainId: body.chainId, network: body.network, field: "body.network" }, details);
  const token = network && topupToken(network, body.token, details);
  const target = network && canonicalWallet(network, body.targetWallet, "body.targetWallet", details);
  if (network) checkAmountRange(network, { "body.minBalanceThreshold": body.minBalanceThreshold, "body.topupAmount": body.topupAmount }, details);
  if (!network || !token || !target || Object.keys(details).length) throw apiError("validation_failed", "Validation failed", details);
  return deps.sql.begin(async (tx) => {
    const row = await upsertConfig(
      tx,
      c.tenant,
      {
        id: newId("atc"),
        network: network.id,
        token: token.symbol,
        target,
        threshold: BigInt(body.minBalanceThreshold),
        amount: BigInt(body.topupAmount),
      },
      c.now,
    );
    await recordAudit(tx, {
      ...c.tenant,
      actor: c.actor,
      action: "agent_dispatch.configure",
      resourceType: "agent_dispatch",
      resourceId: row.id,
      details: {
        network: network.id,
        token: token.symbol,
        targetWallet: target,
        minBalanceThreshold: body.minBalanceThreshold,
        topupAmount: body.topupAmount,
      },
    });
    return row;
  });
}
