/** Settlement wallet and invoice settings rows to API records (defaults filled in where no row exists). */
import type { InvoiceSettingsRow, SettlementWalletRow } from "../rows";
import { DEFAULT_PAYMENT_TERMS_DAYS } from "../lifecycle/prepare";
import type { InvoiceSettingsView } from "./schemas";

export const presentSettlementWallet = (r: SettlementWalletRow) => ({
  network: r.network,
  wallet: r.wallet,
  tokens: r.tokens,
  createdAt: r.created_at.toISOString(),
  updatedAt: r.updated_at.toISOString(),
});

/** The settings in force: the stored row, or the defaults when the tenant has none. */
export const presentInvoiceSettings = (r: InvoiceSettingsRow | undefined): InvoiceSettingsView => ({
  sellerName: r?.seller_name ?? null,
  sellerAddress: r?.seller_address ?? null,
  sellerTaxId: r?.seller_tax_id ?? null,
  sellerEmail: r?.seller_email ?? null,
  paymentTermsDays: r?.payment_terms_days ?? DEFAULT_PAYMENT_TERMS_DAYS,
  footer: r?.footer ?? null,
  emailOnIssue: r?.email_on_issue ?? true,
});
