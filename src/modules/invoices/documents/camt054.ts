/**
 * What happened to an invoice's money as an ISO 20022 camt.054.001.08 Bank to Customer Debit/Credit
 * Notification: one notification for the settlement wallet, one entry per payment (CRDT) and per refund
 * (DBIT), each booked (BOOK) at its chain time. Mapping (docs/invoices.md#iso-20022-mapping):
 * - Ntfctn/Id: the invoice number; Acct: the settlement wallet on the invoice's network (its network's id
 *   when none is set), owned by the seller.
 * - Ntry/Amt: the payment in the invoice currency (applied + excess) or the refund, at 5 digits, `Ccy` as
 *   iso-currency.ts maps the token. BkTxCd: PMNT/RCDT/OTHR received or PMNT/ICDT/OTHR issued credit
 *   transfer, and proprietary `CHAIN-TRANSFER` issued by the network.
 * - The transaction hash (64 to 88 characters) cannot stand in a reference (Max35Text): it is in
 *   `AddtlNtryInf` and `AddtlTxInf` (Max500Text), whole, with the network, the token amount in its base
 *   units and the exact six-digit amounts. The references hold our ids: NtryRef/AcctSvcrRef/TxId the
 *   payment or refund id, EndToEndId the invoice number (as the pain.013 asked).
 * - RltdPties: customer and payer wallet, seller and settlement wallet (reversed for a refund);
 *   RmtInf: the invoice (CINV) for a payment, its credit note (CREN) for a refund.
 */
import { create } from "xmlbuilder2";
import type { Db } from "../../../db/queries";
import { formatMicro } from "../../../lib/money";
import type { Tenant } from "../../../lib/tenant";
import { amount, bounded, messageId, microOf, networkAgent, party, pruned, sellerParty, walletAccount } from "./iso-common";
import { isoCurrencyOf } from "./iso-currency";
import { loadDocumentSource, type DocumentSource } from "./source";

export const CAMT054_NAMESPACE = "urn:iso:std:iso:20022:tech:xsd:camt.054.001.08";

/** The camt.054 of a tenant's invoice: all its payments and refunds (404 not_found when it has none of that id). */
export async function renderCamt054(db: Db, tenant: Tenant, invoiceId: string, now: Date): Promise<string> {
  return camt054(await loadDocumentSource(db, tenant, invoiceId), now);
}

interface Movement {
  id: string;
  direction: "CRDT" | "DBIT";
  micro: bigint;
  at: string;
  network: string;
  txHash: string;
  from: string;
  to: string | null;
  detail: string;
  document: { code: "CINV" | "CREN"; number: string };
}

function movements({ invoice, settlementWallet }: DocumentSource): Movement[] {
  const inCurrency = (micro: bigint) => `${formatMicro(micro)} ${invoice.currency}`;
  const payments = invoice.payments.map((p): Movement => {
    const micro = microOf(p.amountApplied) + microOf(p.amountExcess);
    return {
      id: p.id,
      direction: "CRDT",
      micro,
      at: p.paidAt,
      network: p.network,
      txHash: p.txHash,
      from: p.payer,
      to: settlementWallet,
      detail: `${inCurrency(micro)} received (${p.tokenAmount} ${p.currency} base units): ${p.amountApplied} applied to ${invoice.number}, ${p.amountExcess} to the customer's credit balance`,
      document: { code: "CINV", number: invoice.number },
    };
  });
  const refunds = invoice.refunds.map(
    (r): Movement => ({
      id: r.id,
      direction: "DBIT",
      micro: microOf(r.amount),
      at: r.createdAt,
      network: r.network,
      txHash: r.txHash,
      from: r.senderWallet,
      to: r.recipientWallet,
      detail: `${inCurrency(microOf(r.amount))} refunded on ${invoice.number} (${r.tokenAmount} ${r.currency} base units): ${r.reason}`,
      document: { code: "CREN", number: invoice.creditNotes.find((c) => c.id === r.creditNoteId)?.number ?? invoice.number },
    }),
  );
  return [...payments, ...refunds].sort((a, b) => a.at.localeCompare(b.at));
}

