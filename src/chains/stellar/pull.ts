/**
 * One pull: `transfer_from(operator, payer, payee, amount)` on the token's SAC, sent by the operator with the
 * reference as the hash memo.
 *
 * Idempotency, by the sequence rule. Every attempt reads the operator's sequence number FIRST, then looks the
 * reference up through the ledger that read came from, then builds its transaction on that sequence number.
 * An earlier attempt with this reference either landed by then (the look-up finds it and nothing is sent),
 * or it has not: then it was built on a sequence number <= ours, and a Stellar account applies exactly one
 * transaction per sequence number, so at most one of the two can ever land. This holds across workers,
 * instances and lost answers, with no state outside the chain. Time bounds (validitySeconds) only make an
 * attempt's failure to land final within seconds, so a caller does not wait on a transaction that can
 * still appear.
 */
import { Account, type Memo, rpc } from "@stellar/stellar-sdk";
import type { ChainOperation } from "../subscription-types";
import { exclusive } from "./operator-lock";
import { referenceMemo } from "./reference";
import { findByReference } from "./reference-lookup";
import { refuse } from "./refusal";
import { assertNetwork, type StellarContext } from "./soroban-context";
import { sendAndWait } from "./soroban-send";
import { buildCall, SAC_ERROR, simulate } from "./soroban-simulate";
import { checkAllowance, readChainState } from "./soroban-state";

export interface PullRequest {
  amount: bigint;
  reference: Uint8Array;
  /** reported on the landed operation: the subscription token (the activation's reference) */
  tokenId: string;
}

export function pull(ctx: StellarContext, request: PullRequest): Promise<ChainOperation> {
  // One pull at a time per operator in this worker: they would only race each other for the sequence number.
  return exclusive(ctx.operator.publicKey(), () => attempts(ctx, request));
}

async function attempts(ctx: StellarContext, request: PullRequest): Promise<ChainOperation> {
  await assertNetwork(ctx);
  const memo = referenceMemo(request.reference);
  for (let attempt = 1; attempt <= ctx.timing.sendAttempts; attempt++) {
    const state = await readChainState(ctx);
    const landed = await findByReference(ctx, request.reference, { tokenId: request.tokenId, throughLedger: state.latestLedger });
    if (landed) return landed;
    checkAllowance(state, request.amount);
    const outcome = await sendOnce(ctx, request, memo, new Account(ctx.operator.publicKey(), state.sequence), state.closeTime);
    if (outcome) return outcome;
    await new Promise((resolve) => setTimeout(resolve, ctx.timing.pollIntervalMs));
  }
  refuse("rpc_unavailable", "The operator account is busy with other transactions; look the reference up before retrying");
}

/** Builds, simulates, signs and sends one transaction; null when it was superseded or expired unincluded. */
async function sendOnce(ctx: StellarContext, request: PullRequest, memo: Memo, source: Account, closeTime: number): Promise<ChainOperation | null> {
  // The network checks time bounds against its ledgers' close times, so they are set from the latest one: a
  // local clock running ahead or behind can neither expire a pull before it is sent nor keep it open longer.
  const maxTime = closeTime + ctx.timing.validitySeconds;
  const call = { fn: "transfer_from", spender: ctx.operator.publicKey(), from: ctx.payer, to: ctx.payee, amount: request.amount } as const;
  const tx = buildCall(ctx, call, { source, memo, maxTime });
  const simulated = await simulate(ctx, tx);
  if (!simulated.ok) return refuseSimulation(ctx, simulated.contractError);
  const prepared = rpc.assembleTransaction(tx, simulated.sim).build();
  prepared.sign(ctx.operator);
  const outcome = await sendAndWait(ctx, prepared, maxTime);
  if (outcome.kind !== "landed") return null;
  return { ok: true, txHash: outcome.hash, tokenId: request.tokenId, amount: request.amount, blockNumber: BigInt(outcome.ledger) };
}

/** Whose problem a refused simulation is, by the SAC's error number; nothing was sent. */
async function refuseSimulation(ctx: StellarContext, contractError: number | null): Promise<never> {
  if (contractError === SAC_ERROR.allowance) refuse("insufficient_allowance", "The payment account's remaining approval is lower than the charge");
  if (contractError === SAC_ERROR.balance) refuse("insufficient_balance", "The payment account's balance is lower than the charge");
  if (contractError === SAC_ERROR.deauthorized) refuse("reverted", "The asset's issuer has frozen an account of this transfer");
  if (contractError === SAC_ERROR.trustlineMissing) {
    // Missing on the payer's side (checked first by the SAC) or the payee's: ask the payer's balance.
    const payerSide = await simulate(ctx, buildCall(ctx, { fn: "balance", id: ctx.payer }, { source: new Account(ctx.operator.publicKey(), "0") }));
    if (!payerSide.ok && payerSide.contractError === SAC_ERROR.trustlineMissing) {
      refuse("insufficient_balance", "The payment account holds no balance of this token (no trustline)");
    }
    refuse("reverted", "The payee's account cannot hold this token (no trustline)");
  }
  refuse("reverted", "The token contract refused the transfer in simulation; nothing was sent");
}
