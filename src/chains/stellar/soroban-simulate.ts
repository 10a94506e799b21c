/**
 * simulateTransaction: how Soroban answers read-only calls (allowance, balance) and prices a write
 * (transfer_from) before it is signed. A simulation that fails carries the host error as text, e.g.
 * "HostError: Error(Contract, #10)"; for the SAC the number is its ContractError (soroban-env-host
 * builtin_contracts/contract_error.rs), which is what says whose problem a refused pull is.
 */
import { Account, BASE_FEE, rpc, scValToBigInt, type Transaction, TransactionBuilder, type Memo } from "@stellar/stellar-sdk";
import { refuse } from "./refusal";
import { sacOperation, type SacCall } from "./sac";
import type { StellarContext } from "./soroban-context";

/** The SAC's error numbers the subscription flows tell apart. */
export const SAC_ERROR = { allowance: 9, balance: 10, deauthorized: 11, trustlineMissing: 13 } as const;

export type Simulated = { ok: true; sim: rpc.Api.SimulateTransactionSuccessResponse } | { ok: false; contractError: number | null };

export interface CallTransaction {
  /** the operator's account with its current sequence number; read-only calls use sequence 0 (never sent) */
  source: Account;
  memo?: Memo;
  /** unix seconds; 0 means no upper time bound */
  maxTime?: number;
}

export function buildCall(ctx: StellarContext, call: SacCall, tx: CallTransaction): Transaction {
  const builder = new TransactionBuilder(tx.source, {
    fee: BASE_FEE,
    networkPassphrase: ctx.passphrase,
    timebounds: { minTime: 0, maxTime: tx.maxTime ?? 0 },
    ...(tx.memo ? { memo: tx.memo } : {}),
  });
  return builder.addOperation(sacOperation(ctx.contractId, call)).build();
}

export async function simulate(ctx: StellarContext, tx: Transaction): Promise<Simulated> {
  const sim = await ctx.server.simulateTransaction(tx);
  // A restore preamble means an archived entry (a balance left untouched for months): the pull cannot go
  // through until someone restores it, which is the payer's account state.
  if (rpc.Api.isSimulationRestore(sim)) refuse("insufficient_balance", "The payment account's token balance is archived and must be restored first");
  if (rpc.Api.isSimulationSuccess(sim)) return { ok: true, sim };
  return { ok: false, contractError: rpc.Api.isSimulationError(sim) ? contractErrorOf(sim.error) : null };
}

/** `Error(Contract, #N)` -> N; null for host errors that are not the contract's own (budget, storage, ...). */
export function contractErrorOf(error: string): number | null {
  const match = /Error\(Contract, #(\d+)\)/.exec(error);
  return match ? Number(match[1]) : null;
}

/**
 * A read-only i128 call (allowance, balance) simulated from the operator's account. The SAC answers an
 * account with no trustline for the asset with TrustlineMissing: for a balance that is zero.
 */
export async function readAmount(ctx: StellarContext, call: Extract<SacCall, { fn: "allowance" | "balance" }>): Promise<bigint> {
  const tx = buildCall(ctx, call, { source: new Account(ctx.operator.publicKey(), "0") });
  const simulated = await simulate(ctx, tx);
  if (simulated.ok) {
    const retval = simulated.sim.result?.retval;
    if (retval?.type !== "scvI128") throw new TypeError(`${call.fn} did not return an i128`);
    return scValToBigInt(retval);
  }
  if (call.fn === "balance" && simulated.contractError === SAC_ERROR.trustlineMissing) return 0n;
  throw new TypeError(`${call.fn} simulation failed`);
}
