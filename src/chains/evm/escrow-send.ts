/**
 * One operator call to the escrow contract, from request to landed change, in the order subscription-send.ts uses:
 *  1. the reservation is read first: already in the action's target status, the action landed (before, or through a
 *     twin call) and nothing is sent; in a status the action cannot start from, it is refused without a transaction;
 *  2. the call is simulated as the operator, so a refusal (signature, expiry, window, balance, approval) is answered
 *     without a transaction (unless a twin call landed meanwhile: read again, that is the answer);
 *  3. it is sent with the operator's next nonce (operator.ts) and its receipt awaited; a reverted receipt is read
 *     again: the target reached meanwhile is the answer, else `reverted`.
 */
import { BaseError, ContractFunctionRevertedError, encodeFunctionData, parseAbi, type Hex, type PublicClient } from "viem";
import type { PrivateKeyAccount } from "viem/accounts";
import { refuseEscrow, TARGET_STATUS, type ChainReservation, type EscrowAction, type EscrowFailure, type EscrowResult } from "../escrow-types";
import { escrowConsentStruct } from "./escrow-consent";
import { ESCROW_ABI } from "./escrow-contract";
import { readReservation, transitionTx } from "./escrow-reads";
import { sendAsOperator } from "./operator";
import { waitForReceipt } from "./receipt";
import { classifyTokenRefusal, operatorCannotPayGas } from "./subscription-errors";

export interface EscrowReady {
  client: PublicClient;
  rpcUrl: string;
  chainId: number;
  contract: Hex;
  operator: PrivateKeyAccount;
}

const DECODING_ABI = [
  ...ESCROW_ABI,
  ...parseAbi([
    "error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)",
    "error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed)",
  ]),
] as const;

const CONTRACT_ERRORS: Record<string, [EscrowFailure, string]> = {
  InvalidSignature: ["consent_invalid", "The payer's account does not accept the consent's signature"],
  InvalidConsent: ["consent_invalid", "The consent cannot be reserved (no amount, payee or token, or its window already ended)"],
  ConsentExpired: ["consent_expired", "The consent's deadline has passed"],
  ReservationExists: ["nonce_used", "The request nonce already holds a reservation for this payee"],
  NotAuthorized: ["wrong_status", "The reservation is not authorized (none under this nonce, or already captured, disputed or refunded)"],
  NotDisputed: ["wrong_status", "The reservation is not disputed"],
  WindowOpen: ["window_open", "The reservation's challenge window has not ended"],
  WindowClosed: ["window_closed", "The reservation's challenge window has ended"],
  NoEarlyCapture: ["no_early_capture", "The payer's consent named no delivery provider: the reservation is captured after its window only"],
  NotOperator: ["not_configured", "The configured operator key is not the escrow contract's operator"],
  NotPayerOrOperator: ["not_configured", "The configured operator key is not the escrow contract's operator"],
  ERC20InsufficientBalance: ["insufficient_balance", "The payer's token balance does not cover the amount"],
  ERC20InsufficientAllowance: ["insufficient_allowance", "The payer's approval of the escrow contract does not cover the amount"],
};

/** From which statuses each action may start (the contract's rules), for a refusal without a transaction. */
const STARTS_FROM: Record<EscrowAction["action"], string> = {
  reserve: "none",
  capture: "authorized",
  captureEarly: "authorized",
  dispute: "authorized",
  resolve: "disputed",
};

function call(key: Hex, a: EscrowAction): { functionName: string; args: readonly unknown[] } {
  switch (a.action) {
    case "reserve":
      return { functionName: "reserve", args: [escrowConsentStruct(a.consent), a.signature as Hex] };
    case "capture":
      return { functionName: "capture", args: [key] };
    case "captureEarly":
      return { functionName: "captureEarly", args: [key, a.proof as Hex] };
    case "dispute":
      return { functionName: "dispute", args: [key, a.reasonHash as Hex] };
    case "resolve":
      return { functionName: "resolve", args: [key, a.refund] };
  }
}

