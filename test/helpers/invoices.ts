/**
 * Invoices made through the service functions (the API's own path), and payments recorded as the chain
 * settlement records them, for tests that need an invoice in a given state without a chain.
 */
import type { Sql } from "../../src/db/client";
import { newId } from "../../src/lib/ids";
import type { Tenant } from "../../src/lib/tenant";
import type { Actor } from "../../src/modules/audit/repo";
import type { ChainRegistry } from "../../src/lib/networks";
import { createInvoice, type InvoiceInput } from "../../src/modules/invoices/lifecycle/transitions";
import type { InvoiceContext } from "../../src/modules/invoices/lifecycle/context";
import type { LineInput } from "../../src/modules/invoices/compute";
import { applyPayment } from "../../src/modules/invoices/payments/settle";
import type { InvoiceRow } from "../../src/modules/invoices/rows";

export const TEST_ACTOR: Actor = { kind: "test", id: "test", requestId: null };

/** Runs `work` in one transaction with an invoice context at `now` (no email on issue unless `emailEnabled`). */
export function inTx<T>(
  sql: Sql,
  chains: ChainRegistry,
  tenant: Tenant,
  now: Date,
  work: (c: InvoiceContext) => Promise<T>,
  options: { emailEnabled?: boolean } = {},
): Promise<T> {
  return sql.begin((tx) => work({ tx, tenant, actor: TEST_ACTOR, chains, now, emailEnabled: options.emailEnabled ?? false })) as Promise<T>;
}

export const line = (unitAmount: bigint, quantity = 1n, taxRate = 0n, description = "Item"): LineInput => ({
  description,
  quantity,
  unitAmount,
  taxRate,
});

export const invoiceInput = (lines: LineInput[], extra: Partial<InvoiceInput> = {}): InvoiceInput => ({
  currency: "USDC",
  lines,
  customerEmail: "buyer@example.com",
  ...extra,
});

/** An issued invoice of the given lines. */
export const issuedInvoice = (sql: Sql, chains: ChainRegistry, tenant: Tenant, now: Date, lines: LineInput[], extra: Partial<InvoiceInput> = {}) =>
  inTx(sql, chains, tenant, now, (c) => createInvoice(c, invoiceInput(lines, extra), { issue: true }));

/**
 * Records an on-chain payment of `micro` (a 6-decimal token, so token units = micro-units) and applies it,
 * as a verified proof does. Returns the invoice afterwards.
 */
export async function payInvoice(
  sql: Sql,
  chains: ChainRegistry,
  tenant: Tenant,
  now: Date,
  invoiceId: string,
  micro: bigint,
  network = "base-sepolia",
): Promise<InvoiceRow> {
  return inTx(sql, chains, tenant, now, async (c) => {
    const id = newId("pay");
    const txHash = `0x${crypto.getRandomValues(new Uint8Array(32)).reduce((s, b) => s + b.toString(16).padStart(2, "0"), "")}`;
    await c.tx`insert into payments (id, team_id, environment, invoice_id, applied_micro, excess_micro, network, tx_hash, transfer_index,
                 amount, token_symbol, payer, block_number)
               values (${id}, ${tenant.teamId}, ${tenant.environment}, ${invoiceId}, 0, 0, ${network}, ${txHash}, 0, ${micro.toString()},
                 'USDC', '0x1111111111111111111111111111111111111111', 1)`;
    return (await applyPayment(c, invoiceId, { id, amount: micro, network })).invoice;
  });
}
