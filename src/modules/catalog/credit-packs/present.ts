/** Credit pack rows to API records. */
import { type Static } from "elysia";
import { findToken, type ChainRegistry } from "../../../lib/networks";
import type { CreditPack } from "./schemas";
import type { CreditPackRow } from "./rows";

export const presentCreditPack =
  (chains: ChainRegistry) =>
  (r: CreditPackRow): Static<typeof CreditPack> => ({
    id: r.id,
    key: r.key,
    name: r.name,
    credits: String(r.credits),
    prices: r.prices.map((p) => {
      const network = chains.get(p.network);
      // A network or token later dropped from the registry still shows what was stored; the 402 skips such a price.
      const token = network && findToken(network, p.token);
      return { network: p.network, token: p.token, asset: token?.contract ?? "", amount: p.amount };
    }),
    offerOnPaymentRequired: r.offer_on_payment_required,
    enabled: r.enabled,
    archived: r.archived_at !== null,
    archivedAt: r.archived_at?.toISOString() ?? null,
    createdAt: r.created_at.toISOString(),
  });
