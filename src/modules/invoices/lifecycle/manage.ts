/**
 * The operator's invoice writes, shared by the dashboard routes and the CLI: each request is one
 * transaction running the service functions of lifecycle/transitions.ts and payments/settle.ts (which write the audit entry
 * and enqueue the webhook in it), answered with the invoice as GET /invoices/{id} shows it, read in that
 * same transaction.
 */
import type { Sql } from "../../../db/client";
import type { ChainRegistry } from "../../../lib/networks";
import { isValidAddress } from "../../../chains/addresses";
import { apiError } from "../../../lib/errors";
import type { Tenant } from "../../../lib/tenant";
import type { Actor } from "../../audit/repo";
import { plansByIds } from "../../catalog/plans/repo";
import { creditNoteInputOf, invoiceInputOf, type CreditNoteWrite, type InvoiceWrite } from "./input";
import { createInvoice, issueInvoice, updateInvoiceDraft, voidInvoice, type InvoiceInput } from "./transitions";
import type { InvoiceContext } from "./context";
import type { InvoiceRow } from "../rows";
import { invoiceDetail, presentCreditNote } from "../present";
import { creditNoteLinesOf } from "../credit-notes/repo";
import type { CreditNoteView, InvoiceDetailView } from "../schemas";
import { createCreditNote } from "../credit-notes/create";
import type { OperationContext } from "../../operation-context";

export interface ManageDeps {
  sql: Sql;
  chains: ChainRegistry;
  now(): Date;
  /** the deployment emails invoices (SMTP_URL set): issuing queues the customer's email */
  emailEnabled: boolean;
}

function inTransaction<T>(d: ManageDeps, tenant: Tenant, actor: Actor, work: (c: InvoiceContext) => Promise<T>): Promise<T> {
  const now = d.now();
  return d.sql.begin((tx) => work({ tx, tenant, actor, chains: d.chains, now, emailEnabled: d.emailEnabled })) as Promise<T>;
}

const detailOf = async (c: InvoiceContext, row: InvoiceRow) => invoiceDetail(c.tx, c.tenant, row);

/**
 * What the service does not check itself: the plan exists here; the customer's wallet is an address of the
 * network's family, or, without a network (or with one the service refuses), of the family of some network
 * in the registry: a wallet no chain here could hold would only be found out when the invoice is paid.
 */
async function checkReferences(c: InvoiceContext, input: InvoiceInput): Promise<void> {
  const details: Record<string, string> = {};
  if (input.planId && (await plansByIds(c.tx, c.tenant, [input.planId])).length === 0)
    details["body.planId"] = `No plan ${input.planId} in this team and environment`;
  const network = input.network ? c.chains.get(input.network) : undefined;
  const wallet = input.customerWallet;
  if (wallet && network && !isValidAddress(network.family, wallet)) details["body.customerWallet"] = `Not a valid ${network.family} address`;
  else if (wallet && !network) {
    const families = [...new Set(c.chains.list().map((n) => n.family))];
    if (!families.some((family) => isValidAddress(family, wallet)))
      details["body.customerWallet"] = `Not a valid ${families.join(", ")} address (an EVM address in mixed case must carry its EIP-55 checksum)`;
  }
  if (Object.keys(details).length) throw apiError("validation_failed", "Validation failed", details);
}

/** A new draft (issued at once with `issue: true`). */
export function createDraft(d: ManageDeps, tenant: Tenant, actor: Actor, body: InvoiceWrite): Promise<InvoiceDetailView> {
  const input = invoiceInputOf(body);
  return inTransaction(d, tenant, actor, async (c) => {
    await checkReferences(c, input);
    return detailOf(c, await createInvoice(c, input, { issue: body.issue === true }));
  });
}

/** Replaces a draft's fields and lines (then issues it with `issue: true`). */
export function replaceDraft(
  d: ManageDeps,
  { tenant, actor }: Pick<OperationContext, "tenant" | "actor">,
  id: string,
  body: InvoiceWrite,
): Promise<InvoiceDetailView> {
  const input = invoiceInputOf(body);
  return inTransaction(d, tenant, actor, async (c) => {
    await checkReferences(c, input);
    const draft = await updateInvoiceDraft(c, id, input);
    return detailOf(c, body.issue === true ? await issueInvoice(c, id) : draft);
  });
}

export const issueDraftNow = (d: ManageDeps, tenant: Tenant, actor: Actor, id: string) =>
  inTransaction(d, tenant, actor, async (c) => detailOf(c, await issueInvoice(c, id)));

export const voidUnpaid = (d: ManageDeps, tenant: Tenant, actor: Actor, id: string) =>
  inTransaction(d, tenant, actor, async (c) => detailOf(c, await voidInvoice(c, id)));

/** A credit note (credit part only) on an issued, overdue or paid invoice. */
export function creditInvoice(
  d: ManageDeps,
  { tenant, actor }: Pick<OperationContext, "tenant" | "actor">,
  id: string,
  body: CreditNoteWrite,
): Promise<CreditNoteView> {
  const input = creditNoteInputOf(body);
  return inTransaction(d, tenant, actor, async (c) => {
    const { creditNote, invoice } = await createCreditNote(c, id, input);
    // This note's own lines, not every note of the invoice read back: the answer costs the same for the hundredth note.
    const lines = (await creditNoteLinesOf(c.tx, tenant, [creditNote.id])).get(creditNote.id) ?? [];
    return presentCreditNote(creditNote, invoice.currency, lines);
  });
}
