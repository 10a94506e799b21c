/**
 * What every invoice document (the PDF, pain.013, camt.054) is made from, loaded once: the invoice as
 * GET /invoices/{id} shows it (so a document never says anything the API does not), the seller as the
 * tenant's invoice settings describe it (the team's name when no seller name is set), and the settlement
 * wallet the invoice is paid to on its network, when the invoice has a network and the team set a wallet.
 */
import type { Db } from "../../../db/queries";
import { apiError } from "../../../lib/errors";
import type { Tenant } from "../../../lib/tenant";
import { findTeam } from "../../teams/team";
import { invoiceDetail } from "../present";
import { findInvoice, findInvoiceSettings, findSettlementWallet } from "../repo";
import type { InvoiceDetailView } from "../schemas";

export interface Seller {
  name: string;
  address: string | null;
  taxId: string | null;
  email: string | null;
  /** printed at the foot of every PDF page */
  footer: string | null;
}

export interface DocumentSource {
  invoice: InvoiceDetailView;
  seller: Seller;
  /** where the invoice is paid: the team's settlement wallet on the invoice's network, or null */
  settlementWallet: string | null;
}

/** The invoice's document source, or 404 not_found when the tenant has no such invoice. */
export async function loadDocumentSource(db: Db, tenant: Tenant, invoiceId: string): Promise<DocumentSource> {
  const row = await findInvoice(db, tenant, invoiceId);
  if (!row) throw apiError("not_found", `No invoice ${invoiceId}`);
  const [invoice, settings, team, wallet] = await Promise.all([
    invoiceDetail(db, tenant, row),
    findInvoiceSettings(db, tenant),
    findTeam(db, tenant.teamId),
    row.network ? findSettlementWallet(db, tenant, row.network) : undefined,
  ]);
  return {
    invoice,
    seller: {
      name: settings?.seller_name ?? team?.name ?? tenant.teamId,
      address: settings?.seller_address ?? null,
      taxId: settings?.seller_tax_id ?? null,
      email: settings?.seller_email ?? null,
      footer: settings?.footer ?? null,
    },
    settlementWallet: wallet?.wallet ?? null,
  };
}
