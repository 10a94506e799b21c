/**
 * Settling a checkout session with an on-chain payment:
 *   submit: check the hash and the session, refuse a transaction that already proved a payment, claim
 *           the transaction for this session (CONFIRMING), verify it in the chain worker pool;
 *   apply:  under the session's lock, turn the verdict into the next state. A proof records the payment
 *           (its unique key is the replay guard), marks the session PAID, grants what it bought and
 *           issues its PAID invoice, in one transaction. A refusal that time can change (not final, not found, endpoint down)
 *           leaves it CONFIRMING for the sweeper; any other refusal FAILS it with the reason.
 * The verdict is computed outside any transaction: chain calls never hold a database lock.
 */
import type { Sql } from "../../db/client";
import type { Db } from "../../db/queries";
import type { ChainPool } from "../../chains/pool";
import type { ChainRegistry } from "../../lib/networks";
import { HASH_FORMAT, hashOfNoFamily, normalizeTxHash, sameAddress } from "../../chains/addresses";
import { lockTransaction } from "../transaction-claims/repo";
import { RETRYABLE_REASONS, refuse, type ChainFamily, type NetworkConfig, type PaymentExpectation, type PaymentVerdict } from "../../chains/types";
import { apiError } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { recordAudit } from "../audit/repo";
import type { CheckoutSessionRow } from "./rows";
import { findCheckoutSession, insertPayment, lockCheckoutSession, paymentsOfTransaction, setSessionStatus, touchSession } from "./repo";
import type { Tenant } from "../../lib/tenant";
import type { OperationContext } from "../operation-context";
import { claim, closed, releaseClaim } from "./session-claim";
import { emitPaid, grantPurchase, invoiceOrLeave, lockPurchase, type InvoiceSession } from "./paid";

export interface SettlementDeps {
  sql: Sql;
  registry: ChainRegistry;
  pool: ChainPool;
  /** told after a commit that changed a company's entitlements, so this instance's cache drops it */
  companyChanged(tenant: Tenant, companyId: string): void;
  /**
   * Issues the PAID invoice of a session just paid, in the payment's transaction (src/modules/invoices/payments/checkout.ts,
   * wired in src/app-deps.ts: invoices build on payments, so payments reach them only through this hook).
   */
  invoiceSession: InvoiceSession;
}

export type SettleOutcome =
  | { kind: "paid"; session: CheckoutSessionRow }
  | { kind: "pending"; session: CheckoutSessionRow; reason: string; detail: string }
  | { kind: "failed"; session: CheckoutSessionRow }
  /** every qualifying transfer already proved another payment; the session is open again */
  | { kind: "replayed"; session: CheckoutSessionRow };

const replayed = () => apiError("payment_replayed", "This transaction already paid for a checkout session");

export async function submitPayment(
  deps: SettlementDeps,
  { tenant, actor, now }: Omit<OperationContext, "tx">,
  sessionId: string,
  rawHash: string,
): Promise<SettleOutcome> {
  // The hash on its own first: one no configured network could have is a 400, whatever the session's state.
  const malformed = hashOfNoFamily(deps.registry.list(), rawHash);
  if (malformed) throw apiError("validation_failed", "Validation failed", { "body.txHash": malformed });
  const found = await findCheckoutSession(deps.sql, tenant, sessionId);
  if (!found) throw apiError("not_found", `No checkout session ${sessionId}`);
  const network = deps.registry.get(found.network);
  if (!network) throw apiError("checkout_session_closed", `Network ${found.network} is no longer configured`);
  const txHash = normalizeTxHash(network.family, rawHash);
  if (!txHash) throw apiError("validation_failed", "Validation failed", { "body.txHash": `Expected ${HASH_FORMAT[network.family]}` });
  // A retry of the submission that paid the session answers as the first one did.
  if (found.status === "PAID" && found.tx_hash === txHash) return { kind: "paid", session: found };
  if ((await paymentsOfTransaction(deps.sql, network.id, txHash)).length > 0) {
    await releaseClaim(deps.sql, { tenant, now }, sessionId, txHash); // it was waiting on a transaction that paid elsewhere
    throw replayed();
  }
  await claim(deps.sql, { tenant, actor, now }, sessionId, txHash);
  const verdict = await deps.pool.verifyPayment(expectationOf(found, network, txHash));
  const outcome = await applyVerdict(deps, { tenant, actor, now }, sessionId, { txHash, verdict: bindToPayer(verdict, found, network.family) });
  if (outcome.kind === "replayed") throw replayed();
  return outcome;
}

/** What a session's transaction must prove on chain. */
export const expectationOf = (session: CheckoutSessionRow, network: NetworkConfig, txHash: string): PaymentExpectation => ({
  network,
  token: session.token,
  txHash,
  recipient: session.recipient_wallet,
  amount: BigInt(session.amount),
  memo: session.memo ?? undefined,
});

/**
 * A session that names its customerWallet is paid only from that wallet: without it, anyone who sees the
 * transaction on chain could submit it to their own session first. What this asks is who authorized the
 * transfer, not whose balance paid for it, so `payerDebited` is not required here (unlike refunds, which must
 * show the team's money left): the merchant received the amount either way, and the payer named is a wallet that
 * either paid (EVM's `from`, Stellar's source) or signed (Solana: the fee payer when no signer's own balance fell,
 * as for an SPL delegate's transfer), so a stranger still cannot pass someone else's payment off as their own.
 */
