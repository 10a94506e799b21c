/**
 * Invoices in the states the documents must show (paid with a refund and a credit note, a draft, a void, a
 * unicode customer, long and many lines, an 18-decimal token), made through the service functions; payments
 * and refunds are recorded as verified chain proofs record them (no chain here).
 */
import type { Sql } from "../../src/db/client";
import type { ChainRegistry } from "../../src/lib/networks";
import { newId } from "../../src/lib/ids";
import type { Tenant } from "../../src/lib/tenant";
import { createInvoice, voidInvoice } from "../../src/modules/invoices/lifecycle/transitions";
import { recordRefund } from "../../src/modules/invoices/refunds/record";
import { createCreditNote } from "../../src/modules/invoices/credit-notes/create";
import { applyPayment } from "../../src/modules/invoices/payments/settle";
import { inTx, invoiceInput, issuedInvoice, line } from "./invoices";

export const randomHash = () => `0x${[...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
export const USDC = 1_000_000n;

export interface PaymentRecord {
  micro: bigint;
  tokenAmount?: bigint;
  symbol?: string;
  network?: string;
  txHash?: string;
}

/** A verified payment of `micro` micro-units applied to the invoice; returns its tx hash. */
export async function recordPayment(sql: Sql, chains: ChainRegistry, tenant: Tenant, now: Date, invoiceId: string, p: PaymentRecord) {
  const txHash = p.txHash ?? randomHash();
  const network = p.network ?? "base-sepolia";
  await inTx(sql, chains, tenant, now, async (c) => {
    const id = newId("pay");
    await c.tx`insert into payments (id, team_id, environment, invoice_id, applied_micro, excess_micro, network, tx_hash, transfer_index,
                 amount, token_symbol, payer, block_number, paid_at)
               values (${id}, ${tenant.teamId}, ${tenant.environment}, ${invoiceId}, 0, 0, ${network}, ${txHash}, 0,
                 ${(p.tokenAmount ?? p.micro).toString()}, ${p.symbol ?? "USDC"}, ${`0x${"ab".repeat(20)}`}, 7, ${now})`;
    await applyPayment(c, invoiceId, { id, amount: p.micro, network });
  });
  return txHash;
}

/** The seller the documents print: invoice settings and a settlement wallet on base-sepolia. */
export async function configureSeller(sql: Sql, tenant: Tenant, seller: { name?: string; footer?: string; wallet?: string } = {}) {
  await sql`insert into invoice_settings (team_id, environment, seller_name, seller_address, seller_tax_id, seller_email, footer)
            values (${tenant.teamId}, ${tenant.environment}, ${seller.name ?? "Acme Billing GmbH"}, ${"Hauptstraße 1\n10115 Berlin"},
                    ${"DE123456789"}, ${"billing@acme.test"}, ${seller.footer ?? "Thank you for your business."})
            on conflict (team_id, environment) do update set seller_name = excluded.seller_name, footer = excluded.footer`;
  await sql`insert into settlement_wallets (team_id, environment, network, wallet)
            values (${tenant.teamId}, ${tenant.environment}, 'base-sepolia', ${seller.wallet ?? `0x${"5e".repeat(20)}`})
            on conflict (team_id, environment, network) do update set wallet = excluded.wallet`;
}

export interface Scenario {
  id: string;
  paymentHashes: string[];
  refundHash?: string;
}

/** Paid: two lines with tax, paid in two payments (the second overpays), a credit note and a refund. */
export async function paidInvoice(sql: Sql, chains: ChainRegistry, tenant: Tenant, now: Date): Promise<Scenario> {
  const invoice = await issuedInvoice(
    sql,
    chains,
    tenant,
    now,
    [line(12_500_000n, 1n, 0n, "Pro plan"), line(5n * USDC, 2n, 72_500n, "Extra seats")],
    {
      customerName: "Globex Corporation",
      customerEmail: "ap@globex.test",
      customerWallet: `0x${"c0".repeat(20)}`,
      network: "base-sepolia",
    },
  );
  // total: 12.5 + 10 + 0.725 = 23.225
  const first = await recordPayment(sql, chains, tenant, now, invoice.id, { micro: 20n * USDC });
  const credit = await inTx(sql, chains, tenant, now, (c) => createCreditNote(c, invoice.id, { reason: "Goodwill", creditAmount: 225_000n }));
  const second = await recordPayment(sql, chains, tenant, now, credit.invoice.id, { micro: 3_000_001n });
  const refundHash = randomHash();
  await inTx(sql, chains, tenant, now, (c) =>
    recordRefund(c, invoice.id, {
      amount: 1_500_000n,
      reason: "Seat removed",
      network: "base-sepolia",
      txHash: refundHash,
      senderWallet: `0x${"5e".repeat(20)}`,
      recipientWallet: `0x${"c0".repeat(20)}`,
      tokenSymbol: "USDC",
      tokenAmount: 1_500_000n,
      blockNumber: 9n,
    }),
  );
  return { id: invoice.id, paymentHashes: [first, second], refundHash };
}

export const draftInvoice = (sql: Sql, chains: ChainRegistry, tenant: Tenant, now: Date) =>
  inTx(sql, chains, tenant, now, (c) => createInvoice(c, invoiceInput([line(7n * USDC, 3n, 0n, "Consulting hours")], { customerName: "Initech" })));

export async function voidedInvoice(sql: Sql, chains: ChainRegistry, tenant: Tenant, now: Date) {
  const issued = await issuedInvoice(sql, chains, tenant, now, [line(9n * USDC, 1n, 0n, "Cancelled order")]);
  return inTx(sql, chains, tenant, now, (c) => voidInvoice(c, issued.id));
}

/** An issued invoice in ETH (18 decimals) paid in part: 0.123456789012345678 ETH against 1.234567 ETH. */
export async function etherInvoice(sql: Sql, chains: ChainRegistry, tenant: Tenant, now: Date): Promise<Scenario> {
  const invoice = await issuedInvoice(sql, chains, tenant, now, [line(1_234_567n, 1n, 0n, "Gas-heavy job")], {
    currency: "ETH",
    network: "base-sepolia",
    customerName: "Vitalik's Workshop",
  });
  const hash = await recordPayment(sql, chains, tenant, now, invoice.id, {
    micro: 123_457n,
    tokenAmount: 123_456_789_012_345_678n,
    symbol: "ETH",
  });
  return { id: invoice.id, paymentHashes: [hash] };
}
