/**
 * Pulling through the mandate, and recording a landed pull: the payment row (its (network, tx_hash) key is the global replay guard, taken
 * under the transaction's advisory lock like every payment writer, src/modules/transaction-claims/repo.ts), applied to the
 * invoice (PAID when it covers it), and the mandate's remaining amount lowered, all in the caller's
 * transaction. Lock order: subscription (the caller's), transaction hash, invoice, counter, audit.
 */
import type { ChainOperation } from "../../../chains/subscription-types";
import { lockTransaction } from "../../transaction-claims/repo";
import { apiError } from "../../../lib/errors";
import { newId } from "../../../lib/ids";
import { tokenToMicroFloor } from "../../../lib/money";
import { findToken } from "../../../lib/networks";
import type { SubscriptionDeps, TxContext } from "../context";
import type { ChargeRow, MandateRow, SubscriptionRow } from "../rows";
import { applyPayment } from "../../invoices/payments/settle";
import { insertInvoicePayment } from "../../payments/repo";
import { drawMandate } from "../repo";

/** Asks the chain (in the worker pool) to pull a recorded pending operation through the subscription's mandate. */
export function pullThroughMandate(deps: SubscriptionDeps, sub: SubscriptionRow, charge: ChargeRow) {
  const network = deps.chains.get(sub.network)!;
  return deps.pool.subscription({
    op: "charge",
    request: {
      network,
      token: findToken(network, sub.token_symbol)!,
      payer: sub.payment_account,
      payee: sub.payee_wallet,
      tokenId: sub.token_id!,
      amount: BigInt(charge.amount),
      reference: charge.reference,
    },
  });
}

/** The payment's id, or null when nothing moved (a trial's activation, an invoice covered by credit). */
export async function recordPull(
  c: TxContext,
  sub: SubscriptionRow,
  { invoiceId, op, decimals, mandate }: { invoiceId: string | null; op: ChainOperation; decimals: number; mandate: MandateRow | null },
): Promise<string | null> {
  if (op.amount === 0n || invoiceId === null) return null;
  await lockTransaction(c.tx, sub.network, op.txHash);
  const id = newId("pay");
  const inserted = await insertInvoicePayment(c.tx, c.tenant, {
    id,
    invoiceId,
    network: sub.network,
    txHash: op.txHash,
    transferIndex: 0,
    amount: op.amount,
    tokenSymbol: sub.token_symbol,
    payer: sub.payment_account,
    blockNumber: op.blockNumber,
    blockHash: null,
    at: c.now,
  });
  if (!inserted) throw new Error(`transaction ${op.txHash} on ${sub.network} is already recorded as a payment`);
  const worth = tokenToMicroFloor(op.amount, decimals);
  if (!worth.ok) throw apiError("conflict", `The pull's amount cannot be recorded: ${worth.expected}`);
  await applyPayment(c, invoiceId, { id, amount: worth.value, network: sub.network });
  if (mandate)
    await drawMandate(c.tx, c.tenant, mandate.id, {
      amount: op.amount < BigInt(mandate.remaining_amount) ? op.amount : BigInt(mandate.remaining_amount),
      now: c.now,
    });
  return id;
}
