/**
 * Credit packs: create, read, list, archive. A pack's terms (credits, prices) never change once created: a 402
 * that offered them may still be paid (docs/x402.md#credit-packs), so a new price is a new pack. Archiving is
 * the only change; it stops the pack being offered, and payments already taken stand.
 */
import { maxUint256 } from "viem";
import { apiError } from "../../../lib/errors";
import { newId } from "../../../lib/ids";
import { findToken, networkAllowedIn } from "../../../lib/networks";
import type { Db } from "../../../db/queries";
import type { PageWindow } from "../../../http/pagination";
import type { Tenant } from "../../../lib/tenant";
import type { Actor } from "../../audit/repo";
import { Problems } from "../problems";
import { audited, isUniqueViolation, type CatalogDeps } from "../write";
import type { CreditPackRow, StoredPackPrice } from "./rows";
import { CREDITS, PACK_KEY, TOKEN_AMOUNT, type CreditPackCreate } from "./schemas";
import { archiveCreditPackRow, findCreditPackById, insertCreditPack, listCreditPackRows } from "./repo";

/** Each price names an EVM network this environment settles on and an EIP-3009 token of it, each pair once. */
function checkPrices(p: Problems, deps: CatalogDeps, tenant: Tenant, prices: CreditPackCreate["prices"]): StoredPackPrice[] {
  const out: StoredPackPrice[] = [];
  const seen = new Set<string>();
  for (const [i, price] of (Array.isArray(prices) ? prices : []).entries()) {
    const network = deps.chains.get(price.network);
    if (!network || !networkAllowedIn(network, tenant.environment) || network.family !== "evm") {
      p.add(`prices[${i}].network`, "An EVM network of the chain registry this environment settles on");
      continue;
    }
    const token = findToken(network, price.token);
    if (!token?.contract || !token.eip712) {
      const eip3009 = network.tokens.filter((t) => t.contract && t.eip712).map((t) => t.symbol);
      p.add(`prices[${i}].token`, `A token of ${network.id} that takes EIP-3009 authorizations; one of: ${eip3009.join(", ") || "none"}`);
      continue;
    }
    // 78 digits can exceed a uint256, the most a token moves (and what an EIP-3009 authorization signs).
    if (typeof price.amount !== "string" || !TOKEN_AMOUNT.test(price.amount) || BigInt(price.amount) > maxUint256)
      p.add(`prices[${i}].amount`, "Expected a positive integer string of at most 2^256 - 1");
    const pair = `${network.id}|${token.symbol}`;
    if (seen.has(pair)) p.add(`prices[${i}]`, `${token.symbol} on ${network.id} is priced twice`);
    seen.add(pair);
    out.push({ network: network.id, token: token.symbol, amount: price.amount });
  }
  if (!Array.isArray(prices) || prices.length === 0) p.add("prices", "At least one price");
  return out;
}

export async function createCreditPack(deps: CatalogDeps, tenant: Tenant, actor: Actor, input: CreditPackCreate): Promise<CreditPackRow> {
  const p = new Problems(deps.fieldPrefix);
  if (typeof input.key !== "string" || !PACK_KEY.test(input.key)) p.add("key", "Expected 1 to 64 of A-Z a-z 0-9 _ -");
  if (input.name !== undefined) p.text("name", input.name);
  if (typeof input.credits !== "string" || !CREDITS.test(input.credits)) p.add("credits", "Expected a positive integer string (at most 18 digits)");
  const prices = checkPrices(p, deps, tenant, input.prices);
  p.check();
  const id = newId("cpk");
  const fields = {
    key: input.key,
    name: input.name ?? input.key,
    credits: BigInt(input.credits),
    prices,
    offerOnPaymentRequired: input.offerOnPaymentRequired ?? false,
    enabled: input.enabled ?? true,
  };
  try {
    return await audited(deps.sql, tenant, { actor, action: "credit_pack.create", resourceType: "credit_pack" }, async (tx) => {
      const row = await insertCreditPack(tx, tenant, { id, fields, now: deps.now() });
      if (!row) throw apiError("conflict", `Credit pack key ${input.key} is already taken (keys are compared in any case)`);
      return row;
    });
  } catch (error) {
    if (isUniqueViolation(error, "credit_packs"))
      throw apiError("conflict", "Another live credit pack is already offered on payment required; archive it first");
    throw error;
  }
}

export async function getCreditPack(db: Db, tenant: Tenant, id: string): Promise<CreditPackRow> {
  const row = await findCreditPackById(db, tenant, id);
  if (!row) throw apiError("not_found", `No credit pack ${id}`);
  return row;
}

export const listCreditPackPage = (db: Db, tenant: Tenant, page: PageWindow, includeArchived: boolean) =>
  listCreditPackRows(db, tenant, { beforeSeq: page.beforeSeq, fetch: page.fetch, includeArchived });

/** Archives a pack: a 402 no longer offers it. Archiving twice changes nothing. */
export function archiveCreditPack(deps: CatalogDeps, tenant: Tenant, actor: Actor, id: string): Promise<CreditPackRow> {
  return audited(deps.sql, tenant, { actor, action: "credit_pack.archive", resourceType: "credit_pack" }, async (tx) => {
    const row = await archiveCreditPackRow(tx, tenant, id, deps.now());
    if (!row) throw apiError("not_found", `No credit pack ${id}`);
    return row;
  });
}