export function bindToPayer(verdict: PaymentVerdict, session: CheckoutSessionRow, family: ChainFamily): PaymentVerdict {
  if (!verdict.ok || !session.customer_wallet) return verdict;
  const expected = session.customer_wallet;
  const transfers = verdict.transfers.filter((t) => sameAddress(family, t.payer, expected));
  return transfers.length ? { ...verdict, transfers } : refuse("wrong_payer", "The payment was not sent from the session's customerWallet");
}

/** Applies a verdict to a session still waiting on that transaction; used by submit and by the sweeper. */
export async function applyVerdict(
  deps: SettlementDeps,
  { tenant, actor, now }: Omit<OperationContext, "tx">,
  sessionId: string,
  { txHash, verdict }: { txHash: string; verdict: PaymentVerdict },
): Promise<SettleOutcome> {
  const outcome = await deps.sql.begin(async (tx): Promise<SettleOutcome> => {
    // A proof may record a payment: the transaction's lock first, before the session's (src/modules/transaction-claims/repo.ts), so a
    // refund or invoice payment of this hash recorded at the same time waits or is seen. A session's network never
    // changes, so reading it unlocked is enough.
    const used = verdict.ok ? await lockTransaction(tx, (await findCheckoutSession(tx, tenant, sessionId))!.network, txHash) : null;
    const session = (await lockCheckoutSession(tx, tenant, sessionId))!;
    // Someone else moved it meanwhile (another submission, the sweeper, another instance): report as is.
    if (session.status !== "CONFIRMING" || session.tx_hash !== txHash) return current(session);
    if (!verdict.ok) {
      if (RETRYABLE_REASONS.has(verdict.reason)) {
        await touchSession(tx, tenant, sessionId, now);
        return { kind: "pending", session, reason: verdict.reason, detail: verdict.detail };
      }
      const failed = await setSessionStatus(tx, tenant, sessionId, {
        status: "FAILED",
        txHash,
        failureReason: verdict.reason,
        failureDetail: verdict.detail,
        at: now,
      });
      await recordAudit(tx, {
        ...tenant,
        actor,
        action: "checkout_session.fail",
        resourceType: "checkout_session",
        resourceId: sessionId,
        details: { txHash, reason: verdict.reason },
      });
      return { kind: "failed", session: failed };
    }
    const recorded = used === null ? await recordPayment(tx, tenant, session, txHash, verdict) : null;
    if (!recorded) {
      // Lost a race with another session paid by the same transfer (or a refund or invoice payment proven by it):
      // release the claim, nothing else changes.
      return { kind: "replayed", session: await setSessionStatus(tx, tenant, sessionId, { status: "PENDING", txHash: null, at: now }) };
    }
    const { transfer, payment } = recorded;
    const paid = await setSessionStatus(tx, tenant, sessionId, { status: "PAID", txHash, paidAt: now, customerWallet: transfer.payer, at: now });
    // Lock order: what the purchase writes, then the invoice (number counter, then audit chain), then the rest.
    await lockPurchase(tx, tenant, paid, now);
    const invoiceError = await invoiceOrLeave(deps.invoiceSession, { tx, tenant, actor, now }, paid, payment);
    await grantPurchase({ tx, tenant, actor, now }, paid);
    await emitPaid(tx, tenant, paid, now);
    await recordAudit(tx, {
      ...tenant,
      actor,
      action: "checkout_session.paid",
      resourceType: "checkout_session",
      resourceId: sessionId,
      details: { txHash, transferIndex: transfer.transferIndex, amount: transfer.amount.toString(), ...(invoiceError ? { invoiceError } : {}) },
    });
    return { kind: "paid", session: paid };
  });
  if (outcome.kind === "paid" && outcome.session.company_id && outcome.session.purpose !== "PAYMENT")
    deps.companyChanged(tenant, outcome.session.company_id);
  return outcome;
}

function current(session: CheckoutSessionRow): SettleOutcome {
  if (session.status === "PAID") return { kind: "paid", session };
  if (session.status === "CONFIRMING") return { kind: "pending", session, reason: "not_final", detail: "Verification is in progress" };
  if (session.status === "FAILED") return { kind: "failed", session };
  throw closed(session);
}

/**
 * Records the transaction's first qualifying transfer as the session's payment (returns the transfer and
 * the payment row); null when the transaction already paid a session. Payments are unique per transaction (migration 00008), the same
 * rule as the PAID index on checkout_sessions, so two sessions claiming one transaction collide here,
 * where the loser is told `payment_replayed`, and never later on that index with a generic 409.
 */
async function recordPayment(tx: Db, tenant: Tenant, session: CheckoutSessionRow, txHash: string, verdict: Extract<PaymentVerdict, { ok: true }>) {
  const transfer = verdict.transfers[0]!;
  const id = newId("pay");
  const row = await insertPayment(tx, tenant, {
    id,
    sessionId: session.id,
    network: session.network,
    txHash,
    transferIndex: transfer.transferIndex,
    amount: transfer.amount,
    tokenSymbol: session.token_symbol,
    payer: transfer.payer,
    blockNumber: verdict.blockNumber,
    blockHash: verdict.blockHash,
  });
  return row ? { transfer, payment: { id, amount: transfer.amount, payer: transfer.payer } } : null;
}
