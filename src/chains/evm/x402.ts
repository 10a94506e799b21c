/**
 * x402 `exact` payments on EVM (docs/x402.md#verification-and-settlement): `check` reads what the chain says about
 * an EIP-3009 authorization (signature, nonce, balance); `settle` sends it with the operator key
 * (SUBSCRIPTION_EVM_OPERATOR_KEY, the one EVM operator: nonces from operator.ts) as transferWithAuthorization,
 * simulated first so a refusal the token would give costs no transaction, and waits for the receipt; `find` looks up
 * the transaction that used an authorization, for a settlement whose outcome was lost.
 */
import {
  BaseError,
  ContractFunctionRevertedError,
  encodeFunctionData,
  getAddress,
  isAddressEqual,
  parseEventLogs,
  parseSignature,
  type Hex,
  type Log,
} from "viem";
import { refuseX402, type X402Adapter, type X402Refusal, type X402Transfer } from "../x402-types";
import { clientFor, wrongChain } from "./client";
import { authorizationTypedData, EIP3009_ABI } from "./eip3009";
import { operatorAccount, sendAsOperator } from "./operator";
import { waitForReceipt } from "./receipt";
import { operatorCannotPayGas } from "./subscription-errors";

const GAS_HEADROOM = (gas: bigint) => (gas * 12n) / 10n;
/** How far back `find` reads AuthorizationUsed logs: many endpoints refuse larger ranges (hours on L2s, a day on L1). */
const FIND_LOOKBACK_BLOCKS = 10_000n;

/** The token's own revert strings (USDC's FiatTokenV2 and most EIP-3009 tokens) as reasons. */
const TOKEN_REVERTS: [RegExp, X402Refusal["reason"]][] = [
  [/used or canceled|already used|AuthorizationUsed/i, "nonce_used"],
  [/expired|AuthorizationExpired/i, "expired"],
  [/not yet valid|NotYetValid/i, "not_yet_valid"],
  [/signature/i, "invalid_signature"],
  [/exceeds balance|insufficient balance|InsufficientBalance/i, "insufficient_funds"],
];

function revertReason(error: unknown): X402Refusal | null {
  const revert = error instanceof BaseError ? error.walk((e) => e instanceof ContractFunctionRevertedError) : null;
  if (!(revert instanceof ContractFunctionRevertedError)) return null;
  const text = `${revert.reason ?? ""} ${revert.data?.errorName ?? ""} ${revert.shortMessage}`;
  const found = TOKEN_REVERTS.find(([pattern]) => pattern.test(text));
  return refuseX402(found?.[1] ?? "reverted", `The token refused the authorization${revert.reason ? ` (${revert.reason})` : ""}`);
}

function prepared(request: X402Transfer) {
  const { network, token } = request;
  if (network.family !== "evm" || network.chainId === null || !token.contract || !token.eip712)
    return refuseX402("not_configured", `${token.symbol} on ${network.id} takes no EIP-3009 authorizations`);
  const typed = authorizationTypedData({ ...token.eip712, chainId: network.chainId, verifyingContract: token.contract }, request.authorization);
  return { client: clientFor(network), chainId: network.chainId, rpcUrl: network.rpcUrl, contract: getAddress(token.contract), typed };
}

/** Runs `body` against the network; anything thrown past the verdicts is the endpoint failing us. */
async function guarded<T>(request: X402Transfer, body: (ready: Exclude<ReturnType<typeof prepared>, X402Refusal>) => Promise<T>) {
  const ready = prepared(request);
  if ("ok" in ready) return ready;
  try {
    const otherChain = await wrongChain(ready.client, request.network);
    if (otherChain) return refuseX402("rpc_unavailable", otherChain);
    return await body(ready);
  } catch (error) {
    const name = error instanceof Error ? error.name : "Error";
    return refuseX402("rpc_unavailable", `The network's RPC endpoint did not answer usably (${name})`);
  }
}

