/**
 * Refunding an invoice (POST /invoices/{id}/refunds and the CLI's `invoice refund`): a refund is recorded
 * only once its transaction is proven on the invoice's network (BILLING.md "Invoices"), in three steps:
 *   check:  every field on its own, then the invoice, the fields against it, that the invoice can still refund that much, that the team has a
 *           settlement wallet there, that the hash proved nothing yet: cheap refusals before any chain call;
 *   prove:  the chain workers find a confirmed transfer of the invoice's token to recipientWallet of at least
 *           the amount, and it must be paid out of the team's settlement wallet's own balance; outside any transaction, so no
 *           lock is held across a chain call;
 *   record: recordRefund writes refund + credit note + webhook + audit in one transaction under the
 *           invoice's lock, checking the limit and the hash again, so concurrent refunds never pass amountPaid.
 * A proof that time may still complete (not final, not seen yet, endpoint down) records nothing and is
 * answered 409 refund_not_final with Retry-After (not kept under an Idempotency-Key: the retry runs again).
 */
import type { Sql } from "../../../db/client";
import type { ChainPool } from "../../../chains/pool";
import type { ChainRegistry } from "../../../lib/networks";
import { sameAddress } from "../../../chains/addresses";
import { transactionUse } from "../../transaction-claims/repo";
import { RETRYABLE_REASONS, type PaymentVerdict, type VerifiedTransfer } from "../../../chains/types";
import { apiError } from "../../../lib/errors";
import type { Tenant } from "../../../lib/tenant";
import { refusalCode } from "../../payments/refusals";
import type { InvoiceRow } from "../rows";
import { checkRefundable, recordRefund, replayed } from "./record";
import { findInvoice, findSettlementWallet } from "../repo";
import { notRefundable, refundFields, refundTerms, type RefundRequest, type RefundTerms } from "./terms";
import type { OperationContext } from "../../operation-context";

/** How long a caller should wait before asking again about a transaction that is not provable yet. */
export const NOT_FINAL_RETRY_AFTER_SECONDS = 5;

export interface RefundDeps {
  sql: Sql;
  registry: ChainRegistry;
  pool: Pick<ChainPool, "verifyPayment">;
}

export async function refundInvoice(
  deps: RefundDeps,
  { tenant, actor, now }: Omit<OperationContext, "tx">,
  invoiceId: string,
  request: RefundRequest,
) {
  // The request's own fields first: bad input is a 400 before the invoice's existence or state is looked at.
  const { amount } = refundFields(deps.registry, request);
  const invoice = await findInvoice(deps.sql, tenant, invoiceId);
  if (!invoice) throw apiError("not_found", `No invoice ${invoiceId}`);
  const terms = refundTerms(deps.registry, invoice, request, amount);
  checkRefundable(invoice, terms.amount);
  const sender = await settlementWallet(deps.sql, tenant, invoice, terms);
  // A hash that proved a payment or a refund anywhere (any team) proves nothing more; checked again under its lock.
  if ((await transactionUse(deps.sql, terms.network.id, terms.txHash)) !== null) throw replayed();
  const verdict = await deps.pool.verifyPayment({
    network: terms.network,
    token: terms.token,
    txHash: terms.txHash,
    recipient: terms.recipientWallet,
    amount: terms.tokenAmount,
  });
  const { transfer, blockNumber } = provenFrom(verdict, sender, terms);
  return deps.sql.begin((tx) =>
    recordRefund({ tx, tenant, actor, now }, invoiceId, {
      amount: terms.amount,
      reason: terms.reason,
      network: terms.network.id,
      txHash: terms.txHash,
      senderWallet: transfer.payer,
      recipientWallet: terms.recipientWallet,
      tokenSymbol: terms.token.symbol,
      tokenAmount: transfer.amount,
      blockNumber,
    }),
  );
}

/** The wallet refunds on the invoice's network must come from: the team's settlement wallet there. */
async function settlementWallet(sql: Sql, tenant: Tenant, invoice: InvoiceRow, terms: RefundTerms): Promise<string> {
  const wallet = await findSettlementWallet(sql, tenant, terms.network.id);
  if (!wallet) throw notRefundable(invoice, `the team has no settlement wallet on ${terms.network.id} to send refunds from`);
  // Money sent from the settlement wallet back to itself never left the team.
  if (sameAddress(terms.network.family, wallet.wallet, terms.recipientWallet))
    throw apiError("validation_failed", "Validation failed", {
      "body.refundProof.recipientWallet": "Expected the customer's wallet, not the team's settlement wallet the refund is sent from",
    });
  return wallet.wallet;
}

/**
 * The transfer that proves the refund: the verdict's qualifying transfers (right token, right recipient, at
 * least the amount) narrowed to those paid out of the settlement wallet's own balance; otherwise the 409 or
 * 422 that says why. Signed by the wallet is not enough: on Solana the wallet may sign as an SPL delegate of
 * someone else's tokens, or get its tokens back within the transaction, and then the team's money never left.
 */
function provenFrom(verdict: PaymentVerdict, sender: string, terms: Pick<RefundTerms, "network">) {
  if (!verdict.ok) {
    if (RETRYABLE_REASONS.has(verdict.reason))
      throw apiError(
        "refund_not_final",
        `The refund transaction cannot be proven yet (${verdict.reason}: ${verdict.detail}); nothing was recorded, retry later`,
        undefined,
        { "retry-after": String(NOT_FINAL_RETRY_AFTER_SECONDS) },
      );
    throw apiError(refusalCode(verdict.reason), verdict.detail);
  }
  const signed = verdict.transfers.filter((t) => sameAddress(terms.network.family, t.payer, sender));
  const transfer: VerifiedTransfer | undefined = signed.find((t) => t.payerDebited);
  if (!transfer)
    throw apiError(
      "wrong_sender",
      signed.length > 0
        ? `The transfer was signed by the team's settlement wallet on ${terms.network.id} (${sender}) but not paid from its own balance`
        : `The transfer was not sent from the team's settlement wallet on ${terms.network.id} (${sender})`,
    );
  return { transfer, blockNumber: verdict.blockNumber };
}
