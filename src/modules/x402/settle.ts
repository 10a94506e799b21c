/**
 * Taking an x402 payment (docs/x402.md#verification-and-settlement), in this order, each step before any state
 * changes on failure:
 *   1. a claim of the same authorization answers from its record, whatever is offered now: the same request
 *      (team, environment, company, method, path, body) gets the same settlement (nothing settled or granted again),
 *      any other request, company, team or environment is a replay;
 *   2. the validity window against the clock; then the chain: the signature recovers the payer under the token's
 *      domain (or the payer's contract accepts it), the nonce is unspent, the balance covers the price;
 *   3. the authorization is claimed in our database (unique across every team), so concurrent requests carrying
 *      it never both reach the chain;
 *   4. the operator sends transferWithAuthorization and waits for the receipt;
 *   5. only then, in one transaction: the payment marked settled with the Transfer that paid it, the claim's credits
 *      granted to the claim's company (audited), and `payment.confirmed` emitted.
 * A settlement whose outcome was lost (the endpoint failed, the job timed out) keeps its claim; after the claim's
 * lease, the same request's retry or the x402.reconcile job (jobs.ts) completes it from the chain: the transaction
 * where this authorization's own Transfer landed is granted; when none landed, a retry sends the authorization again
 * while it is valid, and it is failed once it is not. What is granted is always the claim's: its company, its pack's
 * credits, never the asking request's.
 */
import type { SettleResponse } from "@x402/core/types";
import type { Sql } from "../../db/client";
import type { ChainPool } from "../../chains/pool";
import type { X402Failure, X402Landed, X402Transfer } from "../../chains/x402-types";
import { newId } from "../../lib/ids";
import { findToken, type ChainRegistry } from "../../lib/networks";
import type { Tenant } from "../../lib/tenant";
import type { Actor } from "../audit/repo";
import { grantCreditsInTx } from "../entitlements/credits";
import { forgetCreditRefusal } from "../entitlements/repo";
import { emitEvent } from "../webhooks/emit";
import { caip2, refused, sameAddress, settleResponse, windowProblem, type Offer, type Read, type ReadPayment, type X402Reason } from "./compute";
import type { CreditPackRow } from "../catalog/credit-packs/rows";
import { claimPayment, findPayments, markFailed, markSettled, reletClaim, releaseClaim } from "./repo";
import type { X402PaymentRow } from "./rows";
import { presentPayment } from "./present";

export interface SettleDeps {
  sql: Sql;
  pool: ChainPool;
  registry: ChainRegistry;
  /** how long a claim belongs to the request that made it; after it, a retry or x402.reconcile may complete it */
  leaseMs: number;
}

/** Who records a grant, and when; the metered use's idempotency key, whose stored insufficient-credit refusal the grant forgets. */
export interface GrantContext {
  actor: Actor;
  now: Date;
  usageKey?: { source: "events" | "consume"; idempotencyKey: string };
}

/** The request carrying a payment: what a claim of its authorization is compared with. */
export interface PaymentContext extends GrantContext {
  tenant: Tenant;
  companyId: string;
  payment: ReadPayment;
  /** the request that carries the payment (docs/x402.md#idempotency) */
  fingerprint: string;
}

