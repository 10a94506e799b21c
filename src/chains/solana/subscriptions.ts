/**
 * Solana subscriptions (src/chains/subscription-types.ts) through an SPL delegate. The payer approves the
 * service's operator as delegate of their token account (approveChecked) for a total: the lifetime cap
 * (autopay.ts). Activation pulls the first payment and mints the subscription token (activation.ts);
 * charges pull through the delegate (charge.ts); every operation's reference names an account that only
 * its one transaction can create, which makes the reference idempotent on chain and findable (landed.ts).
 * Revoking is the owner's instruction alone (SPL `revoke` needs the owner's signature): the operator
 * cannot, so `revoke` answers ok with no transaction and pulls stop because the service stops sending them.
 */
import type { ChainOperation, OperationResult, SubscriptionAdapter, SubscriptionRefusal } from "../subscription-types";
import { operatorKey } from "../../lib/operator-keys";
import { refuseOperation } from "../subscription-types";
import { activationPlan } from "./activation";
import { autopayState, resolveParties, solanaKey, type Parties } from "./autopay";
import { chargePlan } from "./charge";
import { findOperation } from "./landed";
import { solanaChains } from "./chain";
import { canonicalReference, operationKeypair } from "./operator";
import { pull, type SolanaChain } from "./pull";
import { READ, type Timing } from "./send";
import { decodeTokenAccount } from "./spl";

/** ok with nothing sent: the transaction hash of an operation that had no transaction. */
export const NO_TRANSACTION = "";

/**
 * Defaults fit a 20 s chain job (CHAIN_JOB_TIMEOUT_MS): finalization takes about 13 s on a live cluster,
 * so the adapter answers `timeout` itself, with the reference to look up, before the pool gives up on it.
 * The key is read per call from the worker's environment (the pool puts it there); tests may pass another source.
 */
export function createSolanaSubscriptions(
  timing: Timing = { requestMs: 5_000, settleMs: 16_000, pollMs: 500 },
  key: () => string | undefined = () => operatorKey("solana"),
): SubscriptionAdapter {
  const chainFor = solanaChains(timing, key);

  /** Everything an operation needs, or why it cannot run: no operator key, a token or party we cannot use. */
  async function prepare(
    request: Parameters<SubscriptionAdapter["readAutopay"]>[0],
  ): Promise<{ chain: SolanaChain; parties: Parties } | SubscriptionRefusal> {
    const chain = await chainFor(request.network.rpcUrl);
    if ("ok" in chain) return chain;
    const parties = resolveParties(request);
    if ("ok" in parties) return parties;
    return { chain, parties };
  }

  const reference = (text: string) =>
    canonicalReference(text) ?? refuseOperation("reverted", "The operation reference is not 32 bytes of hex; nothing was sent.");

  return guarded({
    async readAutopay(request) {
      const ready = await prepare(request);
      if ("ok" in ready) return ready;
      const info = await ready.chain.connection.getAccountInfo(ready.parties.payerAccount, READ);
      return autopayState(decodeTokenAccount(info), ready.parties, ready.chain.operator.keypair.publicKey);
    },

    async activate(request) {
      const [ready, ref] = [await prepare(request), reference(request.reference)];
      if ("ok" in ready) return ready;
      if (typeof ref !== "string") return ref;
      const target = { amount: request.amount, reference: ref, parties: ready.parties };
      return pull(ready.chain, target, activationPlan(ready.chain, target));
    },

    async charge(request) {
      const [ready, ref] = [await prepare(request), reference(request.reference)];
      if ("ok" in ready) return ready;
      if (typeof ref !== "string") return ref;
      const subscription = solanaKey(request.tokenId);
      if (!subscription) return refuseOperation("autopay_not_installed", "The subscription token is not a Solana address.");
      const target = { amount: request.amount, reference: ref, parties: ready.parties };
      return pull(ready.chain, target, chargePlan(ready.chain, target, subscription));
    },

    // Only the owner can revoke an SPL delegate. Nothing is sent: the service records the mandate REVOKED and
    // never pulls again; the payer may also revoke in their wallet, after which every pull is refused.
    async revoke(request) {
      const ready = await prepare(request);
      if ("ok" in ready) return ready;
      return { ok: true, txHash: NO_TRANSACTION, tokenId: request.tokenId, amount: 0n, blockNumber: 0n } satisfies ChainOperation;
    },

    async lookup(request) {
      const [ready, ref] = [await prepare(request), reference(request.reference)];
      if ("ok" in ready) return ready;
      if (typeof ref !== "string") return ref;
      const { chain, parties } = ready;
      const marker = (await operationKeypair(chain.operator, ref)).publicKey;
      const found = await findOperation(
        chain.connection,
        marker,
        { parties, operator: chain.operator.keypair.publicKey, reference: ref },
        chain.timing,
      );
      if (found.kind === "found") return { ok: true, operation: found.operation };
      if (found.kind === "pending")
        return refuseOperation("timeout", "An operation with this reference is on chain but not final yet; look it up again shortly.");
      // `foreign`: the account exists, but no operation of ours made it; nothing of ours used the reference.
      return { ok: true, operation: null };
    },
  });
}

/**
 * The contract says never throw. Anything unforeseen (an endpoint down mid-operation, an answer web3.js
 * cannot parse) becomes `rpc_unavailable`: the outcome is unknown, and the reference says what happened.
 */
function guarded(adapter: SubscriptionAdapter): SubscriptionAdapter {
  const unknown = (): OperationResult =>
    refuseOperation(
      "rpc_unavailable",
      "The Solana RPC endpoint failed or answered something unreadable; if a transaction was sent, look its reference up before retrying.",
    );
  return {
    readAutopay: (request) => adapter.readAutopay(request).catch(unknown) as ReturnType<SubscriptionAdapter["readAutopay"]>,
    activate: (request) => adapter.activate(request).catch(unknown),
    charge: (request) => adapter.charge(request).catch(unknown),
    revoke: (request) => adapter.revoke(request).catch(unknown),
    lookup: (request) => adapter.lookup(request).catch(unknown) as ReturnType<SubscriptionAdapter["lookup"]>,
  };
}

export const solanaSubscriptions: SubscriptionAdapter = createSolanaSubscriptions();
