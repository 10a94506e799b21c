/**
 * Pure reading of a receipt's ERC-20 `Transfer` logs against what a payment must prove. Kept apart from
 * the RPC calls so the refusal precedence is one small function.
 */
import { decodeEventLog, erc20Abi, getAddress, isAddressEqual, type Log } from "viem";
import { refuse, type PaymentRefusal, type VerifiedTransfer } from "../types";

const TRANSFER_TOPIC = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";

interface Want {
  contract: string;
  recipient: string;
  amount: bigint;
}

/**
 * Every log that is a `Transfer` emitted BY the accepted token's own contract, to the recipient, for at
 * least the amount. Another contract emitting an identical event proves nothing: the log's address is
 * checked, not only its topic. When nothing qualifies, the refusal names the closest miss.
 */
export function matchErc20Transfers(logs: readonly Log[], want: Want): VerifiedTransfer[] | PaymentRefusal {
  const fromToken = [];
  for (const log of logs) {
    if (log.topics[0] !== TRANSFER_TOPIC || !isAddressEqual(log.address, want.contract as `0x${string}`)) continue;
    try {
      const { args } = decodeEventLog({ abi: erc20Abi, eventName: "Transfer", data: log.data, topics: log.topics });
      fromToken.push({ index: log.logIndex ?? 0, from: args.from, to: args.to, value: args.value });
    } catch {
      continue; // a non-standard log under the Transfer topic (e.g. ERC-721 shape) is not a payment
    }
  }
  if (fromToken.length === 0) return refuse("wrong_token", "The transaction moved none of the accepted token");
  const toRecipient = fromToken.filter((t) => isAddressEqual(t.to, want.recipient as `0x${string}`));
  if (toRecipient.length === 0) return refuse("wrong_recipient", "The token was not sent to the expected recipient");
  const enough = toRecipient.filter((t) => t.value >= want.amount);
  if (enough.length === 0) return refuse("amount_too_low", `The recipient received less than ${want.amount} base units`);
  return enough.map((t) => ({ transferIndex: t.index, amount: t.value, payer: getAddress(t.from), payerDebited: true }));
}
