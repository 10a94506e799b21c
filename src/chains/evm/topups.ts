/**
 * Auto-topup on EVM networks (src/chains/topup-types.ts). Balances: one Multicall3 `aggregate3` eth_call per chunk
 * of targets (`allowFailure`, so one odd wallet never fails the rest), its first call Multicall3's own
 * `getBlockNumber`, so the read also says where a lost send is looked for. Sends: the operator key
 * (SUBSCRIPTION_EVM_OPERATOR_KEY, nonces from operator.ts) calls the token's `transferFrom(funder, target, amount)`
 * under the ERC-20 allowance the funding wallet gave it, with the dispatch's 32-byte reference appended to the
 * calldata: the token's ABI decoder ignores trailing bytes, and the reference then names the transaction on chain,
 * so a send whose answer was lost is found again from the token's Transfer logs (lookup) instead of sent twice.
 * `sign` simulates and signs (taking the nonce) without broadcasting, so the service records the hash and nonce
 * before `send` broadcasts them; a lookup declares a send lost only once the mined nonce has passed the recorded one.
 */
import {
  encodeFunctionData,
  erc20Abi,
  getAddress,
  isAddress,
  parseAbiItem,
  TransactionReceiptNotFoundError,
  type Hex,
  type PublicClient,
} from "viem";
import { MULTICALL3_ADDRESS } from "../../lib/networks";
import { refuseOperation } from "../subscription-types";
import type { BalancesRequest, TopupAdapter, TopupSend } from "../topup-types";
import type { TokenConfig } from "../types";
import { balanceOfData, type Call3, decodeAggregate3, encodeAggregate3, GET_BLOCK_NUMBER, isHexAddress } from "./multicall";
import { broadcastAsOperator, nonceTooLow, operatorAccount, releaseNonce, signAsOperator } from "./operator";
import { landReceipt, throwUnlessUnfunded } from "./receipt";
import { guarded } from "./rpc-guard";
import { classifyTokenRefusal, readRevert } from "./subscription-errors";

// An estimate is exact for the state it ran on; a little headroom covers a storage slot changing first.
const TRANSFER = parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)");
const GAS_HEADROOM = (gas: bigint) => (gas * 12n) / 10n;
/** How far back a lookup without a starting block searches (about a day on a 12 s chain). */
const LOOKBACK_BLOCKS = 7_200n;

const tokenAddress = (token: TokenConfig): Hex | null => (token.contract && isAddress(token.contract) ? getAddress(token.contract) : null);

/** What a caller does before retrying a send whose answer was lost. */
const BEFORE_RETRY = "look the reference up before retrying";

async function readBalances(client: PublicClient, request: BalancesRequest, token: Hex) {
  const multicall = getAddress(request.network.multicall3 ?? MULTICALL3_ADDRESS);
  const balances: (bigint | null)[] = new Array(request.wallets.length).fill(null);
  const blockCall: Call3 = { target: multicall, allowFailure: true, callData: GET_BLOCK_NUMBER };
  let requests = 0;
  let blockNumber: bigint | null = null;
  for (let start = 0; start < request.wallets.length; start += request.chunkSize) {
    const slice = request.wallets.slice(start, start + request.chunkSize);
    const readable = slice.flatMap((wallet, i) => (isHexAddress(wallet) ? [start + i] : []));
    if (readable.length === 0) continue;
    const calls = readable.map((index) => ({ target: token, allowFailure: true, callData: balanceOfData(request.wallets[index]!) }));
    // aggregate3 is payable, so viem's readContract refuses it: an eth_call by hand (multicall.ts encodes it).
    const { data } = await client.call({ to: multicall, data: encodeAggregate3([blockCall, ...calls]) });
    if (!data) throw new Error("Multicall3 answered nothing: is it deployed at the configured address?");
    const [block, ...results] = decodeAggregate3(data);
    requests++;
    if (blockNumber === null && block?.success && block.returnData.length === 66) blockNumber = BigInt(block.returnData);
    results.forEach((result, i) => {
      // A token that answers nothing usable for a wallet leaves it unread (null), never read as zero.
      if (result.success && result.returnData.length === 66) balances[readable[i]!] = BigInt(result.returnData);
    });
  }
  return { ok: true as const, balances, requests, blockNumber };
}

