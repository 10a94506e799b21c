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
 */
import type { SettleResponse } from "@x402/core/types";
import type { Sql } from "../../db/client";
import type { ChainPool } from "../../chains/pool";
import type { X402Failure, X402Transfer } from "../../chains/x402-types";
import { newId } from "../../lib/ids";
import type { Tenant } from "../../lib/tenant";
import type { Actor } from "../audit/repo";
import { grantCreditsInTx } from "../entitlements/credits";
import { emitEvent } from "../webhooks/emit";
import { settleResponse, windowProblem, type Offer, type Read, type ReadPayment, type X402Reason } from "./compute";
import type { CreditPackRow } from "../catalog/credit-packs/rows";
import { claimPayment, findPayment, markFailed, markSettled, type AuthorizationKey } from "./repo";
import type { X402PaymentRow } from "./rows";
import { presentPayment } from "./present";

export interface SettleDeps {
  sql: Sql;
  pool: ChainPool;
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
  settleResponse({ txHash: row.tx_hash!, network: attempt.offer.network, payer: attempt.payment.authorization.from });

/** What a claim already made says about this attempt. */
function answerFromClaim(row: X402PaymentRow, attempt: PaymentAttempt): Read<SettleResponse> {
  const { tenant } = attempt;
  const sameRequest = row.team_id === tenant.teamId && row.environment === tenant.environment && row.request_fingerprint === attempt.fingerprint;
  if (!sameRequest) return refused("invalid_exact_evm_nonce_already_used");
  if (row.status === "settled") return { ok: true, value: responseOf(row, attempt) };
  if (row.status === "claimed") return refused("settlement_pending");
  return refused((row.failure_reason as X402Reason) ?? "invalid_transaction_state");
}

export async function settlePayment(deps: SettleDeps, attempt: PaymentAttempt): Promise<Read<SettleResponse>> {
  const { payment, offer, tenant } = attempt;
  const auth = payment.authorization;
  const key: AuthorizationKey = {
    network: offer.network.id,
    asset: offer.token.contract.toLowerCase(),
    payer: auth.from.toLowerCase(),
    nonce: auth.nonce.toLowerCase(),
  };
  const before = await findPayment(deps.sql, key);
  if (before) return answerFromClaim(before, attempt);
  const outside = windowProblem(auth, Math.floor(attempt.now.getTime() / 1000));
  if (outside) return refused(outside);
  const transfer: X402Transfer = { network: offer.network, token: offer.token, authorization: auth, signature: payment.signature };
  const chain = await deps.pool.x402({ op: "check", request: transfer });
  if (!chain.ok) return refused(CHAIN_REASONS[chain.reason]);
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
    return other ? answerFromClaim(other, attempt) : refused("settlement_pending");
  }
  const settled = await deps.pool.x402({ op: "settle", request: transfer });
  if (!settled.ok) {
    if (!OUTCOME_UNKNOWN.has(settled.reason)) await markFailed(deps.sql, tenant, claimed.id, CHAIN_REASONS[settled.reason]);
    return refused(OUTCOME_UNKNOWN.has(settled.reason) ? "settlement_pending" : CHAIN_REASONS[settled.reason]);
  }
  const row = await grantSettled(deps.sql, attempt, { id: claimed.id, txHash: settled.txHash });
  return { ok: true, value: responseOf(row, attempt) };
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
    if (!row) throw new Error(`x402 payment ${settled.id} was no longer claimed when its settlement landed`);
    await emitEvent({ tx, tenant }, "payment.confirmed", { payment: presentPayment(row, attempt.offer) }, { at: now });
    return row;
  }) as Promise<X402PaymentRow>;
}