/** A payment of the offer it matched, with no claim yet. */
export interface PaymentAttempt extends PaymentContext {
  pack: CreditPackRow;
  offer: Offer;
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

const PENDING = refused<never>("settlement_pending");

const tenantOf = (row: X402PaymentRow): Tenant => ({ teamId: row.team_id, environment: row.environment as Tenant["environment"] });

/** The PAYMENT-RESPONSE of a settled claim, naming the network as the payment did. */
function responseOf(registry: ChainRegistry, row: X402PaymentRow, payment: ReadPayment): Read<SettleResponse> {
  const network = registry.get(row.network);
  return network ? { ok: true, value: settleResponse({ txHash: row.tx_hash!, network, payment }) } : PENDING;
}

/** The claim `payment`'s authorization already has (by payer and nonce, on the network and token it names), or null. */
export async function findClaim(deps: { sql: Sql; registry: ChainRegistry }, payment: ReadPayment): Promise<X402PaymentRow | null> {
  const { from, nonce } = payment.authorization;
  const rows = await findPayments(deps.sql, { payer: from.toLowerCase(), nonce: nonce.toLowerCase() });
  const onNetwork = (row: X402PaymentRow) => {
    const network = deps.registry.get(row.network);
    return row.network === payment.network || (network?.chainId != null && caip2(network) === payment.network);
  };
  return rows.find((row) => onNetwork(row) && (!payment.accepted || sameAddress(payment.accepted.asset, row.asset))) ?? null;
}

/** The claim's authorization on its network and token, signed as `signed` (the signature matters only to a send). */
export function transferOf(registry: ChainRegistry, row: X402PaymentRow, signed: { validAfter: string; signature: string }): X402Transfer | null {
  const network = registry.get(row.network);
  const token = network && findToken(network, row.asset);
  if (!network || !token) return null;
  const authorization = {
    from: row.payer,
    to: row.pay_to,
    value: String(row.amount),
    validAfter: signed.validAfter,
    validBefore: String(row.valid_before),
    nonce: row.nonce,
  };
  return { network, token, authorization, signature: signed.signature };
}

/**
 * What a claim already made says about this request: the same request is answered from it (and completes it past
 * its lease, against the claim, not today's offer); anything else is a replay.
 */
export async function answerFromClaim(deps: SettleDeps, row: X402PaymentRow, ctx: PaymentContext): Promise<Read<SettleResponse>> {
  const { tenant, now, payment } = ctx;
  const auth = payment.authorization;
  const sameRequest =
    row.team_id === tenant.teamId &&
    row.environment === tenant.environment &&
    row.company_id === ctx.companyId &&
    row.request_fingerprint === ctx.fingerprint &&
    sameAddress(auth.to, row.pay_to) &&
    BigInt(auth.value) === BigInt(row.amount) &&
    BigInt(auth.validBefore) === BigInt(row.valid_before);
  if (!sameRequest) return refused("invalid_exact_evm_nonce_already_used");
  if (row.status === "settled") {
    // Granted without this request (x402.reconcile holds no idempotency key): the refusal stored under its key must
    // not answer the use the payment bought. After the request's own grant, it only has the use decided again.
    if (ctx.usageKey) await forgetCreditRefusal(deps.sql, tenant, { ...ctx.usageKey, companyId: row.company_id });
    return responseOf(deps.registry, row, payment);
  }
  if (row.status === "failed") return refused((row.failure_reason as X402Reason) ?? "invalid_transaction_state");
  const cutoff = new Date(now.getTime() - deps.leaseMs);
  if (row.claimed_at > cutoff || !(await reletClaim(deps.sql, tenant, { id: row.id, cutoff, now }))) return PENDING;
  const transfer = transferOf(deps.registry, row, { validAfter: auth.validAfter, signature: payment.signature });
  if (!transfer) return PENDING;
  const done = await fromChain(deps, row, ctx, transfer);
  const settled = done === "unsent" ? await send(deps, row, ctx, transfer) : done;
  return settled.ok ? responseOf(deps.registry, settled.value, payment) : settled;
}

/**
 * A claim whose outcome was lost, completed from the chain: the transaction where its authorization's own Transfer
 * landed is granted; an authorization spent otherwise stays claimed for an operator (never sent again); one unspent
 * and expired is failed; "unsent" when it is unspent and still valid.
 */
export async function fromChain(
  deps: SettleDeps,
  row: X402PaymentRow,
  ctx: GrantContext,
  transfer: X402Transfer,
): Promise<Read<X402PaymentRow> | "unsent"> {
  const found = await deps.pool.x402({ op: "find", request: transfer });
  if (!found.ok) return PENDING;
  if (found.landed) return grant(deps, row, ctx, found.landed);
  if (found.nonceUsed) return PENDING;
  const outside = windowProblem(transfer.authorization, Math.floor(ctx.now.getTime() / 1000));
  if (!outside) return "unsent";
  await markFailed(deps.sql, tenantOf(row), row.id, outside);
  return refused(outside);
}

export async function settlePayment(deps: SettleDeps, attempt: PaymentAttempt): Promise<Read<SettleResponse>> {
  const { payment, offer, tenant } = attempt;
  const auth = payment.authorization;
  const transfer: X402Transfer = { network: offer.network, token: offer.token, authorization: auth, signature: payment.signature };
  const outside = windowProblem(auth, Math.floor(attempt.now.getTime() / 1000));
  if (outside) return refused(outside);
  const chain = await deps.pool.x402({ op: "check", request: transfer });
  if (!chain.ok) return refused("unexpected_verify_error");
  if (!chain.signatureValid) return refused("invalid_exact_evm_payload_signature");
  if (chain.nonceUsed) return refused("invalid_exact_evm_nonce_already_used");
  if (chain.balance < BigInt(auth.value)) return refused("insufficient_funds");
  const fields = {
    network: offer.network.id,
    asset: offer.token.contract.toLowerCase(),
    payer: auth.from.toLowerCase(),
    nonce: auth.nonce.toLowerCase(),
    companyId: attempt.companyId,
    packId: attempt.pack.id,
    payTo: offer.requirement.payTo,
    amount: auth.value,
    validBefore: auth.validBefore,
    credits: BigInt(attempt.pack.credits),
    requestFingerprint: attempt.fingerprint,
    version: payment.version,
  };
  const claimed = await claimPayment(deps.sql, tenant, { id: newId("x4p"), fields, now: attempt.now });
  if (!claimed) {
    // A concurrent request claimed it between our look and our insert.
    const other = await findClaim(deps, payment);
    return other ? answerFromClaim(deps, other, attempt) : PENDING;
  }
  const settled = await send(deps, claimed, attempt, transfer);
  return settled.ok ? responseOf(deps.registry, settled.value, payment) : settled;
}

/** Sends the claimed authorization and grants what landed; a definite refusal fails the claim, an unknown outcome keeps it. */
async function send(deps: SettleDeps, row: X402PaymentRow, ctx: GrantContext, transfer: X402Transfer): Promise<Read<X402PaymentRow>> {
  const tenant = tenantOf(row);
  const settled = await deps.pool.x402({ op: "settle", request: transfer });
  if (settled.ok) return grant(deps, row, ctx, settled);
  if (OUTCOME_UNKNOWN.has(settled.reason)) return PENDING;
  // Ours to fix (no operator key, no gas money), and nothing was sent: the payer's authorization stays usable.
  if (settled.reason === "not_configured") {
    await releaseClaim(deps.sql, tenant, row.id);
    return refused("unexpected_settle_error");
  }
  // Another sender may have landed the same authorization: its own Transfer still paid our payee exactly the price.
  if (settled.reason === "nonce_used" || settled.reason === "reverted") {
    const found = await deps.pool.x402({ op: "find", request: transfer });
    if (!found.ok) return PENDING;
    if (found.landed) return grant(deps, row, ctx, found.landed);
  }
  await markFailed(deps.sql, tenant, row.id, CHAIN_REASONS[settled.reason]);
  return refused(CHAIN_REASONS[settled.reason]);
}

/** Another request completed the claim first (a retry past the lease beside a slow original): its grant stands alone. */
class NoLongerClaimed extends Error {}

const isUniqueViolation = (error: unknown) => typeof error === "object" && error !== null && (error as { code?: string }).code === "23505";

async function grant(deps: SettleDeps, row: X402PaymentRow, ctx: GrantContext, landed: X402Landed): Promise<Read<X402PaymentRow>> {
  try {
    return { ok: true, value: await grantSettled(deps.sql, row, ctx, landed) };
  } catch (error) {
    // The Transfer already paid another payment (x402_payments_transfer): nothing more is granted; left to an operator.
    if (isUniqueViolation(error)) return PENDING;
    if (!(error instanceof NoLongerClaimed)) throw error;
    const now = (await findPayments(deps.sql, row)).find((r) => r.id === row.id);
    return now?.status === "settled" ? { ok: true, value: now } : PENDING;
  }
}

/** The settlement's one transaction: the payment settled with its Transfer, the claim's credits granted to the claim's company, the webhook queued. */
function grantSettled(sql: Sql, row: X402PaymentRow, ctx: GrantContext, landed: X402Landed): Promise<X402PaymentRow> {
  const { actor, now } = ctx;
  const tenant = tenantOf(row);
  return sql.begin(async (tx) => {
    const grant = await grantCreditsInTx({ tx, tenant, actor, now }, row.company_id, {
      amount: BigInt(row.credits),
      reason: `x402 payment ${row.id} (credit pack ${row.pack_id})`,
    });
    const settled = await markSettled(tx, tenant, { id: row.id, txHash: landed.txHash, logIndex: landed.logIndex, creditGrantId: grant.id, now });
    if (!settled) throw new NoLongerClaimed(`x402 payment ${row.id} was no longer claimed when its settlement landed`);
    if (ctx.usageKey) await forgetCreditRefusal(tx, tenant, { ...ctx.usageKey, companyId: row.company_id });
    await emitEvent({ tx, tenant }, "payment.confirmed", { payment: presentPayment(settled) }, { at: now });
    return settled;
  }) as Promise<X402PaymentRow>;
}