function prepareSend(request: TopupSend) {
  const token = tokenAddress(request.token);
  if (!token) return refuseOperation("not_configured", "Top-ups move ERC-20 tokens, not the native coin");
  if (!isAddress(request.funder, { strict: false }) || !isAddress(request.target, { strict: false }))
    return refuseOperation("autopay_not_installed", "The funding wallet or the target is not an EVM address");
  const operator = operatorAccount();
  if (!operator || request.network.chainId === null) return refuseOperation("not_configured", "No operator key is configured for EVM networks");
  const ref = /^(?:0x)?([0-9a-fA-F]{64})$/.exec(request.reference)?.[1]?.toLowerCase();
  if (!ref) return refuseOperation("reverted", "A reference is 32 bytes of hex");
  const call = {
    address: token,
    abi: erc20Abi,
    functionName: "transferFrom",
    args: [getAddress(request.funder), getAddress(request.target), request.amount],
  } as const;
  return {
    token,
    operator,
    ref,
    call,
    data: `${encodeFunctionData(call)}${ref}` as Hex,
    chainId: request.network.chainId,
    rpcUrl: request.network.rpcUrl,
  };
}

export const evmTopups: TopupAdapter = {
  balances(request) {
    const token = tokenAddress(request.token);
    if (!token) return Promise.resolve(refuseOperation("not_configured", "Top-ups read ERC-20 balances, not the native coin"));
    return guarded(request.network, BEFORE_RETRY, (client) => readBalances(client, request, token));
  },

  readFunding({ network, token, funder }) {
    const address = tokenAddress(token);
    const operator = operatorAccount();
    if (!address) return Promise.resolve(refuseOperation("not_configured", "Top-ups move ERC-20 tokens, not the native coin"));
    if (!operator) return Promise.resolve(refuseOperation("not_configured", "No operator key is configured for EVM networks"));
    if (!isAddress(funder, { strict: false }))
      return Promise.resolve(refuseOperation("autopay_not_installed", "The funding wallet is not an EVM address"));
    return guarded(network, BEFORE_RETRY, async (client) => {
      const owner = getAddress(funder);
      const [allowance, balance] = await Promise.all([
        client.readContract({ address, abi: erc20Abi, functionName: "allowance", args: [owner, operator.address] }),
        client.readContract({ address, abi: erc20Abi, functionName: "balanceOf", args: [owner] }),
      ]);
      return { ok: true as const, operator: operator.address, allowance, balance };
    });
  },

  sign(request) {
    const ready = prepareSend(request);
    if ("ok" in ready) return Promise.resolve(ready);
    return guarded(request.network, BEFORE_RETRY, async (client) => {
      const { call, operator, token } = ready;
      let gas: bigint;
      try {
        await client.simulateContract({ ...call, account: operator });
        gas = await client.estimateGas({ account: operator, to: token, data: ready.data });
      } catch (error) {
        const refused = readRevert(error);
        if (refused.kind === "refusal") return refused.refusal;
        if (refused.kind === "rpc") return throwUnlessUnfunded(error);
        return classifyTokenRefusal(client, { token, payer: call.args[0], spender: operator.address, amount: request.amount });
      }
      const fees = await client.estimateFeesPerGas();
      const signed = await signAsOperator(endpointOf(client, ready), operator, {
        to: token,
        data: ready.data,
        gas: GAS_HEADROOM(gas),
        maxFeePerGas: fees.maxFeePerGas,
        maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
      });
      return { ok: true as const, txHash: signed.hash, nonce: signed.nonce, lastValidBlockHeight: null, envelope: signed.serialized };
    });
  },

  send(request) {
    const ready = prepareSend(request);
    if ("ok" in ready) return Promise.resolve(ready);
    const envelope = request.signed?.envelope;
    if (!envelope) return Promise.resolve(refuseOperation("reverted", "A top-up is broadcast only once signed and recorded; nothing was sent"));
    return guarded(request.network, BEFORE_RETRY, async (client) => {
      const receipt = await landReceipt(client, () =>
        broadcastAsOperator(endpointOf(client, ready), ready.operator, envelope as Hex).catch((error: unknown) => {
          if (nonceTooLow(error)) throw new NonceUsed();
          throw error;
        }),
      ).catch((error: unknown) => {
        if (error instanceof NonceUsed)
          return refuseOperation("reverted", "The operator's nonce was used by another transaction first; nothing moved");
        throw error;
      });
      if ("ok" in receipt) return receipt;
      if (receipt.status !== "success") return refuseOperation("reverted", "The transfer reverted on chain; nothing moved");
      return { ok: true as const, txHash: receipt.transactionHash, blockNumber: receipt.blockNumber };
    });
  },

  lookup(request) {
    const ready = prepareSend(request);
    if ("ok" in ready) return Promise.resolve(ready);
    return guarded(request.network, BEFORE_RETRY, async (client) => {
      const signed = request.signed;
      // Read first: whatever used a nonce below this count was mined before the searches below run.
      const mined = await client.getTransactionCount({ address: ready.operator.address, blockTag: "latest" });
      const latest = await client.getBlockNumber({ cacheTime: 0 }); // viem caches it for seconds: a send just mined would be missed
      const fromBlock = request.fromBlock ?? (latest > LOOKBACK_BLOCKS ? latest - LOOKBACK_BLOCKS : 0n);
      const [from, to] = ready.call.args;
      const logs = await client.getLogs({ address: ready.token, event: TRANSFER, args: { from, to }, fromBlock, toBlock: latest });
      for (const log of logs) {
        const tx = await client.getTransaction({ hash: log.transactionHash });
        if (tx.input.toLowerCase().endsWith(ready.ref))
          return { ok: true as const, landed: { ok: true as const, txHash: log.transactionHash, blockNumber: log.blockNumber }, inFlight: false };
      }
      // Never signed and recorded: never broadcast (the send broadcasts only a recorded transaction).
      if (!signed || signed.nonce === null) return { ok: true as const, landed: null, inFlight: false };
      // The recorded hash itself, should the log search have missed it (an endpoint that bounds getLogs' range).
      const receipt = signed.txHash ? await receiptOf(client, signed.txHash as Hex) : null;
      if (receipt?.status === "success")
        return {
          ok: true as const,
          landed: { ok: true as const, txHash: receipt.transactionHash, blockNumber: receipt.blockNumber },
          inFlight: false,
        };
      // The recorded transaction can land only with its nonce: once the operator's mined count has passed it without
      // that transaction succeeding, it never will. Until then (a node that has not seen it yet) it may.
      return { ok: true as const, landed: null, inFlight: mined <= signed.nonce };
    });
  },

  release(request) {
    const ready = prepareSend(request);
    const nonce = request.signed?.nonce;
    if ("ok" in ready || nonce === null || nonce === undefined) return Promise.resolve({ ok: true as const });
    return guarded(request.network, BEFORE_RETRY, async (client) => {
      await releaseNonce(endpointOf(client, ready), ready.operator, nonce);
      return { ok: true as const };
    });
  },
};

/** The operator's endpoint: nonces are counted per RPC URL and key, shared with the subscription sends (operator.ts). */
const endpointOf = (client: PublicClient, ready: { chainId: number; rpcUrl: string }) => ({ client, rpcUrl: ready.rpcUrl, chainId: ready.chainId });

/** The receipt of `hash`, or null when the chain holds none; any other failure is the endpoint's. */
async function receiptOf(client: PublicClient, hash: Hex) {
  try {
    return await client.getTransactionReceipt({ hash });
  } catch (error) {
    if (error instanceof TransactionReceiptNotFoundError) return null;
    throw error;
  }
}

/** A broadcast refused because the transaction's nonce was used meanwhile: it can never land. */
class NonceUsed extends Error {}
