/**
 * Settlement wallets and invoice settings: the service functions the dashboard routes and the CLI share.
 * Every term is checked before anything is written (one 400 naming each bad field), and every change is
 * audited in its transaction. A wallet is checked more strictly than a payment link's recipient
 * (settings/wallet-address.ts: no burn address, EVM in checksum form), since a typo here sends every customer's
 * money where nobody can recover it.
 */
import type { Sql } from "../../../db/client";
import { findToken, networkAllowedIn, type ChainRegistry } from "../../../lib/networks";
import { apiError } from "../../../lib/errors";
import { isUniqueViolation } from "../../catalog/write";
import type { Tenant } from "../../../lib/tenant";
import { recordAudit, type Actor } from "../../audit/repo";
import type { SettlementWalletRow } from "../rows";
import { findInvoiceSettings } from "../repo";
import { deleteSettlementWallet, listSettlementWalletRows, lockInvoiceSettings, upsertInvoiceSettings, upsertSettlementWallet } from "./repo";
import { settlementWalletProblem } from "./wallet-address";
import { checkBody } from "../../../http/schema-errors";
import { InvoiceSettingsPut, SettlementWalletPut, type InvoiceSettingsView } from "./schemas";
import { presentInvoiceSettings } from "./present";
import type { OperationContext } from "../../operation-context";

const invalid = (details: Record<string, string>) => apiError("validation_failed", "Validation failed", details);

export const listSettlementWallets = (db: Sql, tenant: Tenant) => listSettlementWalletRows(db, tenant);

/** The network, when the tenant's environment may settle on it; else the 400 naming `field`. */
export function settlingNetwork(registry: ChainRegistry, tenant: Tenant, id: string, field: string) {
  const network = registry.get(id);
  if (!network) throw invalid({ [field]: `Unknown network; one of: ${allowedNetworks(registry, tenant).join(", ")}` });
  if (!networkAllowedIn(network, tenant.environment))
    throw invalid({
      [field]: `${tenant.environment === "development" ? "Development settles only on test networks" : "Production settles only on main networks"}; one of: ${allowedNetworks(registry, tenant).join(", ")}`,
    });
  return network;
}

const allowedNetworks = (registry: ChainRegistry, tenant: Tenant) =>
  registry
    .list()
    .filter((n) => networkAllowedIn(n, tenant.environment))
    .map((n) => n.id);

export async function setSettlementWallet(
  { sql, registry }: { sql: Sql; registry: ChainRegistry },
  { tenant, actor, now }: Omit<OperationContext, "tx">,
  networkId: string,
  input: SettlementWalletPut,
): Promise<SettlementWalletRow> {
  checkBody(SettlementWalletPut, input); // the route's schema again, for callers that skip the route (the CLI)
  const network = settlingNetwork(registry, tenant, networkId, "path.network");
  const details: Record<string, string> = {};
  const walletProblem = settlementWalletProblem(network.family, input.wallet);
  if (walletProblem) details["body.wallet"] = walletProblem;
  const tokens: string[] = [];
  for (const [i, symbol] of (input.tokens ?? []).entries()) {
    const token = findToken(network, symbol);
    // By symbol only: a wallet accepts currencies, and invoices name their currency by symbol.
    if (!token || token.symbol.toLowerCase() !== symbol.toLowerCase())
      details[`body.tokens[${i}]`] = `Not a token of ${network.id}; one of: ${network.tokens.map((t) => t.symbol).join(", ")}`;
    // Twice is a list written wrong (a token meant and another typed?): said, not merged in silence.
    else if (tokens.includes(token.symbol)) details[`body.tokens[${i}]`] = `${token.symbol} is given twice; list each token once`;
    else tokens.push(token.symbol);
  }
  if (Object.keys(details).length) throw invalid(details);
  return sql.begin(async (tx) => {
    const row = await upsertSettlementWallet(tx, tenant, { network: network.id, wallet: input.wallet, tokens }, now).catch((error) => {
      // A wallet receives for one tenant (migration 00018): another team's transfers could be claimed otherwise.
      if (isUniqueViolation(error, "settlement_wallets"))
        throw apiError("conflict", `This wallet already receives for another team or environment on ${network.id}`);
      throw error;
    });
    await recordAudit(tx, {
      ...tenant,
      actor,
      action: "settlement_wallet.set",
      resourceType: "settlement_wallet",
      resourceId: network.id,
      details: { wallet: input.wallet, tokens },
    });
    return row;
  });
}

/** Removes the tenant's wallet on a network; 404 when it has none. */
export async function removeSettlementWallet(sql: Sql, tenant: Tenant, actor: Actor, networkId: string): Promise<SettlementWalletRow> {
  return sql.begin(async (tx) => {
    const removed = await deleteSettlementWallet(tx, tenant, networkId);
    if (!removed) throw apiError("not_found", `No settlement wallet on ${networkId}`);
    await recordAudit(tx, {
      ...tenant,
      actor,
      action: "settlement_wallet.remove",
      resourceType: "settlement_wallet",
      resourceId: networkId,
      details: { wallet: removed.wallet },
    });
    return removed;
  });
}

export const getInvoiceSettings = async (db: Sql, tenant: Tenant): Promise<InvoiceSettingsView> =>
  presentInvoiceSettings(await findInvoiceSettings(db, tenant));

/** A partial update: omitted fields keep their value, null clears a text field. */
export async function updateInvoiceSettings(
  sql: Sql,
  { tenant, actor, now }: Omit<OperationContext, "tx">,
  patch: InvoiceSettingsPut,
): Promise<InvoiceSettingsView> {
  checkBody(InvoiceSettingsPut, patch); // as above
  return sql.begin(async (tx) => {
    const current = await lockInvoiceSettings(tx, tenant, now);
    const given = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
    const merged = { ...presentInvoiceSettings(current), ...given } as InvoiceSettingsView;
    const row = await upsertInvoiceSettings(tx, tenant, merged, now);
    await recordAudit(tx, {
      ...tenant,
      actor,
      action: "invoice_settings.update",
      resourceType: "invoice_settings",
      resourceId: tenant.environment,
      details: { fields: Object.keys(given).sort() },
    });
    return presentInvoiceSettings(row);
  });
}
