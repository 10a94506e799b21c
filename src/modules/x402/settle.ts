/**
 * Taking an x402 payment (docs/x402.md#verification-and-settlement), in this order, each step before any state
 * changes on failure:
 *   1. a claim of the same authorization answers from its record: the same request gets the same settlement (nothing
 *      settled or granted again), any other request, team or environment is a replay;
 *   2. the validity window against the clock; then the chain: the signature recovers the payer under the token's
 *      domain (or the payer's contract accepts it), the nonce is unspent, the balance covers the price;
 *   3. the authorization is claimed in our database (unique across every team), so concurrent requests carrying
 *      it never both reach the chain;
 *   4. the operator sends transferWithAuthorization and waits for the receipt;
 *   5. only then, in one transaction: the payment marked settled, the pack's credits granted (audited), and
 *      `payment.confirmed` emitted.
 * A settlement whose outcome was lost (the endpoint failed, the job timed out) keeps its claim; a retry of the same
 * request after the claim's lease completes it: the transaction that used the authorization is looked up on chain
 * and granted, or, when none landed, the authorization is sent again while it is valid and failed once it is not.
 * A refusal by the chain is looked up the same way (another sender may have landed the same authorization: it still
 * paid our payee exactly the price).
 */
import type { SettleResponse } from "@x402/core/types";
import type { Sql } from "../../db/client";
import type { ChainPool } from "../../chains/pool";
import type { X402Failure, X402Transfer } from "../../chains/x402-types";
import { newId } from "../../lib/ids";
import type { Tenant } from "../../lib/tenant";
import type { Actor } from "../audit/repo";
import { grantCreditsInTx } from "../entitlements/credits";
import { forgetCreditRefusal } from "../entitlements/repo";
import { emitEvent } from "../webhooks/emit";
import { settleResponse, windowProblem, type Offer, type Read, type ReadPayment, type X402Reason } from "./compute";
import type { CreditPackRow } from "../catalog/credit-packs/rows";
import { claimPayment, findPayment, markFailed, markSettled, reletClaim, releaseClaim, type AuthorizationKey } from "./repo";
import type { X402PaymentRow } from "./rows";
import { presentPayment } from "./present";

export interface SettleDeps {
  sql: Sql;
  pool: ChainPool;
  /** how long a claim belongs to the request that made it; after it, a retry of that request may complete it */
  leaseMs: number;
}

export interface PaymentAttempt {
  tenant: Tenant;
  actor: Actor;
  now: Date;
  companyId: string;
  pack: CreditPackRow;
  offer: Offer;
  payment: ReadPayment;
  /** the request that carries the payment (docs/x402.md#idempotency) */
  fingerprint: string;
  /** the metered use's idempotency key: its stored insufficient-credit refusal is forgotten with the grant */
  usageKey?: { source: "events" | "consume"; idempotencyKey: string };
}

/** The chain's refusal as the code PAYMENT-REQUIRED names. */
const CHAIN_REASONS: Record<X402Failure, X402Reason> = {
  nonce_used: "invalid_exact_evm_nonce_already_used",
  expired: "invalid_exact_evm_payload_authorization_valid_before",
  not_yet_valid: "invalid_exact_evm_payload_authorization_valid_after",
  invalid_signature: "invalid_exact_evm_payload_signature",
  insufficient_funds: "insufficient_funds",
  reverted: "invalid_transaction_state",
  not_configured: "unexpected_settle_error",
  rpc_unavailable: "unexpected_settle_error",
  timeout: "unexpected_settle_error",
  worker_crashed: "unexpected_settle_error",
};
/** Failures after which the transaction may have landed: the claim stays, and the payment is pending. */
const OUTCOME_UNKNOWN: ReadonlySet<X402Failure> = new Set(["rpc_unavailable", "timeout", "worker_crashed"]);

const refused = <T>(reason: X402Reason): Read<T> => ({ ok: false, reason });

const responseOf = (row: X402PaymentRow, attempt: PaymentAttempt): SettleResponse =>
  settleResponse({ txHash: row.tx_hash!, network: attempt.offer.network, payment: attempt.payment });

/** What a claim already made says about this attempt; a claim left unfinished past its lease is completed. */
async function answerFromClaim(
  deps: SettleDeps,
  row: X402PaymentRow,
  attempt: PaymentAttempt,
  transfer: X402Transfer,
): Promise<Read<SettleResponse>> {
  const { tenant, now } = attempt;
  const sameRequest = row.team_id === tenant.teamId && row.environment === tenant.environment && row.request_fingerprint === attempt.fingerprint;
  if (!sameRequest) return refused("invalid_exact_evm_nonce_already_used");
  if (row.status === "settled") return { ok: true, value: responseOf(row, attempt) };
  if (row.status === "failed") return refused((row.failure_reason as X402Reason) ?? "invalid_transaction_state");
  const cutoff = new Date(now.getTime() - deps.leaseMs);
  if (row.claimed_at > cutoff || !(await reletClaim(deps.sql, tenant, { id: row.id, cutoff, now }))) return refused("settlement_pending");
  const found = await deps.pool.x402({ op: "find", request: transfer });
  if (!found.ok) return refused("settlement_pending");
  if (found.landed) return grant(deps, attempt, { id: row.id, txHash: found.landed.txHash });
  // Spent, but not by a transaction we can find within the lookback: left to an operator, never sent again.
  if (found.nonceUsed) return refused("settlement_pending");
  const outside = windowProblem(transfer.authorization, Math.floor(now.getTime() / 1000));
  if (outside) {
    await markFailed(deps.sql, tenant, row.id, outside);
    return refused(outside);
  }
  return send(deps, attempt, { id: row.id, transfer });
}

