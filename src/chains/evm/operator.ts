/**
 * The operator's transactions. One operator key sends many transactions at once (renewals run concurrently, each
 * its own job in this worker), and an account's nonces must be used in order without gaps or repeats. So the
 * nonce is counted here, per (endpoint, operator): fetched once from the node (pending), then handed out one by
 * one inside a per-account queue that covers only sign + send; gas, fees and waiting for the receipt happen
 * outside it, so concurrent operations still overlap. When the node disagrees (a nonce error), the count is
 * fetched again and the send is tried once more (a transaction sent with the key from elsewhere). Two counters for
 * one key would collide, so the pool runs every EVM subscription job in one worker (pool.ts, keyHolder).
 *
 * A caller that must record a transaction before it can exist on chain (auto-topup's recovery reads the recorded
 * hash and nonce: docs/agents.md#recovery) signs first (`signAsOperator` takes the nonce), then broadcasts
 * (`broadcastAsOperator`), or gives the nonce back (`releaseNonce`) when it will not broadcast.
 */
import { BaseError, keccak256, type Hex, type PublicClient } from "viem";
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

function senderOf(endpoint: OperatorEndpoint, account: PrivateKeyAccount): Sender {
  const key = `${endpoint.rpcUrl}|${account.address}`;
  let sender = senders.get(key);
  if (!sender) {
    sender = { account, next: null, queue: Promise.resolve() };
    senders.set(key, sender);
  }
  return sender;
}

/** Runs `step` in the account's queue, after every step queued before it. */
function queued<T>(sender: Sender, step: () => Promise<T>): Promise<T> {
  const mine = sender.queue.then(step);
  sender.queue = mine.catch(() => undefined); // one failed send never blocks the ones behind it
  return mine;
}

/** Signs and sends `tx` with the next nonce of `account` on this endpoint; resolves to the transaction hash. */
export function sendAsOperator(endpoint: OperatorEndpoint, account: PrivateKeyAccount, tx: OperatorTransaction): Promise<Hex> {
  const sender = senderOf(endpoint, account);
  return queued(sender, () => signAndSend(endpoint.client, endpoint.chainId, sender, tx));
}

export interface SignedTransaction {
  hash: Hex;
  nonce: number;
  serialized: Hex;
}

/** Signs `tx` with the next nonce of `account`, which it takes: broadcast it, or give the nonce back (releaseNonce). */
export function signAsOperator(endpoint: OperatorEndpoint, account: PrivateKeyAccount, tx: OperatorTransaction): Promise<SignedTransaction> {
  const sender = senderOf(endpoint, account);
  return queued(sender, async () => {
    // A signed transaction is not retried with another nonce (its hash is recorded), so the count is checked against
    // the node's each time: a key used from elsewhere (another instance) moves it on, and the signature holds.
    const fromNode = await endpoint.client.getTransactionCount({ address: account.address, blockTag: "pending" });
    const nonce = Math.max(sender.next ?? 0, fromNode);
    const serialized = await sign(endpoint.chainId, sender, tx, nonce);
    sender.next = nonce + 1;
    return { hash: keccak256(serialized), nonce, serialized };
  });
}

/** Whether a node refused a transaction because its nonce is already used: then it can never land. */
export const nonceTooLow = (error: unknown): boolean =>
  error instanceof BaseError ? Boolean(error.walk((e) => /nonce too low/i.test((e as Error).message))) : /nonce too low/i.test(String(error));

/** Broadcasts a transaction signAsOperator signed; a failure makes the node's count the truth again. */
export function broadcastAsOperator(endpoint: OperatorEndpoint, account: PrivateKeyAccount, serialized: Hex): Promise<Hex> {
  const sender = senderOf(endpoint, account);
  return endpoint.client.sendRawTransaction({ serializedTransaction: serialized }).catch((error: unknown) => {
    sender.next = null;
    throw error;
  });
}

/**
 * A signed transaction that will never be broadcast: its nonce is handed out again when it was the last one taken;
 * otherwise the count is asked of the node again (whose pending count stops at the gap), so no later transaction
 * waits behind a nonce nobody sends.
 */
export function releaseNonce(endpoint: OperatorEndpoint, account: PrivateKeyAccount, nonce: number): Promise<void> {
  const sender = senderOf(endpoint, account);
  return queued(sender, async () => {
    sender.next = sender.next === nonce + 1 ? nonce : null;
  });
}

const nextNonce = async (client: PublicClient, sender: Sender) =>
  (sender.next ??= await client.getTransactionCount({ address: sender.account.address, blockTag: "pending" }));

const sign = (chainId: number, sender: Sender, tx: OperatorTransaction, nonce: number) =>
  sender.account.signTransaction({ ...tx, nonce, chainId, type: "eip1559", value: 0n });

async function signAndSend(client: PublicClient, chainId: number, sender: Sender, tx: OperatorTransaction): Promise<Hex> {
  for (let attempt = 0; ; attempt++) {
    const nonce = await nextNonce(client, sender);
    const serializedTransaction = await sign(chainId, sender, tx, nonce);
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
