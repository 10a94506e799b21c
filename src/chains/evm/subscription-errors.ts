/**
 * What a refused subscription call means for the service. The contract's custom errors name the payer-side reason
 * exactly; a token's own refusal does not always (OpenZeppelin tokens raise ERC-6093 errors, USDC and older tokens
 * revert with a string, some say "allowance" for a short balance too), so an undecoded token refusal is classified
 * by reading the payer's balance and approval.
 */
import { BaseError, ContractFunctionRevertedError, erc20Abi, InsufficientFundsError, parseAbi, type Hex, type PublicClient } from "viem";
import { refuseOperation, type SubscriptionFailure, type SubscriptionRefusal } from "../subscription-types";
import { SUBSCRIPTIONS_ABI } from "./subscription-contract";

/** The contract's ABI plus the ERC-20 errors SafeERC20 passes through from OpenZeppelin tokens, for decoding. */
export const DECODING_ABI = [
  ...SUBSCRIPTIONS_ABI,
  ...parseAbi([
    "error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)",
    "error ERC20InsufficientAllowance(address spender, uint256 allowance, uint256 needed)",
  ]),
] as const;

type Args = readonly unknown[];

const CONTRACT_ERRORS: Record<string, [SubscriptionFailure, (args: Args) => string]> = {
  InvalidSignature: ["consent_invalid", () => "The payer's account does not accept the consent's signature"],
  InvalidAuthorization: ["consent_invalid", () => "The consent's terms cannot be installed (no allowance or period, or already ended)"],
  ConsentUsed: ["consent_used", () => "The payer's consent was already used or cancelled"],
  AuthorizationExpired: ["autopay_expired", (a) => `The payer's authorization ended at ${a[0]} (unix seconds)`],
  OverPeriodAllowance: [
    "insufficient_allowance",
    (a) => `The charge of ${a[0]} is more than the ${a[1]} left of the payer's allowance for the current period`,
  ],
  OverCap: ["insufficient_allowance", (a) => `The charge of ${a[0]} is more than the ${a[1]} left of the payer's authorized total`],
  SubscriptionRevoked: ["revoked", () => "The subscription was revoked on chain"],
  UnknownSubscription: ["reverted", (a) => `No subscription token ${a[0]} exists on the subscription contract`],
  ERC20InsufficientBalance: ["insufficient_balance", (a) => `The payer holds ${a[1]} of the token, less than ${a[2]}`],
  ERC20InsufficientAllowance: [
    "insufficient_allowance",
    (a) => `The payer approved the subscription contract for ${a[1]} of the token, less than ${a[2]}`,
  ],
  NotOperator: ["not_configured", () => "The configured operator key is not the subscription contract's operator"],
  NotPayerOrOperator: ["not_configured", () => "The configured operator key is not the subscription contract's operator"],
  NotPayer: ["not_configured", () => "Only the payer may change its subscription's authorization"],
};

export type Refused =
  | { kind: "refusal"; refusal: SubscriptionRefusal }
  /** the reference was used meanwhile (a twin call landed first): look it up */
  | { kind: "ref_used" }
  /** the token refused without a decodable reason: classify by reading balance and approval */
  | { kind: "token_refused" }
  /** not a revert at all: the endpoint failed */
  | { kind: "rpc" };

export function readRevert(error: unknown): Refused {
  const revert = error instanceof BaseError ? error.walk((e) => e instanceof ContractFunctionRevertedError) : null;
  if (!(revert instanceof ContractFunctionRevertedError)) return { kind: "rpc" };
  const name = revert.data?.errorName;
  if (name === "RefUsed") return { kind: "ref_used" };
  const known = name ? CONTRACT_ERRORS[name] : undefined;
  if (known) return { kind: "refusal", refusal: refuseOperation(known[0], known[1](revert.data?.args ?? [])) };
  if (name && name !== "SafeERC20FailedOperation" && name !== "Error")
    return { kind: "refusal", refusal: refuseOperation("reverted", `The subscription contract refused the call (${name})`) };
  return { kind: "token_refused" };
}

/** A token refused the pull without saying why in a form we decode: the payer's balance and approval tell. */
export async function classifyTokenRefusal(
  client: PublicClient,
  call: { token: Hex; payer: Hex; spender: Hex; amount: bigint },
): Promise<SubscriptionRefusal> {
  const [balance, allowance] = await Promise.all([
    client.readContract({ address: call.token, abi: erc20Abi, functionName: "balanceOf", args: [call.payer] }),
    client.readContract({ address: call.token, abi: erc20Abi, functionName: "allowance", args: [call.payer, call.spender] }),
  ]);
  if (balance < call.amount) return refuseOperation("insufficient_balance", `The payer holds ${balance} of the token, less than ${call.amount}`);
  if (allowance < call.amount)
    return refuseOperation(
      "insufficient_allowance",
      `The payer approved the subscription contract for ${allowance} of the token, less than ${call.amount}`,
    );
  return refuseOperation("reverted", "The token refused the transfer");
}

/**
 * The node refused the operator's transaction because the operator's account cannot pay its gas (checked on
 * sending, and by some nodes when estimating). Nodes word it differently; viem's own pattern matches their wordings.
 * Ours to fix, not the payer's, and definite: nothing was sent.
 */
export function operatorCannotPayGas(error: unknown): SubscriptionRefusal | null {
  if (!(error instanceof BaseError)) return null;
  const found = error.walk((e) => e instanceof InsufficientFundsError || InsufficientFundsError.nodeMessage.test(detailsOf(e)));
  return found
    ? refuseOperation("not_configured", "The subscription operator's account has too little of the network's native coin to pay for gas")
    : null;
}

const detailsOf = (e: unknown): string => ((e instanceof BaseError ? e.details : undefined) ?? "").toLowerCase();
