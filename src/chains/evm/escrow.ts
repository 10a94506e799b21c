/**
 * The EVM escrow adapter over our contract (contracts/Escrow.sol, artifact in escrow-contract.ts). A network needs its
 * `escrowContract` in the registry; reads need only that, sends need the EVM operator key too
 * (SUBSCRIPTION_EVM_OPERATOR_KEY: one operator key per family, one nonce counter in the chain worker that holds it).
 */
import { getAddress, type Hex } from "viem";
import { refuseEscrow, type EscrowAdapter, type EscrowRefusal, type EscrowRequest } from "../escrow-types";
import { clientFor, wrongChain } from "./client";
import { escrowConsentTypedData, escrowKey } from "./escrow-consent";
import { readReservation, transitionTx } from "./escrow-reads";
import { sendEscrow, type EscrowReady } from "./escrow-send";
import { operatorAccount } from "./operator";

type Prepared = Omit<EscrowReady, "operator"> & Partial<Pick<EscrowReady, "operator">>;

function prepare(r: EscrowRequest, needsOperator: boolean): Prepared | EscrowRefusal {
  const { network } = r;
  if (!network.escrowContract || network.chainId === null)
    return refuseEscrow("not_configured", `No escrow contract is configured for ${network.id}`);
  const operator = needsOperator ? operatorAccount() : undefined;
  if (needsOperator && !operator) return refuseEscrow("not_configured", "No operator key is configured for EVM networks");
  return {
    client: clientFor(network),
    rpcUrl: network.rpcUrl,
    chainId: network.chainId,
    contract: getAddress(network.escrowContract),
    operator: operator ?? undefined,
  };
}

/** Runs `body` against the network; anything thrown past the verdicts is the endpoint failing us. */
async function guarded<T>(r: EscrowRequest, ready: Prepared, body: () => Promise<T>): Promise<T | EscrowRefusal> {
  try {
    const otherChain = await wrongChain(ready.client, r.network);
    if (otherChain) return refuseEscrow("rpc_unavailable", otherChain);
    return await body();
  } catch (error) {
    const name = error instanceof Error ? error.name : "Error";
    return refuseEscrow("rpc_unavailable", `The network's RPC endpoint did not answer usably (${name}); read the reservation before retrying`);
  }
}

export const evmEscrow: EscrowAdapter = {
  async read(r) {
    const ready = prepare(r, false);
    if ("ok" in ready) return ready;
    const key = escrowKey(r.requestNonce);
    return guarded(r, ready, async () => {
      const reservation = await readReservation(ready.client, ready.contract, key);
      return { ok: true as const, reservation, txHash: await transitionTx(ready.client, ready.contract, key, reservation) };
    });
  },

  async verifyConsent(r) {
    const ready = prepare(r, false);
    if ("ok" in ready) return ready;
    return guarded(r, ready, async () => {
      // viem asks the payer's account itself when it has code (ERC-1271, and ERC-6492 for one not deployed yet).
      const typed = escrowConsentTypedData({ chainId: ready.chainId, contract: ready.contract }, r.consent);
      const valid = await ready.client.verifyTypedData({ address: getAddress(r.consent.payer), ...typed, signature: r.signature as Hex });
      return { ok: true as const, valid };
    });
  },

  async send(r) {
    const ready = prepare(r, true);
    if ("ok" in ready) return ready;
    const { network: _n, requestNonce, ...action } = r;
    return guarded(r, ready, () => sendEscrow(ready as EscrowReady, escrowKey(requestNonce), action));
  },
};
