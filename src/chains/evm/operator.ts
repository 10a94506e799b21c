/**
 * The operator's transactions. One operator key sends many transactions at once (renewals run concurrently, each
 * its own job in this worker), and an account's nonces must be used in order without gaps or repeats. So the
 * nonce is counted here, per (endpoint, operator): fetched once from the node (pending), then handed out one by
 * one inside a per-account queue that covers only sign + send; gas, fees and waiting for the receipt happen
 * outside it, so concurrent operations still overlap. When the node disagrees (a nonce error), the count is
 * fetched again and the send is tried once more (a transaction sent with the key from elsewhere). Two counters for
 * one key would collide, so the pool runs every EVM subscription job in one worker (pool.ts, keyHolder).
 */
import { BaseError, type Hex, type PublicClient } from "viem";
import { privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { operatorKey } from "../../lib/operator-keys";

interface Sender {
  account: PrivateKeyAccount;
  /** the next nonce to use; null: ask the node */
  next: number | null;
  /** the tail of this account's send queue */
  queue: Promise<unknown>;
}

const senders = new Map<string, Sender>();

/** The operator account from SUBSCRIPTION_EVM_OPERATOR_KEY, or null when it is unset or not a private key. */
export function operatorAccount(): PrivateKeyAccount | null {
  const key = operatorKey("evm");
  if (!key || !/^0x[0-9a-fA-F]{64}$/.test(key)) return null;
  try {
    return privateKeyToAccount(key as Hex);
  } catch {
    return null; // e.g. zero or above the curve order
  }
}

export interface OperatorTransaction {
  to: Hex;
  data: Hex;
  gas: bigint;
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

const isNonceError = (error: unknown): boolean =>
  error instanceof BaseError ? Boolean(error.walk((e) => /nonce/i.test((e as Error).message))) : /nonce/i.test(String(error));

/** The endpoint an operator sends through: its client, the URL that names it (nonces are kept per URL) and its chain. */
export interface OperatorEndpoint {
  client: PublicClient;
  rpcUrl: string;
  chainId: number;
}

/** Signs and sends `tx` with the next nonce of `account` on this endpoint; resolves to the transaction hash. */
export function sendAsOperator(endpoint: OperatorEndpoint, account: PrivateKeyAccount, tx: OperatorTransaction): Promise<Hex> {
  const { client, rpcUrl, chainId } = endpoint;
  const key = `${rpcUrl}|${account.address}`;
  let sender = senders.get(key);
  if (!sender) {
    sender = { account, next: null, queue: Promise.resolve() };
    senders.set(key, sender);
  }
  const mine = sender.queue.then(() => signAndSend(client, chainId, sender, tx));
  sender.queue = mine.catch(() => undefined); // one failed send never blocks the ones behind it
  return mine;
}

async function signAndSend(client: PublicClient, chainId: number, sender: Sender, tx: OperatorTransaction): Promise<Hex> {
  for (let attempt = 0; ; attempt++) {
    sender.next ??= await client.getTransactionCount({ address: sender.account.address, blockTag: "pending" });
    const nonce = sender.next;
    const serializedTransaction = await sender.account.signTransaction({ ...tx, nonce, chainId, type: "eip1559", value: 0n });
    try {
      const hash = await client.sendRawTransaction({ serializedTransaction });
      sender.next = nonce + 1;
      return hash;
    } catch (error) {
      // Whatever happened, the node's count is the truth now (a send that timed out may still have landed).
      sender.next = null;
      if (attempt === 0 && isNonceError(error)) continue;
      throw error;
    }
  }
}
