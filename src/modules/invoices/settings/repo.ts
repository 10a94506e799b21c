/** Typed access to a tenant's settlement wallets and invoice settings (sql/queries/settlement_wallet_*, invoice_settings_*). */
import { queries, run, runOne, type Db } from "../../../db/queries";
import type { Tenant } from "../../../lib/tenant";
import type { InvoiceSettingsRow, SettlementWalletRow } from "../rows";
import type { InvoiceSettingsView } from "./schemas";

const Q = queries([
  "settlement_wallet_list",
  "settlement_wallet_upsert",
  "settlement_wallet_delete",
  "invoice_settings_lock",
  "invoice_settings_upsert",
]);

export const listSettlementWalletRows = (db: Db, tenant: Tenant) =>
  run<SettlementWalletRow>(db, Q.settlement_wallet_list, [tenant.teamId, tenant.environment]);

export const upsertSettlementWallet = async (
  db: Db,
  tenant: Tenant,
  wallet: { network: string; wallet: string; tokens: readonly string[] },
  now: Date,
) =>
  (await runOne<SettlementWalletRow>(db, Q.settlement_wallet_upsert, [
    tenant.teamId,
    tenant.environment,
    wallet.network,
    wallet.wallet,
    wallet.tokens as string[],
    now,
  ]))!;

export const deleteSettlementWallet = (db: Db, tenant: Tenant, networkId: string) =>
  runOne<SettlementWalletRow>(db, Q.settlement_wallet_delete, [tenant.teamId, tenant.environment, networkId]);

export const lockInvoiceSettings = (db: Db, tenant: Tenant, now: Date) =>
  runOne<InvoiceSettingsRow>(db, Q.invoice_settings_lock, [tenant.teamId, tenant.environment, now]);

export const upsertInvoiceSettings = async (db: Db, tenant: Tenant, s: InvoiceSettingsView, now: Date) =>
  (await runOne<InvoiceSettingsRow>(db, Q.invoice_settings_upsert, [
    tenant.teamId,
    tenant.environment,
    s.sellerName,
    s.sellerAddress,
    s.sellerTaxId,
    s.sellerEmail,
    s.paymentTermsDays,
    s.footer,
    s.emailOnIssue,
    now,
  ]))!;