/** The authorization's key across every team. */
const keyOf = ({ offer, payment }: PaymentAttempt): AuthorizationKey => ({
  network: offer.network.id,
  asset: offer.token.contract.toLowerCase(),
  payer: payment.authorization.from.toLowerCase(),
  nonce: payment.authorization.nonce.toLowerCase(),
});

export async function settlePayment(deps: SettleDeps, attempt: PaymentAttempt): Promise<Read<SettleResponse>> {
  const { payment, offer, tenant } = attempt;
  const auth = payment.authorization;
  const key = keyOf(attempt);
  const transfer: X402Transfer = { network: offer.network, token: offer.token, authorization: auth, signature: payment.signature };
  const before = await findPayment(deps.sql, key);
  if (before) return answerFromClaim(deps, before, attempt, transfer);
  const outside = windowProblem(auth, Math.floor(attempt.now.getTime() / 1000));
  if (outside) return refused(outside);
  const chain = await deps.pool.x402({ op: "check", request: transfer });
  if (!chain.ok) return refused("unexpected_verify_error");
  if (!chain.signatureValid) return refused("invalid_exact_evm_payload_signature");
  if (chain.nonceUsed) return refused("invalid_exact_evm_nonce_already_used");
  if (chain.balance < BigInt(auth.value)) return refused("insufficient_funds");
  const fields = {
    ...key,
    companyId: attempt.companyId,
    packId: attempt.pack.id,
    payTo: offer.requirement.payTo,
    amount: auth.value,
    credits: BigInt(attempt.pack.credits),
    requestFingerprint: attempt.fingerprint,
    version: payment.version,
  };
  const claimed = await claimPayment(deps.sql, tenant, { id: newId("x4p"), fields, now: attempt.now });
  if (!claimed) {
    const other = await findPayment(deps.sql, key);
    return other ? answerFromClaim(deps, other, attempt, transfer) : refused("settlement_pending");
  }
  return send(deps, attempt, { id: claimed.id, transfer });
}

/** Sends the claimed authorization and grants what landed; a definite refusal fails the claim, an unknown outcome keeps it. */
async function send(deps: SettleDeps, attempt: PaymentAttempt, claim: { id: string; transfer: X402Transfer }): Promise<Read<SettleResponse>> {
  const settled = await deps.pool.x402({ op: "settle", request: claim.transfer });
  if (settled.ok) return grant(deps, attempt, { id: claim.id, txHash: settled.txHash });
  if (OUTCOME_UNKNOWN.has(settled.reason)) return refused("settlement_pending");
  // Ours to fix (no operator key, no gas money), and nothing was sent: the payer's authorization stays usable.
  if (settled.reason === "not_configured") {
    await releaseClaim(deps.sql, attempt.tenant, claim.id);
    return refused("unexpected_settle_error");
  }
  if (settled.reason === "nonce_used" || settled.reason === "reverted") {
    const found = await deps.pool.x402({ op: "find", request: claim.transfer });
    if (!found.ok) return refused("settlement_pending");
    if (found.landed) return grant(deps, attempt, { id: claim.id, txHash: found.landed.txHash });
  }
  await markFailed(deps.sql, attempt.tenant, claim.id, CHAIN_REASONS[settled.reason]);
  return refused(CHAIN_REASONS[settled.reason]);
}

/** Another request completed the claim first (a retry past the lease beside a slow original): its grant stands alone. */
class NoLongerClaimed extends Error {}

async function grant(deps: SettleDeps, attempt: PaymentAttempt, landed: { id: string; txHash: string }): Promise<Read<SettleResponse>> {
  try {
    return { ok: true, value: responseOf(await grantSettled(deps.sql, attempt, landed), attempt) };
  } catch (error) {
    if (!(error instanceof NoLongerClaimed)) throw error;
    const row = await findPayment(deps.sql, keyOf(attempt));
    return row?.status === "settled" ? { ok: true, value: responseOf(row, attempt) } : refused("settlement_pending");
  }
}

/** The settlement's one transaction: the payment settled, the credits granted, the webhook queued. */
function grantSettled(sql: Sql, attempt: PaymentAttempt, settled: { id: string; txHash: string }): Promise<X402PaymentRow> {
  const { tenant, actor, now, pack } = attempt;
  return sql.begin(async (tx) => {
    const grant = await grantCreditsInTx({ tx, tenant, actor, now }, attempt.companyId, {
      amount: BigInt(pack.credits),
      reason: `x402 payment ${settled.id} (credit pack ${pack.key})`,
    });
    const row = await markSettled(tx, tenant, { id: settled.id, txHash: settled.txHash, creditGrantId: grant.id, now });
    if (row && attempt.usageKey) await forgetCreditRefusal(tx, tenant, { ...attempt.usageKey, companyId: attempt.companyId });
    if (!row) throw new NoLongerClaimed(`x402 payment ${settled.id} was no longer claimed when its settlement landed`);
    await emitEvent({ tx, tenant }, "payment.confirmed", { payment: presentPayment(row) }, { at: now });
    return row;
  }) as Promise<X402PaymentRow>;
}