function entry(source: DocumentSource, m: Movement, ccy: string) {
  const { invoice, seller } = source;
  const customer = { Pty: party({ name: invoice.customerName, email: invoice.customerEmail }) };
  const sellerPty = { Pty: sellerParty(seller) };
  const fromAccount = walletAccount(m.from, m.network);
  const toAccount = m.to ? walletAccount(m.to, m.network) : undefined;
  const credit = m.direction === "CRDT";
  const chainText = `Tx ${m.txHash} on ${m.network}`;
  return {
    NtryRef: bounded(m.id, 35),
    Amt: amount(m.micro, ccy),
    CdtDbtInd: m.direction,
    Sts: { Cd: "BOOK" },
    BookgDt: { DtTm: m.at },
    ValDt: { DtTm: m.at },
    AcctSvcrRef: bounded(m.id, 35),
    BkTxCd: {
      Domn: { Cd: "PMNT", Fmly: { Cd: credit ? "RCDT" : "ICDT", SubFmlyCd: "OTHR" } },
      Prtry: { Cd: "CHAIN-TRANSFER", Issr: bounded(m.network, 35) },
    },
    NtryDtls: {
      TxDtls: {
        Refs: { AcctSvcrRef: bounded(m.id, 35), EndToEndId: bounded(invoice.number, 35), TxId: bounded(m.id, 35) },
        Amt: amount(m.micro, ccy),
        CdtDbtInd: m.direction,
        RltdPties: credit
          ? { Dbtr: customer, DbtrAcct: fromAccount, Cdtr: sellerPty, CdtrAcct: toAccount }
          : { Dbtr: sellerPty, DbtrAcct: fromAccount, Cdtr: customer, CdtrAcct: toAccount },
        RltdAgts: { DbtrAgt: networkAgent(m.network), CdtrAgt: networkAgent(m.network) },
        RmtInf: {
          Ustrd: [bounded(`${m.document.number}: ${formatMicro(m.micro)} ${invoice.currency} on ${m.network}`, 140)],
          Strd: { RfrdDocInf: { Tp: { CdOrPrtry: { Cd: m.document.code } }, Nb: bounded(m.document.number, 35) } },
        },
        RltdDts: { TxDtTm: m.at },
        AddtlTxInf: bounded(`${chainText}. ${m.detail}`, 500),
      },
    },
    AddtlNtryInf: bounded(chainText, 500),
  };
}

/** The camt.054.001.08 document (UTF-8 XML text) of a loaded invoice's payments and refunds, created at `now`. */
export function camt054(source: DocumentSource, now: Date): string {
  const { invoice, seller, settlementWallet } = source;
  const ccy = isoCurrencyOf(invoice.currency);
  const entries = movements(source);
  const network = invoice.network ?? entries[0]?.network ?? null;
  const account = settlementWallet
    ? walletAccount(settlementWallet, network)
    : { Id: { Othr: { Id: bounded(network ?? "unassigned", 34), SchmeNm: { Prtry: "NETWORK" } } } };
  const notification = {
    GrpHdr: {
      MsgId: messageId(invoice.id, now),
      CreDtTm: now.toISOString(),
      AddtlInf: bounded(`Payments and refunds of invoice ${invoice.number} in ${invoice.currency}`, 500),
    },
    Ntfctn: {
      Id: bounded(invoice.number, 35),
      CreDtTm: now.toISOString(),
      // CashAccount39's order: Id, Tp, Ccy, Nm, Prxy, Ownr, Svcr.
      Acct: {
        Id: account.Id,
        Ccy: ccy,
        Prxy: "Prxy" in account ? account.Prxy : undefined,
        Ownr: { Nm: bounded(seller.name, 140) },
        Svcr: networkAgent(network),
      },
      Ntry: entries.map((m) => entry(source, m, ccy)),
      AddtlNtfctnInf: bounded(
        `Total ${invoice.total}, paid ${invoice.amountPaid}, credited ${invoice.amountCredited}, refunded ${invoice.amountRefunded}, outstanding ${invoice.amountOutstanding} ${invoice.currency}`,
        500,
      ),
    },
  };
  return create({ version: "1.0", encoding: "UTF-8" })
    .ele(CAMT054_NAMESPACE, "Document")
    .ele(pruned({ BkToCstmrDbtCdtNtfctn: notification }))
    .doc()
    .end({ prettyPrint: true });
}
