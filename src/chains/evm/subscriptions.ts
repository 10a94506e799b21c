/**
 * The EVM subscription adapter over our contract (contracts/Subscriptions.sol, artifact in subscription-contract.ts):
 * the payer authorizes a payee on the contract and approves it on the token; the operator key
 * (SUBSCRIPTION_EVM_OPERATOR_KEY) subscribes, charges and revokes through subscription-send.ts. A network needs its
 * `subscriptionContract` in the registry; reads need only that, operations need the key too.
 */
import { getAddress, isAddress, type Hex } from "viem";
import type { NetworkConfig } from "../types";
import { refuseOperation, type AutopayParties, type SubscriptionAdapter, type SubscriptionRefusal } from "../subscription-types";
import { clientFor, wrongChain } from "./client";
import { operatorAccount } from "./operator";
import { consentStruct, consentTypedData } from "./consent";
import { findOperation, readAutopayState } from "./subscription-reads";
import { SUBSCRIPTIONS_ABI } from "./subscription-contract";
import { operate, type Call, type Ready } from "./subscription-send";

type Prepared = Omit<Ready, "operator"> & Partial<Pick<Ready, "operator">>;

/** Everything a call needs from the registry and the environment, or why this network cannot do it. */
function prepare(p: AutopayParties, needsOperator: boolean): Prepared | SubscriptionRefusal {
  const { network, token } = p;
  if (!network.subscriptionContract || network.chainId === null)
    return refuseOperation("not_configured", `No subscription contract is configured for ${network.id}`);
  if (!token.contract) return refuseOperation("not_configured", "Subscriptions pull ERC-20 tokens, not the native coin");
  if (!isAddress(p.payer, { strict: false })) return refuseOperation("autopay_not_installed", "The payer is not an EVM address");
  if (!isAddress(p.payee, { strict: false })) return refuseOperation("not_configured", "The payee is not an EVM address");
  const operator = needsOperator ? operatorAccount() : undefined;
  if (needsOperator && !operator) return refuseOperation("not_configured", "No subscription operator key is configured for EVM networks");
  return {
    client: clientFor(network),
    rpcUrl: network.rpcUrl,
    chainId: network.chainId,
    operator: operator ?? undefined,
    parties: {
      contract: getAddress(network.subscriptionContract),
      payer: getAddress(p.payer),
      payee: getAddress(p.payee),
      token: getAddress(token.contract),
    },
  };
}

/** A reference is 32 bytes of hex, with or without 0x; the contract keys operations by it as bytes32. */
function toRef(reference: string): Hex | null {
  const hex = reference.startsWith("0x") ? reference.slice(2) : reference;
  return /^[0-9a-fA-F]{64}$/.test(hex) ? (`0x${hex.toLowerCase()}` as Hex) : null;
}

/** Runs `body` against the network; anything thrown past the verdicts is the endpoint failing us. */
async function guarded<T>(network: NetworkConfig, ready: Prepared, body: () => Promise<T>): Promise<T | SubscriptionRefusal> {
  try {
    const otherChain = await wrongChain(ready.client, network);
    if (otherChain) return refuseOperation("rpc_unavailable", otherChain);
    return await body();
  } catch (error) {
    const name = error instanceof Error ? error.name : "Error";
    return refuseOperation("rpc_unavailable", `The network's RPC endpoint did not answer usably (${name}); look the reference up before retrying`);
  }
}

/** Shared path of activate, charge and revoke. */
async function run(p: AutopayParties, reference: string, call: (ready: Ready, ref: Hex) => Promise<Call | SubscriptionRefusal>) {
  const ready = prepare(p, true);
  if ("ok" in ready) return ready;
  const ref = toRef(reference);
  if (!ref) return refuseOperation("reverted", "A reference is 32 bytes of hex");
  return guarded(p.network, ready, async () => {
    const made = await call(ready as Ready, ref);
    return "ok" in made ? made : operate(ready as Ready, ref, made);
  });
}

const tokenIdOf = (tokenId: string): bigint | null => (/^[1-9][0-9]{0,77}$/.test(tokenId) ? BigInt(tokenId) : null);
const unknownToken = () => refuseOperation("reverted", "A subscription token id is a positive decimal integer");

export const evmSubscriptions: SubscriptionAdapter = {
  async readAutopay(p) {
    const ready = prepare(p, false);
    if ("ok" in ready) return ready;
    const tokenId = p.tokenId === undefined ? null : tokenIdOf(p.tokenId);
    if (p.tokenId !== undefined && tokenId === null) return unknownToken();
    return guarded(p.network, ready, () => readAutopayState(ready.client, ready.parties, tokenId));
  },

  activate: (request) =>
    run(request, request.reference, async (ready, ref) => {
      const { consent } = request;
      if (!consent) return refuseOperation("consent_invalid", "An EVM subscription starts from the payer's signed consent");
      // The consent sets the on-chain window spacing; one longer than the plan's period would refuse every renewal
      // that comes sooner (the service checks this before reserving; here it guards the adapter's own callers).
      if (consent.periodSeconds > request.periodSeconds)
        return refuseOperation(
          "consent_invalid",
          `The payer's consent allows one period's charge every ${consent.periodSeconds} seconds; this plan renews every ${request.periodSeconds}`,
        );
      const struct = consentStruct({ ...ready.parties, chainId: ready.chainId }, consent);
      return { functionName: "subscribe", args: [struct, consent.signature as Hex, request.amount, ref], amount: request.amount };
    }),

  charge: (request) =>
    run(request, request.reference, async (_ready, ref) => {
      const tokenId = tokenIdOf(request.tokenId);
      if (tokenId === null) return unknownToken();
      return { functionName: "charge", args: [tokenId, request.amount, ref], amount: request.amount, tokenId };
    }),

  revoke: (request) =>
    run(request, request.reference, async (_ready, ref) => {
      const tokenId = tokenIdOf(request.tokenId);
      if (tokenId === null) return unknownToken();
      return { functionName: "revoke", args: [tokenId, ref], amount: 0n, tokenId };
    }),

  async verifyConsent(p) {
    const ready = prepare(p, false);
    if ("ok" in ready) return ready;
    const { client, parties, chainId } = ready;
    return guarded(p.network, ready, async () => {
      // viem asks the payer's account itself when it has code (ERC-1271, and ERC-6492 for one not deployed yet).
      const [valid, used] = await Promise.all([
        client.verifyTypedData({
          address: parties.payer,
          ...consentTypedData({ ...parties, chainId }, p.consent),
          signature: p.consent.signature as Hex,
        }),
        client.readContract({
          address: parties.contract,
          abi: SUBSCRIPTIONS_ABI,
          functionName: "consentUsed",
          args: [parties.payer, p.consent.salt as Hex],
        }),
      ]);
      return { ok: true as const, valid, used };
    });
  },

  async lookup(p) {
    const ready = prepare(p, false);
    if ("ok" in ready) return ready;
    const ref = toRef(p.reference);
    if (!ref) return refuseOperation("reverted", "A reference is 32 bytes of hex");
    return guarded(p.network, ready, async () => {
      const found = await findOperation(ready.client, ready.parties.contract, ref);
      if (!found) return { ok: true as const, operation: null };
      const { kind: _kind, ...operation } = found;
      return { ok: true as const, operation };
    });
  },
};
