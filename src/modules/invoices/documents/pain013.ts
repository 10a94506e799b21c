/**
 * The invoice as an ISO 20022 pain.013.001.08 Creditor Payment Activation Request ("request to pay"):
 * the seller (creditor) asks the customer (debtor) to pay the invoice into the settlement wallet by the
 * due date. Mapping (docs/invoices.md#iso-20022-mapping):
 * - MsgId: the invoice id and creation time; PmtInfId and EndToEndId: the invoice number (the reference a
 *   payer quotes); NbOfTxs 1.
 * - InstdAmt: what is asked now: the outstanding amount of an ISSUED or OVERDUE invoice, the total of a
 *   DRAFT (what issuing it will ask; the text says it is a draft), 0 once PAID or VOID. `Ccy` as
 *   iso-currency.ts maps the token; 5 fractional digits, the exact amount in `Ustrd`.
 * - ReqdExctnDt: the due date; for a draft, the date it would fall due if issued today.
 * - Cdtr: the seller (name, address lines, tax id as TXID, email); CdtrAcct: the settlement wallet on the
 *   invoice's network, when set; Dbtr: the customer (name, email), DbtrAcct their wallet when known; both
 *   agents: the network. ChrgBr DEBT: the payer bears the network fee, the seller receives the full amount.
 * - RmtInf: `Ustrd` lines with number, exact amount, token and network (and where to pay), and `Strd` with
 *   the invoice (CINV, number, issue date) and its amounts (total, tax, credited, paid).
 */
import { create } from "xmlbuilder2";
import type { Db } from "../../../db/queries";
import { formatMicro } from "../../../lib/money";
import type { Tenant } from "../../../lib/tenant";
import { amount, bounded, isoAmount, isoDate, messageId, microOf, networkAgent, party, pruned, sellerParty, walletAccount } from "./iso-common";
import { isoCurrencyOf } from "./iso-currency";
import { dueDateOf } from "../lifecycle/prepare";
import { loadDocumentSource, type DocumentSource } from "./source";

export const PAIN013_NAMESPACE = "urn:iso:std:iso:20022:tech:xsd:pain.013.001.08";

/** The pain.013 of a tenant's invoice (404 not_found when it has none of that id). */
export async function renderPain013(db: Db, tenant: Tenant, invoiceId: string, now: Date): Promise<string> {
  return pain013(await loadDocumentSource(db, tenant, invoiceId), now);
}

/** What the request asks for now, in micro-units (see the header). */
function requested(invoice: DocumentSource["invoice"]): bigint {
  if (invoice.status === "DRAFT") return microOf(invoice.total);
  if (invoice.status === "ISSUED" || invoice.status === "OVERDUE") return microOf(invoice.amountOutstanding);
  return 0n;
}

function remittanceLines({ invoice, settlementWallet }: DocumentSource, asked: bigint): string[] {
  const on = invoice.network ? ` on ${invoice.network}` : "";
  const exact = `${formatMicro(asked)} ${invoice.currency}${on}`;
  const head = {
    DRAFT: `Draft ${invoice.number}, not a demand for payment: ${exact}`,
    ISSUED: `Invoice ${invoice.number}: pay ${exact}`,
    OVERDUE: `Invoice ${invoice.number} (overdue): pay ${exact}`,
    PAID: `Invoice ${invoice.number} is paid, nothing to pay: ${exact}`,
    VOID: `Invoice ${invoice.number} is void, nothing to pay: ${exact}`,
  }[invoice.status];
  const lines = [head];
  if (asked > 0n && settlementWallet && invoice.network) lines.push(`Pay to ${settlementWallet}${on}`);
  lines.push(
    `Total ${invoice.total}, tax ${invoice.taxTotal}, paid ${invoice.amountPaid}, credited ${invoice.amountCredited}, outstanding ${invoice.amountOutstanding} ${invoice.currency}`,
  );
  return lines.map((l) => bounded(l, 140)!);
}

/** The pain.013.001.08 document (UTF-8 XML text) of a loaded invoice, created at `now`. */
export function pain013(source: DocumentSource, now: Date): string {
  const { invoice, seller, settlementWallet } = source;
  const ccy = isoCurrencyOf(invoice.currency);
  const asked = requested(invoice);
  const due = invoice.dueAt ?? dueDateOf(now, invoice.paymentTermsDays).toISOString();
  const reference = bounded(invoice.number, 35)!;
  const tax = microOf(invoice.taxTotal);
  const credited = microOf(invoice.amountCredited);
  const paid = microOf(invoice.amountPaid);
  const request = {
    GrpHdr: {
      MsgId: messageId(invoice.id, now),
      CreDtTm: now.toISOString(),
      NbOfTxs: "1",
      CtrlSum: isoAmount(asked),
      InitgPty: { Nm: bounded(seller.name, 140) },
    },
    PmtInf: {
      PmtInfId: reference,
      PmtMtd: "TRF",
      ReqdExctnDt: { Dt: isoDate(due) },
      Dbtr: party({ name: invoice.customerName, email: invoice.customerEmail }),
      DbtrAcct: invoice.customerWallet ? walletAccount(invoice.customerWallet, invoice.network) : undefined,
      DbtrAgt: networkAgent(invoice.network),
      CdtTrfTx: {
        PmtId: { EndToEndId: reference },
        Amt: { InstdAmt: amount(asked, ccy) },
        ChrgBr: "DEBT",
        CdtrAgt: networkAgent(invoice.network),
        Cdtr: sellerParty(seller),
        CdtrAcct: settlementWallet ? walletAccount(settlementWallet, invoice.network) : undefined,
        RmtInf: {
          Ustrd: remittanceLines(source, asked),
          Strd: {
            RfrdDocInf: {
              Tp: { CdOrPrtry: { Cd: "CINV" } },
              Nb: reference,
              RltdDt: invoice.issuedAt ? isoDate(invoice.issuedAt) : undefined,
            },
            RfrdDocAmt: {
              DuePyblAmt: amount(microOf(invoice.total), ccy),
              CdtNoteAmt: credited > 0n ? amount(credited, ccy) : undefined,
              TaxAmt: tax > 0n ? { Amt: amount(tax, ccy) } : undefined,
              RmtdAmt: paid > 0n ? amount(paid, ccy) : undefined,
            },
          },
        },
      },
    },
  };
  return create({ version: "1.0", encoding: "UTF-8" })
    .ele(PAIN013_NAMESPACE, "Document")
    .ele(pruned({ CdtrPmtActvtnReq: request }))
    .doc()
    .end({ prettyPrint: true });
}