/** Why an action cannot start from a status, in our words (the chain's status names stay out of the answer). */
function wrongStart(a: EscrowAction, status: ChainReservation["status"]): EscrowResult {
  if (a.action === "reserve") return refuseEscrow("nonce_used", "The request nonce already holds a reservation for this payee");
  if (status === "none") return refuseEscrow("wrong_status", "The escrow contract holds no reservation under this nonce");
  if (a.action === "resolve") return refuseEscrow("wrong_status", "The reservation is not disputed");
  return refuseEscrow("wrong_status", "The reservation is no longer authorized (already captured, disputed or refunded)");
}

/** A reservation already in the action's target: the action landed. A reserve must also match the consent's terms. */
function landed(a: EscrowAction, r: ChainReservation): boolean {
  if (r.status !== TARGET_STATUS(a)) return false;
  if (a.action !== "reserve") return true;
  const c = a.consent;
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  return (
    same(r.payer, c.payer) &&
    same(r.payee, c.payee) &&
    same(r.token, c.token) &&
    r.amount === c.amount &&
    r.windowEnd === c.windowEnd &&
    same(r.deliveryProvider, c.deliveryProvider)
  );
}

async function readBack(ready: EscrowReady, key: Hex): Promise<{ reservation: ChainReservation; txHash: Hex | null }> {
  const reservation = await readReservation(ready.client, ready.contract, key);
  return { reservation, txHash: await transitionTx(ready.client, ready.contract, key, reservation) };
}

async function refusal(ready: EscrowReady, a: EscrowAction, error: unknown): Promise<EscrowResult> {
  const revert = error instanceof BaseError ? error.walk((e) => e instanceof ContractFunctionRevertedError) : null;
  if (!(revert instanceof ContractFunctionRevertedError)) {
    const unfunded = operatorCannotPayGas(error);
    if (unfunded) return refuseEscrow("not_configured", "The escrow operator's account has too little of the network's native coin to pay for gas");
    throw error; // the endpoint failed: the adapter's catch-all answers rpc_unavailable
  }
  const name = revert.data?.errorName;
  const known = name ? CONTRACT_ERRORS[name] : undefined;
  if (known) return refuseEscrow(known[0], known[1]);
  if (a.action === "reserve") {
    // A token that refused without a decodable reason: the payer's balance and approval tell.
    const c = a.consent;
    const t = await classifyTokenRefusal(ready.client, { token: c.token as Hex, payer: c.payer as Hex, spender: ready.contract, amount: c.amount });
    if (t.reason === "insufficient_balance" || t.reason === "insufficient_allowance") return refuseEscrow(t.reason, t.detail);
  }
  return refuseEscrow("reverted", `The escrow contract refused the call${name ? ` (${name})` : ""}`);
}

export async function sendEscrow(ready: EscrowReady, key: Hex, a: EscrowAction): Promise<EscrowResult> {
  const before = await readReservation(ready.client, ready.contract, key);
  if (landed(a, before)) return { ok: true, ...(await readBack(ready, key)) };
  if (before.status !== STARTS_FROM[a.action]) return wrongStart(a, before.status);
  const { client, operator } = ready;
  const contractCall = { address: ready.contract, abi: DECODING_ABI, ...call(key, a), account: operator } as const;
  let gas: bigint;
  try {
    await client.simulateContract(contractCall as Parameters<PublicClient["simulateContract"]>[0]);
    gas = await client.estimateContractGas(contractCall as Parameters<PublicClient["estimateContractGas"]>[0]);
  } catch (error) {
    // A twin call may have landed between the first read and the simulation: then it is this call's answer.
    const now = await readBack(ready, key);
    if (landed(a, now.reservation)) return { ok: true, ...now };
    return refusal(ready, a, error);
  }
  const fees = await client.estimateFeesPerGas();
  const data = encodeFunctionData(contractCall as Parameters<typeof encodeFunctionData>[0]);
  let hash: Hex;
  try {
    hash = await sendAsOperator(ready, operator, {
      to: ready.contract,
      data,
      gas: (gas * 12n) / 10n,
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    });
  } catch (error) {
    return refusal(ready, a, error);
  }
  const receipt = await waitForReceipt(client, hash);
  const after = await readBack(ready, key);
  if (receipt.status === "success" || landed(a, after.reservation))
    return { ok: true, txHash: receipt.status === "success" ? receipt.transactionHash : after.txHash, reservation: after.reservation };
  return refuseEscrow("reverted", "The transaction reverted on chain");
}
