/**
 * One operator call (subscribe, charge, revoke) from reference to landed operation:
 *  1. the reference is looked up first: a used one returns the operation that used it, and nothing is sent;
 *  2. the call is simulated as the operator, so a payer-side refusal (no authorization, over the allowance, short
 *     balance, revoked) is answered without a transaction;
 *  3. it is sent with the operator's next nonce (operator.ts) and its receipt awaited; a reverted receipt is
 *     `reverted`, unless the reference landed meanwhile through a twin call, which is then the answer. A node
 *     refusing it because the operator cannot pay the gas is `not_configured`: ours to fix, and nothing was sent.
 */
import { encodeFunctionData, parseEventLogs, type Hex, type PublicClient, type TransactionReceipt } from "viem";
import type { PrivateKeyAccount } from "viem/accounts";
import { refuseOperation, type ChainOperation, type OperationResult } from "../subscription-types";
import type { consentStruct } from "./consent";
import { sendAsOperator } from "./operator";
import { landReceipt, throwUnlessUnfunded } from "./receipt";
import { SUBSCRIPTIONS_ABI } from "./subscription-contract";
import { classifyTokenRefusal, DECODING_ABI, readRevert } from "./subscription-errors";
import { findOperation, KIND, type Parties } from "./subscription-reads";

export interface Ready {
  client: PublicClient;
  rpcUrl: string;
  chainId: number;
  parties: Parties;
  operator: PrivateKeyAccount;
}

export type Call =
  | { functionName: "subscribe"; args: readonly [ReturnType<typeof consentStruct>, Hex, bigint, Hex]; amount: bigint }
  | { functionName: "charge"; args: readonly [bigint, bigint, Hex]; amount: bigint; tokenId: bigint }
  | { functionName: "revoke"; args: readonly [bigint, Hex]; amount: 0n; tokenId: bigint };

const EVENT = { subscribe: "Subscribed", charge: "Charged", revoke: "Revoked" } as const;
// Estimates are exact for the state they ran on; a little headroom covers a window or a storage slot changing first.
const GAS_HEADROOM = (gas: bigint) => (gas * 12n) / 10n;

/** The landed operation of `ref`, if any, provided it is this call's kind (and subscription). */
async function landedBefore(ready: Ready, ref: Hex, call: Call): Promise<OperationResult | null> {
  const found = await findOperation(ready.client, ready.parties.contract, ref);
  if (!found) return null;
  const { kind, ...operation } = found;
  const sameSubscription = !("tokenId" in call) || operation.tokenId === call.tokenId.toString();
  if (kind !== KIND[call.functionName] || !sameSubscription)
    return refuseOperation("reverted", "The reference was already used by another subscription operation");
  return operation;
}

/** Why the simulation refused, as a verdict; endpoint failures are rethrown for the adapter's catch-all. */
async function refusal(ready: Ready, ref: Hex, call: Call, error: unknown): Promise<OperationResult> {
  const refused = readRevert(error);
  switch (refused.kind) {
    case "refusal":
      return refused.refusal;
    case "ref_used":
      return (await landedBefore(ready, ref, call)) ?? refuseOperation("reverted", "The reference is used on chain but its operation was not found");
    case "token_refused": {
      const { token, payer, contract } = ready.parties;
      return classifyTokenRefusal(ready.client, { token, payer, spender: contract, amount: call.amount });
    }
    case "rpc":
      return throwUnlessUnfunded(error);
  }
}

function fromReceipt(ready: Ready, ref: Hex, call: Call, receipt: TransactionReceipt): ChainOperation {
  const logs = parseEventLogs({ abi: SUBSCRIPTIONS_ABI, eventName: EVENT[call.functionName], logs: receipt.logs }).filter(
    (log) => log.address.toLowerCase() === ready.parties.contract.toLowerCase() && (log.args as { ref: Hex }).ref === ref,
  );
  const args = logs[0]?.args as { tokenId: bigint } | undefined;
  if (!args) throw new Error("the receipt carries no event for the reference");
  return { ok: true, txHash: receipt.transactionHash, tokenId: args.tokenId.toString(), amount: call.amount, blockNumber: receipt.blockNumber };
}

export async function operate(ready: Ready, ref: Hex, call: Call): Promise<OperationResult> {
  const before = await landedBefore(ready, ref, call);
  if (before) return before;
  const { client, operator } = ready;
  const contractCall = { address: ready.parties.contract, abi: DECODING_ABI, functionName: call.functionName, args: call.args } as const;
  let gas: bigint;
  try {
    await client.simulateContract({ ...contractCall, account: operator } as Parameters<PublicClient["simulateContract"]>[0]);
    // Estimating runs the call again on a newer state (a twin call may have landed): its revert is read the same way.
    gas = await client.estimateContractGas({ ...contractCall, account: operator } as Parameters<PublicClient["estimateContractGas"]>[0]);
  } catch (error) {
    return refusal(ready, ref, call, error);
  }
  const fees = await client.estimateFeesPerGas();
  const data = encodeFunctionData(contractCall as Parameters<typeof encodeFunctionData>[0]);
  const receipt = await landReceipt(client, () =>
    sendAsOperator(ready, operator, {
      to: ready.parties.contract,
      data,
      gas: GAS_HEADROOM(gas),
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    }),
  );
  if ("ok" in receipt) return receipt;
  if (receipt.status === "success") return fromReceipt(ready, ref, call, receipt);
  return (await landedBefore(ready, ref, call)) ?? refuseOperation("reverted", "The transaction reverted on chain");
}