export const evmX402: X402Adapter = {
  check: (request) =>
    guarded(request, async ({ client, contract, typed }) => {
      const from = typed.message.from;
      // viem asks the payer's account itself when it has code (ERC-1271), and recovers the key's address otherwise.
      const [signatureValid, nonceUsed, balance] = await Promise.all([
        client.verifyTypedData({ address: from, ...typed, signature: request.signature as Hex }),
        client.readContract({ address: contract, abi: EIP3009_ABI, functionName: "authorizationState", args: [from, typed.message.nonce] }),
        client.readContract({ address: contract, abi: EIP3009_ABI, functionName: "balanceOf", args: [from] }),
      ]);
      return { ok: true as const, signatureValid, nonceUsed, balance };
    }),

  settle: (request) =>
    guarded(request, async (ready) => {
      const operator = operatorAccount();
      if (!operator) return refuseX402("not_configured", "No EVM operator key is configured to settle x402 payments");
      const { client, contract, typed } = ready;
      const m = typed.message;
      let v: number;
      let r: Hex;
      let s: Hex;
      try {
        const sig = parseSignature(request.signature as Hex);
        v = Number(sig.v ?? BigInt(27 + (sig.yParity ?? 0)));
        r = sig.r;
        s = sig.s;
      } catch {
        return refuseX402("invalid_signature", "The signature is not 65 bytes of r, s and v");
      }
      const call = {
        address: contract,
        abi: EIP3009_ABI,
        functionName: "transferWithAuthorization",
        args: [m.from, m.to, m.value, m.validAfter, m.validBefore, m.nonce, v, r, s],
      } as const;
      let gas: bigint;
      try {
        await client.simulateContract({ ...call, account: operator });
        gas = await client.estimateContractGas({ ...call, account: operator });
      } catch (error) {
        const refused = revertReason(error) ?? operatorCannotPayGas(error);
        if (refused) return refused.reason === "not_configured" ? refuseX402("not_configured", refused.detail) : (refused as X402Refusal);
        throw error;
      }
      const fees = await client.estimateFeesPerGas();
      let hash: Hex;
      try {
        hash = await sendAsOperator(ready, operator, {
          to: contract,
          data: encodeFunctionData(call),
          gas: GAS_HEADROOM(gas),
          maxFeePerGas: fees.maxFeePerGas,
          maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
        });
      } catch (error) {
        const unfunded = operatorCannotPayGas(error);
        if (unfunded) return refuseX402("not_configured", unfunded.detail);
        throw error;
      }
      const receipt = await waitForReceipt(client, hash);
      if (receipt.status !== "success") return refuseX402("reverted", "The transferWithAuthorization transaction reverted on chain");
      const logIndex = authorizedTransfer(receipt.logs, contract, m);
      if (logIndex === null) return refuseX402("reverted", "The transaction carries no Transfer of the authorized value");
      return { ok: true as const, txHash: receipt.transactionHash, blockNumber: receipt.blockNumber, logIndex };
    }),

  find: (request) =>
    guarded(request, async ({ client, contract, typed }) => {
      const m = typed.message;
      const nonceUsed = await client.readContract({
        address: contract,
        abi: EIP3009_ABI,
        functionName: "authorizationState",
        args: [m.from, m.nonce],
      });
      if (!nonceUsed) return { ok: true as const, landed: null, nonceUsed };
      const latest = await client.getBlockNumber();
      const logs = await client.getLogs({
        address: contract,
        event: AUTHORIZATION_USED,
        args: { authorizer: m.from, nonce: m.nonce },
        fromBlock: latest > FIND_LOOKBACK_BLOCKS ? latest - FIND_LOOKBACK_BLOCKS : 0n,
        toBlock: latest,
      });
      for (const log of logs) {
        const receipt = await client.getTransactionReceipt({ hash: log.transactionHash! });
        // Whoever sent it, the authorization names payer, payee and value: its own Transfer is the payment.
        const logIndex = receipt.status === "success" ? authorizedTransfer(receipt.logs, contract, m) : null;
        if (logIndex !== null)
          return { ok: true as const, landed: { txHash: receipt.transactionHash, blockNumber: receipt.blockNumber, logIndex }, nonceUsed };
      }
      return { ok: true as const, landed: null, nonceUsed };
    }),
};

const AUTHORIZATION_USED = EIP3009_ABI.find((item) => item.type === "event" && item.name === "AuthorizationUsed") as Extract<
  (typeof EIP3009_ABI)[number],
  { name: "AuthorizationUsed" }
>;

/**
 * The index of the Transfer this very authorization made, or null. An EIP-3009 token (USDC's FiatTokenV2 and ours)
 * emits AuthorizationUsed(from, nonce) and then, as the next log, the authorization's Transfer: only that adjacent
 * log proves the money moved as authorized. Any other Transfer in the transaction (one contract may use several
 * authorizations in one call) is not this payment's, and a transaction where the two are not adjacent is left to
 * an operator rather than granted.
 */
function authorizedTransfer(logs: Log[], contract: Hex, m: { from: Hex; to: Hex; value: bigint; nonce: Hex }): number | null {
  const ours = logs.filter((log) => isAddressEqual(log.address, contract)).sort((a, b) => Number(a.logIndex) - Number(b.logIndex));
  const used = parseEventLogs({ abi: EIP3009_ABI, eventName: "AuthorizationUsed", logs: ours, strict: true }).find(
    (log) => isAddressEqual(log.args.authorizer, m.from) && log.args.nonce.toLowerCase() === m.nonce.toLowerCase(),
  );
  if (!used) return null;
  const next = ours.find((log) => log.logIndex === used.logIndex + 1);
  const [transfer] = next ? parseEventLogs({ abi: EIP3009_ABI, eventName: "Transfer", logs: [next], strict: true }) : [];
  const paid = transfer && isAddressEqual(transfer.args.from, m.from) && isAddressEqual(transfer.args.to, m.to) && transfer.args.value === m.value;
  return paid ? transfer.logIndex : null;
}
